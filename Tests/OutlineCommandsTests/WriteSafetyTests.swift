import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the writing commands do to files the user already has (issue 14, items 2-5), through
/// the binaries on real files, links, mounts and concurrent processes.
@Suite(.serialized) struct WriteSafetyTests {
  /// A small outline fmt changes (tabs), one --fix changes (a broken order), their canonical forms.
  static let messy = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="T">
    \t<Item order="0" title="a"/>
    \t<Item order="1" title="b"/>
    </outline>

    """
  static let broken = messy.replacingOccurrences(of: "order=\"1\"", with: "order=\"5\"")
  static let opml = """
    <?xml version="1.0"?>
    <opml version="2.0"><head><title>T</title></head>
    <body><outline text="a"/><outline text="b"/></body></opml>

    """

  func folder(_ files: [String: String] = [:]) throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(files, in: folder)
    return folder
  }

  func text(_ folder: URL, _ name: String) -> String? {
    FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  func status(_ folder: URL, _ name: String, followingLinks: Bool = false) -> stat {
    var result = stat()
    let path = folder.appendingPathComponent(name).path
    _ = followingLinks ? stat(path, &result) : lstat(path, &result)
    return result
  }

  func isLink(_ folder: URL, _ name: String) -> Bool {
    status(folder, name).st_mode & S_IFMT == S_IFLNK
  }

  // MARK: - Item 2: writes keep what the user had

  /// fmt, --fix (both binaries), convert -o and export -o write through a symbolic link.
  @Test(arguments: [
    ["outline", "fmt", "link.outline"], ["outline", "lint", "--fix", "link.outline"],
    ["outline-lint", "--fix", "link.outline"],
  ])
  func inPlaceCommandsWriteThroughSymbolicLinks(command: [String]) throws {
    let folder = try folder(["real/doc.outline": command.contains("--fix") ? Self.broken : Self.messy])
    symlink("real/doc.outline", folder.appendingPathComponent("link.outline").path)
    let run = try CLI.run(command[0], Array(command.dropFirst()), in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(isLink(folder, "link.outline"))
    let now = text(folder, "real/doc.outline")!
    #expect(now != (command.contains("--fix") ? Self.broken : Self.messy))
    #expect(!now.contains("order=\"5\"") && (command.contains("--fix") || !now.contains("\t")))
  }

  @Test func convertAndExportWriteThroughSymbolicLinks() throws {
    let folder = try folder(["doc.outline": Self.messy, "real/out.json": "old", "real/out.opml": "old"])
    symlink("real/out.json", folder.appendingPathComponent("out.json").path)
    symlink("real/out.opml", folder.appendingPathComponent("out.opml").path)
    #expect(try CLI.run("outline", ["convert", "doc.outline", "-o", "out.json"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["export", "doc.outline", "-o", "out.opml"], in: folder).status == 0)
    #expect(isLink(folder, "out.json") && isLink(folder, "out.opml"))
    #expect(text(folder, "real/out.json")!.hasPrefix("{"))
    #expect(text(folder, "real/out.opml")!.contains("<opml"))
  }

  @Test func hardLinksStayOneFile() throws {
    let folder = try folder(["doc.outline": Self.messy, "fix.outline": Self.broken])
    link(
      folder.appendingPathComponent("doc.outline").path, folder.appendingPathComponent("other.outline").path)
    link(
      folder.appendingPathComponent("fix.outline").path, folder.appendingPathComponent("fix2.outline").path)
    let inode = status(folder, "doc.outline").st_ino
    #expect(try CLI.run("outline", ["fmt", "other.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline-lint", ["--fix", "fix2.outline"], in: folder).status == 0)
    #expect(status(folder, "doc.outline").st_ino == inode && status(folder, "doc.outline").st_nlink == 2)
    #expect(text(folder, "doc.outline") == text(folder, "other.outline"))
    #expect(!text(folder, "doc.outline")!.contains("\t"))
    #expect(text(folder, "fix.outline") == text(folder, "fix2.outline"))
    #expect(!text(folder, "fix.outline")!.contains("order=\"5\""))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["doc.outline", "fix.outline", "fix2.outline", "other.outline"])
  }

  @Test func modeIsKept() throws {
    let folder = try folder(["doc.outline": Self.messy, "out.json": "old"])
    chmod(folder.appendingPathComponent("doc.outline").path, 0o640)
    chmod(folder.appendingPathComponent("out.json").path, 0o600)
    #expect(try CLI.run("outline", ["fmt", "doc.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["convert", "doc.outline", "-o", "out.json"], in: folder).status == 0)
    #expect(status(folder, "doc.outline").st_mode & 0o7777 == 0o640)
    #expect(status(folder, "out.json").st_mode & 0o7777 == 0o600)
  }

  /// Root gives the new file the old owner. Someone who cannot (nobody, in a folder it may
  /// write, on a file root owns but lets everyone write) rewrites the file in place instead.
  @Test(.enabled(if: getuid() == 0, "needs root to own files as someone else"))
  func ownerIsKept() throws {
    let folder = try folder(["doc.outline": Self.messy, "shared.outline": Self.messy])
    chown(folder.appendingPathComponent("doc.outline").path, 65534, 65534)
    #expect(try CLI.run("outline", ["fmt", "doc.outline"], in: folder).status == 0)
    #expect(status(folder, "doc.outline").st_uid == 65534 && status(folder, "doc.outline").st_gid == 65534)

    chmod(folder.path, 0o777)
    chmod(folder.appendingPathComponent("shared.outline").path, 0o666)
    let run = try CLI.run("outline", ["fmt", "shared.outline"], in: folder, asNobody: true)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(status(folder, "shared.outline").st_uid == 0)
    #expect(status(folder, "shared.outline").st_mode & 0o7777 == 0o666)
    #expect(!text(folder, "shared.outline")!.contains("\t"))
  }

  /// A 0444 file is refused by every command that would write it, even as root.
  @Test func readOnlyFilesAreRefused() throws {
    let folder = try folder([
      "doc.outline": Self.messy, "fix.outline": Self.broken, "out.json": "old", "out.opml": "old",
      "in.opml": Self.opml, "named.outline": "old",
    ])
    for name in ["doc.outline", "fix.outline", "out.json", "out.opml", "named.outline"] {
      chmod(folder.appendingPathComponent(name).path, 0o444)
    }
    let cases: [(String, [String], String)] = [
      ("outline", ["fmt", "doc.outline"], "doc.outline"),
      ("outline", ["lint", "--fix", "fix.outline"], "fix.outline"),
      ("outline-lint", ["--fix", "fix.outline"], "fix.outline"),
      ("outline", ["convert", "doc.outline", "-o", "out.json"], "out.json"),
      ("outline", ["export", "doc.outline", "-o", "out.opml"], "out.opml"),
      ("outline", ["import", "in.opml", "-o", "named.outline"], "named.outline"),
    ]
    for (tool, arguments, target) in cases {
      let before = text(folder, target)
      let run = try CLI.run(tool, arguments, in: folder)
      #expect(run.status == 2, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("'\(target)' is read-only; not changed"), "\(arguments): \(run.stderr)")
      #expect(text(folder, target) == before)
      #expect(status(folder, target).st_mode & 0o7777 == 0o444)
    }
  }

  // MARK: - Item 3: no silent overwrite

  @Test func importKeepsAnExistingOutlineItWasNotToldToReplace() throws {
    let folder = try folder(["in.opml": Self.opml, "in.outline": "mine"])
    let run = try CLI.run("outline", ["import", "in.opml"], in: folder)
    #expect(run.status == 2)
    #expect(run.stderr == "outline: 'in.outline' already exists; not replaced (use --force to replace it)\n")
    #expect(text(folder, "in.outline") == "mine")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("in.xcdatamodel").path))
    let forced = try CLI.run("outline", ["import", "--force", "in.opml"], in: folder)
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(text(folder, "in.outline")!.contains("<outline"))
  }

  @Test func importKeepsTheUsersOwnModel() throws {
    let folder = try folder(["in.opml": Self.opml, "out.xcdatamodel/contents": "my model"])
    let run = try CLI.run("outline", ["import", "in.opml", "-o", "out.outline"], in: folder)
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "outline: 'out.xcdatamodel/contents' already exists; not replaced (use --force to replace it)\n")
    #expect(text(folder, "out.xcdatamodel/contents") == "my model")
    #expect(text(folder, "out.outline") == nil)
    #expect(
      try CLI.run("outline", ["import", "--force", "in.opml", "-o", "out.outline"], in: folder).status == 0)
    #expect(text(folder, "out.xcdatamodel/contents")!.contains("<model"))
  }

  /// Importing the same file again writes the same bytes: nothing is lost, so no --force needed.
  @Test func importAgainOfTheSameFileNeedsNoForce() throws {
    let folder = try folder(["in.opml": Self.opml])
    #expect(try CLI.run("outline", ["import", "in.opml"], in: folder).status == 0)
    let first = text(folder, "in.outline")
    let again = try CLI.run("outline", ["import", "in.opml"], in: folder)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(text(folder, "in.outline") == first)
    // A changed OPML file would change the output: refused.
    try CLI.write(
      ["in.opml": Self.opml.replacingOccurrences(of: "text=\"b\"", with: "text=\"c\"")], in: folder)
    #expect(try CLI.run("outline", ["import", "in.opml"], in: folder).status == 2)
    #expect(text(folder, "in.outline") == first)
  }

  /// An output that is the input (named again, through a symbolic link, or a hard link) is refused.
  @Test func outputThatIsTheInputIsRefused() throws {
    let folder = try folder(["n.outline": Self.messy, "in.opml": Self.opml])
    symlink("n.outline", folder.appendingPathComponent("sym.outline").path)
    link(folder.appendingPathComponent("n.outline").path, folder.appendingPathComponent("hard.outline").path)
    let cases: [[String]] = [
      ["convert", "n.outline", "-o", "n.outline"],
      ["convert", "n.outline", "-o", "sym.outline", "--to", "json"],
      ["convert", "n.outline", "-o", "./hard.outline", "--to", "json"],
      ["export", "n.outline", "-o", "sym.outline"], ["import", "in.opml", "-o", "in.opml"],
    ]
    for arguments in cases {
      let run = try CLI.run("outline", arguments, in: folder)
      #expect(run.status == 2, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("is the input"), "\(arguments): \(run.stderr)")
      #expect(text(folder, "n.outline") == Self.messy && text(folder, "in.opml") == Self.opml)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("in.xcdatamodel").path))
    #expect(isLink(folder, "sym.outline"))
    // In place by design: fmt of the same file through a link is fine.
    #expect(try CLI.run("outline", ["fmt", "sym.outline"], in: folder).status == 0)
  }
}
