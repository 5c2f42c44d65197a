import Foundation
import TestSupport
import Testing

/// Issue 14, items 1, 8 and 9: only what should be read is read, models come
/// from inside the project, configuration problems are loud. Every run is
/// bounded: a tool that has not ended after 10 s is killed and the test fails.
@Suite(.serialized) struct ReadSafetyTests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
  }

  /// Runs `tool` with standard input read from `stdinPath` (default: empty),
  /// killing it after `limit` seconds (which fails the test).
  static func bounded(
    _ tool: String, _ arguments: [String], in folder: URL, stdinPath: String = "/dev/null",
    limit: Double = 10, asNobody: Bool = false
  ) throws -> Run {
    let process = CLI.process(tool, arguments, asNobody: asNobody)
    process.currentDirectoryURL = folder
    let start = Date()
    let output = try CLI.collect(process, stdin: FileHandle(forReadingAtPath: stdinPath), limit: limit)
    let run = Run(
      status: output.status, stdout: output.stdout, stderr: output.stderr,
      seconds: Date().timeIntervalSince(start))
    #expect(
      process.terminationReason == .exit,
      "\(tool) \(arguments) did not end within \(limit) s and was killed")
    return run
  }

  static func fifo(_ path: URL) throws {
    #expect(mkfifo(path.path, 0o644) == 0, "mkfifo \(path.path)")
  }

  static func link(_ path: URL, to target: String) throws {
    try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: target)
  }

  static let tagModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model><entity name="Tag"><attribute name="name" attributeType="String"/></entity></model>
    """

  // MARK: 1. Only regular files, never blocking, never past the limit

  /// Every command refuses a FIFO or a device named on its command line, at once.
  @Test func nonRegularPathsOnTheCommandLineAreExitTwo() throws {
    let folder = try CLI.temporaryFolder()
    try Self.fifo(folder.appendingPathComponent("f.outline"))
    try Self.fifo(folder.appendingPathComponent("f.json"))
    try Self.fifo(folder.appendingPathComponent("f.opml"))
    try Self.link(folder.appendingPathComponent("zero.outline"), to: "/dev/zero")
    let runs: [(String, [String], String)] = [
      ("outline-lint", ["f.outline"], "'f.outline' is not a regular file (a FIFO)"),
      ("outline-lint", ["--fix", "f.outline"], "'f.outline' is not a regular file (a FIFO)"),
      ("outline-lint", ["/dev/zero"], "'/dev/zero' is not a regular file (a character device)"),
      ("outline-lint", ["zero.outline"], "'zero.outline' is not a regular file (a character device)"),
      ("outline", ["lint", "f.outline"], "'f.outline' is not a regular file (a FIFO)"),
      ("outline", ["fmt", "f.outline"], "'f.outline' is not a regular file (a FIFO)"),
      ("outline", ["fmt", "--check", "zero.outline"], "(a character device)"),
      ("outline", ["convert", "f.outline"], "'f.outline' is not a regular file (a FIFO)"),
      ("outline", ["convert", "f.json"], "'f.json' is not a regular file (a FIFO)"),
      ("outline", ["convert", "--to", "xml", "/dev/zero"], "(a character device)"),
      ("outline", ["export", "f.outline"], "'f.outline' is not a regular file (a FIFO)"),
      ("outline", ["import", "f.opml", "-o", "x.outline"], "'f.opml' is not a regular file (a FIFO)"),
      ("outline", ["model", "check", "f.outline"], "'f.outline' is not a regular file (a FIFO)"),
    ]
    for (tool, arguments, message) in runs {
      let run = try Self.bounded(tool, arguments, in: folder)
      #expect(run.status == 2, "\(tool) \(arguments): \(run.stderr)")
      #expect(
        run.stderr.contains("\(tool): ") && run.stderr.contains(message),
        "\(tool) \(arguments): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(tool) \(arguments): \(run.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.outline").path))
  }

  /// A folder search takes regular files and links to regular files inside
  /// it; FIFOs, sockets, devices, links to them, dangling links, link loops,
  /// links out of the folder and links to folders are passed over.
  @Test func folderSearchesTakeRegularFilesOnly() throws {
    let folder = try CLI.temporaryFolder()
    let outside = try CLI.temporaryFolder()
    try CLI.write(
      [
        "tree/plain.outline": "<outline><Plain/></outline>\n",
        "tree/sub/deep.outline": "<outline><Deep/></outline>\n",
        "outside.outline": "<outline><Outside/></outline>\n",
      ], in: folder)
    try CLI.write(
      ["far.outline": "<outline><Far/></outline>\n", "more/m.outline": "<outline><M/></outline>\n"],
      in: outside)
    let tree = folder.appendingPathComponent("tree")
    try Self.fifo(tree.appendingPathComponent("pipe.outline"))
    try Self.link(tree.appendingPathComponent("zero.outline"), to: "/dev/zero")
    try Self.link(tree.appendingPathComponent("tty.outline"), to: "/dev/tty")
    try Self.link(tree.appendingPathComponent("dangling.outline"), to: "nowhere.outline")
    try Self.link(tree.appendingPathComponent("self.outline"), to: "self.outline")
    try Self.link(tree.appendingPathComponent("inside.outline"), to: "sub/deep.outline")
    try Self.link(tree.appendingPathComponent("up.outline"), to: "../outside.outline")
    try Self.link(
      tree.appendingPathComponent("far.outline"), to: outside.appendingPathComponent("far.outline").path)
    try Self.link(tree.appendingPathComponent("loop"), to: "..")
    try Self.link(tree.appendingPathComponent("sub/back"), to: "..")
    try Self.link(tree.appendingPathComponent("more"), to: outside.appendingPathComponent("more").path)
    let socketPath = tree.appendingPathComponent("sock.outline").path
    let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    defer { close(socketDescriptor) }
    #expect(bound == 0, "bind a socket at \(socketPath)")

    let run = try Self.bounded("outline-lint", ["tree"], in: folder)
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr == "")
    let linted = run.stdout.split(separator: "\n").compactMap { line in
      line.firstRange(of: ".outline:").map { String(line[..<$0.lowerBound]) + ".outline" }
    }
    #expect(
      linted == ["tree/inside.outline", "tree/plain.outline", "tree/sub/deep.outline"], "\(run.stdout)")

    // --follow: links to folders (the loops end: each folder once) and links out of the tree.
    let followed = try Self.bounded("outline-lint", ["--follow", "tree"], in: folder)
    #expect(followed.status == 1, "\(followed.stdout)\(followed.stderr)")
    let followedFiles = followed.stdout.split(separator: "\n").compactMap { line in
      line.firstRange(of: ".outline:").map { String(line[..<$0.lowerBound]) + ".outline" }
    }
    #expect(followedFiles.contains("tree/far.outline"))
    #expect(followedFiles.contains("tree/up.outline"))
    #expect(followedFiles.contains("tree/more/m.outline"))
    // Each folder is searched once: `loop` (the parent, new) is, but the tree
    // again through `loop/tree` or `sub/back` is not.
    #expect(followedFiles.filter { $0.hasSuffix("outside.outline") } == ["tree/loop/outside.outline"])
    #expect(!followedFiles.contains { $0.contains("loop/tree/") || $0.contains("back/") }, "\(followedFiles)")
    #expect(followedFiles.filter { $0.hasSuffix("deep.outline") }.count == 1, "\(followedFiles)")
    #expect(!followedFiles.contains { $0.contains("zero") || $0.contains("pipe") || $0.contains("sock") })

    // fmt searches folders the same way (--check lists every file: none is in the canonical layout).
    let formatted = try Self.bounded("outline", ["fmt", "--check", "tree"], in: folder)
    #expect(formatted.stderr == "")
    #expect(formatted.stdout == "tree/inside.outline\ntree/plain.outline\ntree/sub/deep.outline\n")
    let formattedFollowing = try Self.bounded("outline", ["fmt", "--check", "--follow", "tree"], in: folder)
    #expect(formattedFollowing.stdout.split(separator: "\n").map(String.init) == followedFiles)
  }

  /// Standard input has the same limit as any input, and it is enforced while
  /// reading: `/dev/zero` on standard input ends promptly.
  @Test func standardInputOverTheLimitEndsPromptly() throws {
    let folder = try CLI.temporaryFolder()
    let zero = try Self.bounded("outline-lint", ["-"], in: folder, stdinPath: "/dev/zero")
    #expect(zero.status == 2)
    #expect(
      zero.stderr
        == "outline-lint: standard input is larger than the input size limit of 256 MiB (change it with --max-size)\n"
    )
    #expect(zero.seconds < 10)
    try CLI.write(["small.outline": "<outline><Item order=\"0\"/></outline>\n"], in: folder)
    let small = folder.appendingPathComponent("small.outline").path
    for arguments in [
      ["outline-lint", "--max-size", "16", "-"], ["outline", "fmt", "--max-size", "16", "-"],
      ["outline", "convert", "--to", "json", "--max-size", "16", "-"],
      ["outline", "convert", "--to", "xml", "--max-size", "16", "-"],
      ["outline", "export", "--max-size", "16", "-"],
    ] {
      let run = try Self.bounded(arguments[0], Array(arguments.dropFirst()), in: folder, stdinPath: small)
      #expect(run.status == 2, "\(arguments): \(run.stderr)")
      #expect(
        run.stderr.contains("standard input is larger than the input size limit of 16 bytes"),
        "\(arguments): \(run.stderr)")
    }
    for tool in [["fmt"], ["convert", "--to", "json"], ["convert", "--to", "xml"], ["export"]] {
      let zeroes = try Self.bounded(
        "outline", tool + ["--max-size", "1M", "-"], in: folder, stdinPath: "/dev/zero")
      #expect(zeroes.status == 2 && zeroes.stderr.contains("limit of 1 MiB"), "\(tool): \(zeroes.stderr)")
    }
    // Under the limit, standard input is read as before.
    let fits = try Self.bounded("outline-lint", ["--max-size", "1K", "-"], in: folder, stdinPath: small)
    #expect(fits.status == 0, "\(fits.stdout)\(fits.stderr)")
  }

  /// Files over the limit are refused by every command, whichever way it reads them.
  @Test func filesOverTheLimitAreRefused() throws {
    let folder = try CLI.temporaryFolder()
    let document =
      "<outline><Item order=\"0\" title=\"" + String(repeating: "x", count: 2000) + "\"/></outline>\n"
    try CLI.write(
      [
        "big.outline": document,
        "big.json": #"{"@outline":1,"items":[{"@entity":"Item","order":0,"title":""#
          + String(repeating: "x", count: 2000) + "\"}]}",
        "big.opml": "<opml version=\"2.0\"><head/><body><outline text=\""
          + String(repeating: "x", count: 2000)
          + "\"/></body></opml>",
        "M.xcdatamodel/contents": Self.tagModel + String(repeating: "\n", count: 2000),
        "uses-model.outline": "<outline model=\"M.xcdatamodel\"/>\n",
      ], in: folder)
    let runs: [(String, [String])] = [
      ("outline-lint", ["--max-size", "1K", "big.outline"]),
      ("outline-lint", ["--max-size", "1K", "--fix", "big.outline"]),
      ("outline", ["fmt", "--max-size", "1K", "big.outline"]),
      ("outline", ["convert", "--max-size", "1K", "big.outline"]),
      ("outline", ["convert", "--max-size", "1K", "big.json"]),
      ("outline", ["export", "--max-size", "1K", "big.outline"]),
      ("outline", ["import", "--max-size", "1K", "big.opml", "-o", "imported.outline"]),
      ("outline", ["model", "check", "--max-size", "1K", "M.xcdatamodel"]),
    ]
    for (tool, arguments) in runs {
      let run = try Self.bounded(tool, arguments, in: folder)
      #expect(run.status == 2, "\(tool) \(arguments): \(run.stdout)\(run.stderr)")
      #expect(
        run.stderr.contains("is larger than the input size limit of 1 KiB"),
        "\(tool) \(arguments): \(run.stderr)")
    }
    // A model over the limit is an unreadable model (OL102) of the document that names it.
    // The document named it, so it is the document's problem: exit 1.
    let model = try Self.bounded("outline-lint", ["--max-size", "1K", "uses-model.outline"], in: folder)
    #expect(model.status == 1)
    #expect(
      model.stdout.contains("error[OL102]") && model.stdout.contains("is larger than the input size limit"))
    // `maxSize` in .outline.json sets the limit for the files it covers; --max-size wins.
    try CLI.write([".outline.json": #"{"maxSize": "1K"}"#], in: folder)
    let configured = try Self.bounded("outline-lint", ["big.outline"], in: folder)
    #expect(configured.status == 2 && configured.stderr.contains("limit of 1 KiB"), "\(configured.stderr)")
    let overridden = try Self.bounded("outline-lint", ["--max-size", "1M", "big.outline"], in: folder)
    #expect(overridden.status == 0, "\(overridden.stdout)\(overridden.stderr)")
    // A limit that is not a size is a usage error.
    let bad = try Self.bounded("outline-lint", ["--max-size", "lots", "big.outline"], in: folder)
    #expect(bad.status == 2, "\(bad.status) \(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("imported.outline").path))
  }

  /// A model whose `contents` is a FIFO or a device is an unreadable model, at once.
  @Test func modelFilesThatAreNotRegularDoNotHang() throws {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("F.xcdatamodel"), withIntermediateDirectories: true)
    try Self.fifo(folder.appendingPathComponent("F.xcdatamodel/contents"))
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Z.xcdatamodel"), withIntermediateDirectories: true)
    try Self.link(folder.appendingPathComponent("Z.xcdatamodel/contents"), to: "/dev/zero")
    try CLI.write(
      [
        "f.outline": "<outline model=\"F.xcdatamodel\"/>\n",
        "z.outline": "<outline model=\"Z.xcdatamodel\"/>\n",
        "f.json": #"{"@outline":1,"@model":"F.xcdatamodel"}"#,
      ], in: folder)
    let lint = try Self.bounded("outline-lint", ["f.outline", "z.outline"], in: folder)
    #expect(lint.status == 1)
    #expect(lint.stdout.contains("f.outline:1:17: error[OL102]: The model cannot be read: '"))
    #expect(lint.stdout.contains("F.xcdatamodel/contents' is not a regular file (a FIFO)"), "\(lint.stdout)")
    // A link to /dev/zero leads out of the project: refused before it is opened.
    #expect(
      lint.stdout.contains("z.outline:1:17: error[OL106]: The model 'Z.xcdatamodel' is outside the project"))
    #expect(lint.stdout.contains("(it leads to '/dev/zero')"))
    // Allowed to come from /dev, it is opened, found to be a device and not read.
    try CLI.write([".outline.json": #"{"modelRoots": ["/dev"]}"#], in: folder)
    let device = try Self.bounded("outline-lint", ["z.outline"], in: folder)
    #expect(device.status == 1)
    #expect(
      device.stdout.contains("Z.xcdatamodel/contents' is not a regular file (a character device)"),
      "\(device.stdout)")
    try FileManager.default.removeItem(at: folder.appendingPathComponent(".outline.json"))
    let check = try Self.bounded("outline", ["model", "check", "F.xcdatamodel"], in: folder)
    #expect(check.status == 2 && check.stderr.contains("(a FIFO)"), "\(check.stderr)")
    let convert = try Self.bounded("outline", ["convert", "f.json"], in: folder)
    #expect(convert.status == 2 && convert.stderr.contains("(a FIFO)"), "\(convert.stderr)")
  }

  // MARK: 8. Models from inside the project

  @Test func modelsOutsideTheProjectAreRefused() throws {
    let folder = try CLI.temporaryFolder()
    let outside = try CLI.temporaryFolder()
    try CLI.write(["Shared.xcdatamodel/contents": Self.tagModel], in: outside)
    try CLI.write(
      [
        "project/.outline.json": "{}",
        "project/M.xcdatamodel/contents": Self.tagModel,
        "project/inside.outline": "<outline model=\"M.xcdatamodel\"><Tag name=\"a\"/></outline>\n",
        "project/passwd.outline": "<outline model=\"/etc/passwd\"/>\n",
        "project/sub/up.outline": "<outline model=\"../../../../../x\"/>\n",
        "project/linked.outline": "<outline model=\"Linked.xcdatamodel\"/>\n",
        "project/shared.outline":
          "<outline model=\"\(outside.path)/Shared.xcdatamodel\"><Tag name=\"a\"/></outline>\n",
        "project/M2.xcdatamodel/.keep": "",
        "project/through.outline": "<outline model=\"M2.xcdatamodel\"/>\n",
      ], in: folder)
    let project = folder.appendingPathComponent("project")
    try Self.link(
      project.appendingPathComponent("Linked.xcdatamodel"),
      to: outside.appendingPathComponent("Shared.xcdatamodel").path)
    // A model folder inside whose contents lead out.
    try Self.link(project.appendingPathComponent("M2.xcdatamodel/contents"), to: "/etc/passwd")
    let run = try Self.bounded("outline-lint", ["project"], in: folder)
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.contains("error[OL106]") }.count == 5, "\(run.stdout)")
    #expect(
      lines.contains {
        $0.hasPrefix(
          "project/passwd.outline:1:17: error[OL106]: The model '/etc/passwd' is outside the project '")
      })
    #expect(
      lines.contains {
        $0.hasPrefix("project/sub/up.outline:1:17: error[OL106]: The model '../../../../../x' is outside")
      })
    #expect(
      lines.contains {
        $0.hasPrefix("project/linked.outline:1:17: error[OL106]") && $0.contains("(it leads to '")
      })
    #expect(lines.contains { $0.hasPrefix("project/through.outline:1:17: error[OL106]") })
    #expect(!lines.contains { $0.hasPrefix("project/inside.outline") })
    // Nothing of /etc/passwd is read, let alone quoted.
    #expect(!run.stdout.contains("root:"))

    // The configuration allows a folder explicitly.
    try CLI.write(["project/.outline.json": "{\"modelRoots\": [\"\(outside.path)\"]}"], in: folder)
    let allowed = try Self.bounded(
      "outline-lint", ["project/shared.outline", "project/linked.outline"], in: folder)
    #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
    let stillRefused = try Self.bounded("outline-lint", ["project/passwd.outline"], in: folder)
    #expect(stillRefused.stdout.contains("error[OL106]"))
    // --model is the user's own choice.
    let named = try Self.bounded(
      "outline-lint",
      ["--model", outside.appendingPathComponent("Shared.xcdatamodel").path, "project/passwd.outline"],
      in: folder)
    #expect(named.status == 0, "\(named.stdout)\(named.stderr)")
  }

  /// A configuration's own `model` is held to the same rule; without a
  /// configuration the git root is the project, else the working directory
  /// when the document is in it, else the document's folder.
  @Test func projectIsTheConfigurationThenGitRootThenFolder() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Top.xcdatamodel/contents": Self.tagModel,
        "configured/.outline.json": #"{"model": "../Top.xcdatamodel"}"#,
        "configured/a.outline": "<outline><Tag name=\"a\"/></outline>\n",
        "repo/.git/HEAD": "ref: refs/heads/main\n",
        "repo/R.xcdatamodel/contents": Self.tagModel,
        "repo/docs/deep/r.outline": "<outline model=\"../../R.xcdatamodel\"><Tag name=\"a\"/></outline>\n",
        "plain/sub/p.outline": "<outline model=\"../../Top.xcdatamodel\"><Tag name=\"a\"/></outline>\n",
      ], in: folder)
    let configured = try Self.bounded("outline-lint", ["configured/a.outline"], in: folder)
    // What the configuration names is the run's: exit 2, as for a model it names that cannot be read.
    #expect(configured.status == 2)
    #expect(
      configured.stdout.contains(
        "configured/a.outline:1:2: error[OL106]: The model '../Top.xcdatamodel' is outside"),
      "\(configured.stdout)")
    let repo = try Self.bounded("outline-lint", ["repo/docs/deep/r.outline"], in: folder)
    #expect(repo.status == 0, "\(repo.stdout)\(repo.stderr)")
    // Neither: the working directory the document is in, else the document's folder.
    let plain = try Self.bounded(
      "outline-lint", ["sub/p.outline"], in: folder.appendingPathComponent("plain"))
    #expect(plain.status == 1 && plain.stdout.contains("error[OL106]"), "\(plain.stdout)")
    let fromAbove = try Self.bounded("outline-lint", ["plain/sub/p.outline"], in: folder)
    #expect(fromAbove.status == 0, "\(fromAbove.stdout)")
    let elsewhere = try Self.bounded(
      "outline-lint", [folder.appendingPathComponent("plain/sub/p.outline").path],
      in: folder.appendingPathComponent("repo"))
    #expect(elsewhere.status == 1 && elsewhere.stdout.contains("error[OL106]"), "\(elsewhere.stdout)")
  }

  /// The server refuses the same models, with the same code at the attribute.
  @Test func languageServerRefusesModelsOutsideTheProject() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write([".outline.json": "{}"], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, "<outline model=\"/etc/passwd\"/>\n")
    let diagnostics = client.diagnostics(uri)?["diagnostics"]?.arrayValue ?? []
    #expect(diagnostics.map { $0["code"] } == ["OL106"], "\(diagnostics)")
    #expect(diagnostics.first?["range"]?["start"]?["character"] == .int(16))
    _ = client.close()
  }

  // MARK: 9. Configuration problems are loud

  /// An unreadable, non-regular or malformed `.outline.json` is an error with
  /// its position, exit 2, and the outlines are still checked (with the default configuration).
  @Test func configurationProblemsAreReportedWithTheOutlinesOwn() throws {
    let folder = try CLI.temporaryFolder()
    let document = "<outline><Item order=\"0\"/><Item order=\"0\"/></outline>\n"
    try CLI.write(
      [
        "malformed/.outline.json": "{\n  \"rules\": {\"OL401\": \"off\"},\n  \"exclude\": [\"**\"] oops\n}\n",
        "malformed/a.outline": document,
        "fifo/a.outline": document,
        "folder/.outline.json/x": "",
        "folder/a.outline": document,
      ], in: folder)
    try Self.fifo(folder.appendingPathComponent("fifo/.outline.json"))
    for name in ["malformed", "fifo", "folder"] {
      let run = try Self.bounded("outline-lint", [name], in: folder)
      #expect(run.status == 2, "\(name): \(run.stdout)\(run.stderr)")
      // The rules of a malformed file do not apply: OL401 is reported.
      #expect(run.stdout.contains("\(name)/a.outline:1:"), "\(name): \(run.stdout)")
      #expect(run.stdout.contains("error[OL401]"), "\(name): \(run.stdout)")
      #expect(run.stdout.contains("error[OC100]"), "\(name): \(run.stdout)")
    }
    let malformed = try Self.bounded("outline-lint", ["malformed/a.outline"], in: folder)
    #expect(
      malformed.stdout.contains("malformed/.outline.json:3:21: error[OC100]: Invalid JSON"),
      "\(malformed.stdout)")
    let fifo = try Self.bounded("outline-lint", ["fifo/a.outline"], in: folder)
    #expect(fifo.stdout.contains(".outline.json:1:1: error[OC100]: The configuration cannot be read"))
    #expect(fifo.stdout.contains("is not a regular file (a FIFO)"))
    // fmt, convert and export report it too, and write nothing.
    let original = try Data(contentsOf: folder.appendingPathComponent("malformed/a.outline"))
    for arguments in [
      ["fmt", "malformed/a.outline"], ["convert", "malformed/a.outline", "-o", "out.json"],
      ["export", "malformed/a.outline", "-o", "out.opml"],
      ["lint", "--fix", "malformed/a.outline"],
    ] {
      let run = try Self.bounded("outline", arguments, in: folder)
      #expect(run.status == 2, "\(arguments): \(run.stderr)")
      #expect(
        run.stdout.contains("error[OC100]") || run.stderr.contains("error[OC100]"),
        "\(arguments): \(run.stderr)")
    }
    #expect(try Data(contentsOf: folder.appendingPathComponent("malformed/a.outline")) == original)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.json").path))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.opml").path))
  }

  /// A configuration that exists but cannot be read (permission denied) is
  /// never skipped for one further up. Root reads anything, so this runs as nobody.
  @Test(.enabled(if: getuid() == 0, "needs root to run as nobody"))
  func unreadableConfigurationIsAnError() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        ".outline.json": #"{"rules": {"OL401": "off"}}"#,
        "locked/.outline.json": #"{"rules": {"OL401": "off"}}"#,
        "locked/a.outline": "<outline><Item order=\"0\"/><Item order=\"0\"/></outline>\n",
      ], in: folder)
    chmod(folder.path, 0o755)
    chmod(folder.appendingPathComponent("locked").path, 0o755)
    chmod(folder.appendingPathComponent("locked/a.outline").path, 0o644)
    chmod(folder.appendingPathComponent("locked/.outline.json").path, 0o000)
    let run = try Self.bounded("outline-lint", ["locked"], in: folder, asNobody: true)
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    #expect(
      run.stdout.contains(
        "locked/.outline.json:1:1: error[OC100]: The configuration cannot be read (the default one applies): cannot read '"
      ),
      "\(run.stdout)")
    #expect(run.stdout.contains("Permission denied"))
    #expect(
      run.stdout.contains("locked/a.outline:1:") && run.stdout.contains("error[OL401]"), "\(run.stdout)")
  }
}
