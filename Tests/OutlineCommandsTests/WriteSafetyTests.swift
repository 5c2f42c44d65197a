import Foundation
import OutlineModel
import TestSupport
import Testing

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

  /// An outline in the OPML model, beside the model it names: what `export` writes.
  static let exportable = [
    "opml.outline":
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\" model=\"OPML.xcdatamodel\" title=\"T\">\n  <Outline order=\"0\" text=\"a\"/>\n</outline>\n",
    "OPML.xcdatamodel/contents": ShippedModels.opml,
  ]

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
    let folder = try folder(
      Self.exportable.merging(["doc.outline": Self.messy, "real/out.json": "old", "real/out.opml": "old"]) {
        $1
      })
    symlink("real/out.json", folder.appendingPathComponent("out.json").path)
    symlink("real/out.opml", folder.appendingPathComponent("out.opml").path)
    #expect(try CLI.run("outline", ["convert", "doc.outline", "-o", "out.json"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["export", "opml.outline", "-o", "out.opml"], in: folder).status == 0)
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
    let folder = try folder(
      Self.exportable.merging([
        "doc.outline": Self.messy, "fix.outline": Self.broken, "out.json": "old", "out.opml": "old",
        "in.opml": Self.opml, "named.outline": "old",
      ]) { $1 })
    for name in ["doc.outline", "fix.outline", "out.json", "out.opml", "named.outline"] {
      chmod(folder.appendingPathComponent(name).path, 0o444)
    }
    let cases: [(String, [String], String)] = [
      ("outline", ["fmt", "doc.outline"], "doc.outline"),
      ("outline", ["lint", "--fix", "fix.outline"], "fix.outline"),
      ("outline-lint", ["--fix", "fix.outline"], "fix.outline"),
      ("outline", ["convert", "doc.outline", "-o", "out.json"], "out.json"),
      ("outline", ["export", "opml.outline", "-o", "out.opml"], "out.opml"),
      ("outline", ["import", "in.opml", "-o", "named.outline"], "named.outline"),
    ]
    for (tool, arguments, target) in cases {
      let before = text(folder, target)
      let run = try CLI.run(tool, arguments, in: folder)
      #expect(run.status == 2, "\(arguments): \(run.stderr)")
      #expect(run.stderr == "\(tool): '\(target)' is read-only; not changed\n", "\(arguments): \(run.stderr)")
      #expect(text(folder, target) == before)
      #expect(status(folder, target).st_mode & 0o7777 == 0o444)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("named.xcdatamodel").path))
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
    let folder = try folder(Self.exportable.merging(["n.outline": Self.messy, "in.opml": Self.opml]) { $1 })
    symlink("n.outline", folder.appendingPathComponent("sym.outline").path)
    symlink("opml.outline", folder.appendingPathComponent("opml-sym.outline").path)
    link(folder.appendingPathComponent("n.outline").path, folder.appendingPathComponent("hard.outline").path)
    let cases: [[String]] = [
      ["convert", "n.outline", "-o", "n.outline"],
      ["convert", "n.outline", "-o", "sym.outline", "--to", "json"],
      ["convert", "n.outline", "-o", "./hard.outline", "--to", "json"],
      ["export", "opml.outline", "-o", "opml-sym.outline"], ["import", "in.opml", "-o", "in.opml"],
    ]
    for arguments in cases {
      let run = try CLI.run("outline", arguments, in: folder)
      #expect(run.status == 2, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("is the input"), "\(arguments): \(run.stderr)")
      #expect(text(folder, "n.outline") == Self.messy && text(folder, "in.opml") == Self.opml)
      #expect(text(folder, "opml.outline") == Self.exportable["opml.outline"])
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("in.xcdatamodel").path))
    #expect(isLink(folder, "sym.outline"))
    // In place by design: fmt of the same file through a link is fine.
    #expect(try CLI.run("outline", ["fmt", "sym.outline"], in: folder).status == 0)
  }

  // MARK: - Item 4: no lost update, with real concurrent writers

  /// A large outline (40,000 items, about 0.5 s to format in an idle debug build) with tabs and broken
  /// orders, so both fmt and --fix change it.
  static let large = GeneratedOutline.twoLevels(parents: 200, children: 200)
    .replacingOccurrences(of: "\n <Item", with: "\n\t<Item   ")
    .replacingOccurrences(of: "\"c0\" order=\"0\"", with: "\"c0\" order=\"7\"")

  /// Starts `tool` with `arguments` in `folder`, its output collected.
  func start(_ tool: String, _ arguments: [String], in folder: URL) throws -> (Process, Pipe) {
    let process = Process()
    if tool == "sh" {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
    } else {
      process.executableURL = CLI.products.appendingPathComponent(tool)
    }
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return (process, errors)
  }

  func finish(_ started: (Process, Pipe)) -> (status: Int32, stderr: String) {
    let data = started.1.fileHandleForReading.readDataToEndOfFile()
    started.0.waitUntilExit()
    return (started.0.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// What `arguments` make of `contents`, run alone.
  func alone(_ contents: String, _ arguments: [String]) throws -> String {
    let folder = try folder(["doc.outline": contents])
    _ = try CLI.run("outline", arguments, in: folder)
    return text(folder, "doc.outline")!
  }

  /// fmt on a large file while another process replaces it (by rename, as editors save, or
  /// rewriting it in place, as `cat >` does) at a moment swept across fmt's run. Outline either
  /// wins (exit 0) or says it lost (exit 2, one message) and leaves the other writer's file; the
  /// file is never fmt's output of what the other writer replaced, and never a mix. Repeated
  /// over the whole sweep and until both outcomes were seen (each round longer), at most 40 times.
  @Test(arguments: ["rename", "in place"])
  func fmtAgainstAnotherWriter(style: String) throws {
    let other = Self.messy
    let formattedOther = try alone(other, ["fmt", "doc.outline"])
    let started = Date()
    let formattedLarge = try alone(Self.large, ["fmt", "doc.outline"])
    // The sweep spans fmt's run as measured now (the machine may be busy), and beyond it.
    let span = Date().timeIntervalSince(started) * 1.5
    let replace =
      style == "rename"
      ? "cp other.txt .other.tmp && mv .other.tmp doc.outline" : "cat other.txt > doc.outline"
    var won = 0
    var lost = 0
    var refused = 0
    for attempt in 0..<40 where attempt < 10 || won == 0 || lost == 0 {
      let folder = try folder(["doc.outline": Self.large, "other.txt": other])
      let delay = Double(attempt % 10) / 9 * span * Double(1 + attempt / 10)
      let writer = try start("sh", ["-c", "sleep \(delay); \(replace)"], in: folder)
      let fmt = finish(try start("outline", ["fmt", "doc.outline"], in: folder))
      #expect(finish(writer).status == 0)
      let final = text(folder, "doc.outline")
      #expect(final != formattedLarge, "attempt \(attempt): the other writer's update was lost")
      switch fmt.status {
      case 0:
        won += 1
        #expect(final == other || final == formattedOther, "attempt \(attempt): \(fmt.stderr)")
      case 2:
        lost += 1
        #expect(final == other, "attempt \(attempt)")
        #expect(fmt.stderr.contains("outline: 'doc.outline' changed while being formatted; run again\n"))
      default:
        // In place, fmt may have read the file half written: refused, left alone.
        #expect(style == "in place" && fmt.status == 1, "attempt \(attempt): \(fmt.stderr)")
        #expect(final == other)
        refused += 1
      }
    }
    #expect(won > 0 && lost > 0, "won \(won), lost \(lost), refused \(refused)")
  }

  /// fmt and --fix on the same large file at once: both win only one after the other (the file
  /// is one applied to the other's output); otherwise one says it lost and the file is the
  /// other's complete output. Repeated over the whole sweep and until both outcomes were seen (each round
  /// longer), at most 40 times.
  @Test func fmtAgainstFix() throws {
    let started = Date()
    let fmtOnly = try alone(Self.large, ["fmt", "doc.outline"])
    // The sweep spans fmt's run as measured now (the machine may be busy), and beyond it.
    let span = Date().timeIntervalSince(started) * 1.5
    let fixOnly = try alone(Self.large, ["lint", "--fix", "doc.outline"])
    let fmtThenFix = try alone(fmtOnly, ["lint", "--fix", "doc.outline"])
    let fixThenFmt = try alone(fixOnly, ["fmt", "doc.outline"])
    #expect(
      Set([fmtOnly, fixOnly, fmtThenFix]).count == 3 && Set([fmtOnly, fixOnly, fixThenFmt]).count == 3)
    var bothWon = 0
    var oneLost = 0
    for attempt in 0..<40 where attempt < 8 || bothWon == 0 || oneLost == 0 {
      let folder = try folder(["doc.outline": Self.large])
      let delay = Double(attempt % 8) / 7 * span * Double(1 + attempt / 8)
      let fix = try start(
        "sh", ["-c", "sleep \(delay); exec \(CLI.products.path)/outline lint --fix doc.outline"], in: folder)
      let fmt = finish(try start("outline", ["fmt", "doc.outline"], in: folder))
      let fixed = finish(fix)
      let final = text(folder, "doc.outline")
      switch (fmt.status, fixed.status) {
      case (0, 0):
        bothWon += 1
        let known = [Self.large, fmtOnly, fixOnly, fmtThenFix, fixThenFmt]
        let which = known.firstIndex(of: final ?? "") ?? -1
        let names = "A, fmt(A), fix(A), fmt(fix(A)), fix(fmt(A))"
        #expect(
          final == fmtThenFix || final == fixThenFmt,
          "attempt \(attempt): an update was lost: the file is #\(which) of \(names); fmt said \(fmt.stderr)")
      case (2, 0):
        oneLost += 1
        #expect(final == fixOnly, "attempt \(attempt)")
        #expect(fmt.stderr.contains("outline: 'doc.outline' changed while being formatted; run again\n"))
      case (0, 2):
        oneLost += 1
        #expect(final == fmtOnly, "attempt \(attempt)")
        #expect(fixed.stderr.contains("outline: 'doc.outline' changed while being fixed; run again\n"))
      default:
        Issue.record(
          "attempt \(attempt): fmt \(fmt.status) \(fmt.stderr), --fix \(fixed.status) \(fixed.stderr)")
      }
    }
    #expect(bothWon > 0 && oneLost > 0, "both won \(bothWon), one lost \(oneLost)")
  }

  // MARK: - Item 5: honest failure, on a real full disk and a read-only mount

  /// An outline that grows when formatted (tabs to two spaces, `"` to `&quot;`): 300 items.
  static let growing =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\" title=\"T\">\n"
    + (0..<300).map { "\t<Item order=\"\($0)\" title='\"\"\"\"\"'/>\n" }.joined() + "</outline>\n"

  /// The folder's files other than the filler: nothing half-written is left behind.
  func names(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "filler" }.sorted()
  }

  @Test(.enabled(if: Mounts.permitted, Comment(rawValue: Mounts.skipReason)))
  func fullDiskGivesOneMessageAndCountsOnlyWhatWasWritten() throws {
    let disk = try Mounts.tmpfs(kilobytes: 64)
    defer { Mounts.unmount(disk) }
    let elsewhere = try folder(
      Self.exportable.merging(["ok.outline": Self.messy, "in.opml": Self.opml]) { $1 })
    try CLI.write(["doc.outline": Self.messy, "fix.outline": Self.broken], in: disk)
    try Mounts.fill(disk, leaving: 0)
    let ok = elsewhere.appendingPathComponent("ok.outline").path

    let fmt = try CLI.run("outline", ["fmt", "doc.outline", ok], in: disk)
    #expect(fmt.status == 2)
    #expect(fmt.stderr == "outline: cannot write 'doc.outline': No space left on device\nformatted 1 file\n")
    #expect(text(disk, "doc.outline") == Self.messy && text(elsewhere, "ok.outline") != Self.messy)

    for tool in ["outline-lint", "outline"] {
      let fix = try CLI.run(tool, (tool == "outline" ? ["lint"] : []) + ["--fix", "fix.outline"], in: disk)
      #expect(fix.status == 2)
      #expect(fix.stderr == "\(tool): cannot write 'fix.outline': No space left on device\n")
      #expect(fix.stdout.contains("fix.outline:4:15: error[OL402]"), "the file's own error is still reported")
      #expect(text(disk, "fix.outline") == Self.broken)
    }

    let opml = elsewhere.appendingPathComponent("in.opml").path
    let exportable = elsewhere.appendingPathComponent("opml.outline").path
    for arguments in [
      ["convert", "doc.outline", "-o", "out.json"], ["export", exportable, "-o", "out.opml"],
      ["import", opml, "-o", "new.outline"],
    ] {
      let run = try CLI.run("outline", arguments, in: disk)
      #expect(run.status == 2, "\(arguments)")
      #expect(
        run.stderr.hasPrefix("outline: cannot write '") && run.stderr.contains("No space left on device")
          && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
    }
    #expect(try names(disk) == ["doc.outline", "fix.outline"])
  }

  /// A hard-linked file is rewritten in place; space for its growth is reserved first, so a full
  /// disk leaves it as it was.
  @Test(.enabled(if: Mounts.permitted, Comment(rawValue: Mounts.skipReason)))
  func fullDiskLeavesAHardLinkedFileAsItWas() throws {
    let disk = try Mounts.tmpfs(kilobytes: 64)
    defer { Mounts.unmount(disk) }
    try CLI.write(["doc.outline": Self.growing], in: disk)
    link(disk.appendingPathComponent("doc.outline").path, disk.appendingPathComponent("same.outline").path)
    let formatted = try alone(Self.growing, ["fmt", "doc.outline"])
    #expect(formatted.utf8.count > Self.growing.utf8.count + 4096)
    // Room for the new contents in the temporary file, not for the file's growth as well.
    try Mounts.fill(disk, leaving: (formatted.utf8.count + 4095) / 4096 * 4096)
    let run = try CLI.run("outline", ["fmt", "same.outline"], in: disk)
    #expect(run.status == 2)
    #expect(run.stderr == "outline: cannot write 'same.outline': No space left on device; not changed\n")
    #expect(text(disk, "doc.outline") == Self.growing && text(disk, "same.outline") == Self.growing)
    #expect(try names(disk) == ["doc.outline", "same.outline"])
  }

  @Test(.enabled(if: Mounts.permitted, Comment(rawValue: Mounts.skipReason)))
  func readOnlyMountGivesOneMessage() throws {
    let disk = try Mounts.tmpfs(kilobytes: 256)
    defer { Mounts.unmount(disk) }
    let elsewhere = try folder(Self.exportable.merging(["in.opml": Self.opml]) { $1 })
    try CLI.write(["doc.outline": Self.messy, "fix.outline": Self.broken], in: disk)
    try Mounts.makeReadOnly(disk)

    let fmt = try CLI.run("outline", ["fmt", "doc.outline"], in: disk)
    #expect(fmt.status == 2)
    #expect(fmt.stderr == "outline: cannot write 'doc.outline': Read-only file system; not changed\n")
    let fix = try CLI.run("outline-lint", ["--fix", "fix.outline"], in: disk)
    #expect(fix.status == 2)
    #expect(fix.stderr == "outline-lint: cannot write 'fix.outline': Read-only file system; not changed\n")
    #expect(fix.stdout.contains("fix.outline:4:15: error[OL402]"))
    for arguments in [
      ["convert", "doc.outline", "-o", "out.json"],
      ["export", elsewhere.appendingPathComponent("opml.outline").path, "-o", "out.opml"],
      ["import", elsewhere.appendingPathComponent("in.opml").path, "-o", "new.outline"],
    ] {
      let run = try CLI.run("outline", arguments, in: disk)
      #expect(run.status == 2, "\(arguments)")
      #expect(
        run.stderr.hasPrefix("outline: cannot write '") && run.stderr.contains("Read-only file system")
          && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
    }
    #expect(text(disk, "doc.outline") == Self.messy && text(disk, "fix.outline") == Self.broken)
    #expect(try names(disk) == ["doc.outline", "fix.outline"])
  }

  /// Standard output that cannot be written (/dev/full) is one message and exit 2, not silence.
  @Test(arguments: [["convert", "doc.outline"], ["export", "opml.outline"], ["fmt", "-"]])
  func fullStandardOutputIsReported(arguments: [String]) throws {
    let folder = try folder(Self.exportable.merging(["doc.outline": Self.messy]) { $1 })
    let process = Process()
    process.executableURL = CLI.products.appendingPathComponent("outline")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardInput = try FileHandle(forReadingFrom: folder.appendingPathComponent("doc.outline"))
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    #expect(stderr == "outline: cannot write standard output: No space left on device\n")
  }
}
