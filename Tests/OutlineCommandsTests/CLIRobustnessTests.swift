import Foundation
import TestSupport
import Testing

/// What the binaries do with command lines, inputs and outputs a user does not expect to
/// matter: absurd job counts, a full disk behind standard output, an empty `--option=`,
/// a configuration with text after its object, file names holding control characters.
@Suite(.serialized) struct CLIRobustnessTests {
  /// An outline with an order used twice (OL401) among the children of its root.
  static let broken = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item order="0" title="a"/>
      <Item order="0" title="b"/>
    </outline>

    """

  /// Runs `tool` with `arguments` in `directory`, its standard output going to `/dev/full`
  /// (every write fails with ENOSPC); the exit status and what it wrote on standard error.
  func runIntoFullDisk(_ tool: String, _ arguments: [String], in directory: URL) throws -> (
    status: Int32, stderr: String
  ) {
    let process = CLI.process(tool, arguments)
    process.currentDirectoryURL = directory
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let stderr = Pipe()
    process.standardOutput = full
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try full.close()
    return (process.terminationStatus, String(decoding: errors, as: UTF8.self))
  }

  /// `--jobs 40000` over two files: a thread for each file at most, so no thread the
  /// system refuses can leave the run waiting for it forever.
  @Test func hugeJobCountsEnd() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.broken], in: folder)
    let process = CLI.process("outline-lint", ["--jobs", "40000", "a.outline", "a.outline"])
    process.currentDirectoryURL = folder
    let run = try CLI.collect(process, limit: 120)
    #expect(process.terminationReason == .exit, "killed after 120 seconds: the run hung")
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.components(separatedBy: "error[OL401]").count == 3, "\(run.stdout)")
  }

  /// `fmt --check -` checks standard input as `--check` checks a file: nothing on standard
  /// output but `<stdin>` when it would change, exit 1 then, 0 when it is already formatted.
  @Test func fmtCheckOfStandardInput() throws {
    let messy = try CLI.run("outline", ["fmt", "--check", "-"], input: FmtCLITests.messy)
    #expect(messy.status == 1 && messy.stdout == "<stdin>\n" && messy.stderr.isEmpty, "\(messy)")
    let canonical = try CLI.run("outline", ["fmt", "--check", "-"], input: FmtCLITests.canonical)
    #expect(canonical.status == 0 && canonical.stdout.isEmpty && canonical.stderr.isEmpty, "\(canonical)")
    // Without --check, standard input is still formatted to standard output.
    let formatted = try CLI.run("outline", ["fmt", "-"], input: FmtCLITests.messy)
    #expect(formatted.status == 0 && formatted.stdout == FmtCLITests.canonical, "\(formatted)")
  }

  /// A write to standard output that fails (a full disk) is trouble of the run: one line
  /// on standard error, exit 2, whatever the command.
  @Test func failedWritesToStandardOutputAreReported() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.broken], in: folder)
    let model = CLI.repository.appendingPathComponent("examples/playlist/Playlist.xcdatamodel").path
    let runs: [(String, [String])] = [
      ("outline", ["new"]),
      ("outline-lint", ["--format", "sarif", "a.outline"]),
      ("outline-lint", ["a.outline"]),
      ("outline", ["explain"]),
      ("outline", ["model", "check", model]),
    ]
    for (tool, arguments) in runs {
      let run = try runIntoFullDisk(tool, arguments, in: folder)
      #expect(run.status == 2, "\(tool) \(arguments): \(run.status)")
      #expect(
        run.stderr.hasSuffix("\(tool): cannot write standard output: No space left on device\n"),
        "\(tool) \(arguments): \(run.stderr)")
    }
  }

  /// Help and the version are output like any other: written into a full disk, they are
  /// the same one line on standard error and exit 2, not a silent exit 0.
  @Test(arguments: [
    ("outline", ["--version"]), ("outline", ["--help"]), ("outline-lint", ["--version"]),
    ("outline-lint", ["--help"]), ("outline", ["lint", "--help"]), ("outline", ["model", "check", "--help"]),
    ("outline", ["help"]), ("outline", ["help", "fmt"]), ("outline", ["fmt", "-h"]),
    ("outline-lint", ["--generate-completion-script", "bash"]),
  ])
  func helpAndVersionIntoAFullDiskAreReported(tool: String, arguments: [String]) throws {
    let run = try runIntoFullDisk(tool, arguments, in: CLI.repository)
    #expect(run.status == 2, "\(tool) \(arguments): \(run.status)")
    #expect(
      run.stderr == "\(tool): cannot write standard output: No space left on device\n",
      "\(tool) \(arguments): \(run.stderr)")
  }

  /// A run whose output goes to a pipe closed early still ends quietly, by SIGPIPE.
  @Test func aClosedPipeStillEndsQuietly() throws {
    let folder = try CLI.temporaryFolder()
    // Far more output than a pipe holds: the writer is still writing when `head` is gone.
    let items = (0..<5000).map { "  <Item order=\"0\" title=\"\($0)\"/>\n" }.joined()
    try CLI.write(["big.outline": "<outline version=\"1\">\n" + items + "</outline>\n"], in: folder)
    let run = try CLI.program(
      "/bin/sh", ["-c", "'\(CLI.products.path)/outline-lint' big.outline | head -1"], in: folder)
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
    #expect(run.stdout.split(separator: "\n").count == 1)
  }

  /// `--model=` with nothing after the `=` (an unset variable) is a usage error, not a
  /// reason to take the next argument as the model.
  @Test(arguments: [
    ("outline-lint", ["--model=", "a.outline"]),
    ("outline", ["lint", "--model=", "a.outline"]),
    ("outline", ["fmt", "--model=", "a.outline"]),
    ("outline", ["fmt", "--check", "--model=", "a.outline"]),
    ("outline", ["convert", "--model=", "a.outline"]),
  ])
  func anEmptyOptionValueIsAUsageError(tool: String, arguments: [String]) throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.broken], in: folder)
    let run = try CLI.run(tool, arguments, in: folder)
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout.isEmpty, "\(run)")
    #expect(run.stderr.hasPrefix("\(tool): --model needs a value\n"), "\(run.stderr)")
  }

  /// A flag given an empty `=` is left to ArgumentParser: it takes no value to miss.
  @Test func anEmptyFlagValueIsNotAMissingValue() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.broken], in: folder)
    let run = try CLI.run("outline-lint", ["--quiet=", "a.outline"], in: folder)
    #expect(!run.stderr.contains("needs a value"), "\(run.stderr)")
  }

  /// A file name holding a newline or an escape is written escaped in text output: it can
  /// neither forge a `path:line:col:` line nor send an escape sequence to the terminal.
  @Test func pathsAreEscapedInTextOutput() throws {
    let folder = try CLI.temporaryFolder()
    let forged = "x\nforged.outline:1:1: error[OL999]: fake.outline"
    let colored = "\u{1B}[31mred.outline"
    try CLI.write([forged: Self.broken, colored: Self.broken], in: folder)
    let run = try CLI.run("outline-lint", [forged, colored], in: folder)
    #expect(run.status == 1, "\(run)")
    #expect(!run.stdout.contains("\u{1B}"), "\(run.stdout)")
    let lines = run.stdout.split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("forged") }, "\(run.stdout)")
    #expect(lines.contains { $0.hasPrefix(#"x\nforged.outline:1:1: error[OL999]: fake.outline:4:"#) })
    #expect(lines.contains { $0.hasPrefix(#"\u{1B}[31mred.outline:4:"#) })
    // fmt --check's list of files that would change too.
    let messy = Self.broken.replacingOccurrences(of: "\n  <", with: "\n\t<")
    try CLI.write([forged: messy, colored: messy], in: folder)
    let check = try CLI.run("outline", ["fmt", "--check", forged, colored], in: folder)
    #expect(check.status == 1 && !check.stdout.contains("\u{1B}"), "\(check.stdout)")
    #expect(!check.stdout.split(separator: "\n").contains { $0.hasPrefix("forged") }, "\(check.stdout)")
    // The related note's path too.
    #expect(lines.contains { $0.hasPrefix(#"  \u{1B}[31mred.outline:3:"#) }, "\(run.stdout)")
  }

  /// A file named without a folder that cannot be written names its folder `.`, not ``.
  @Test(.enabled(if: getuid() == 0, "needs root to run as nobody"))
  func aBareNameNamesItsFolder() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.broken], in: folder)
    chmod(folder.path, 0o755)
    chmod(folder.appendingPathComponent("a.outline").path, 0o644)
    let run = try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder, asNobody: true)
    #expect(run.status == 2, "\(run)")
    #expect(run.stderr.contains("(creating a temporary file in '.')"), "\(run.stderr)")
  }

  /// One file reached by several names (named twice, a folder and a folder inside it, a
  /// symbolic link and a hard link beside it): `--fix` and `fmt` take it once, instead of
  /// failing with "changed while being fixed" as two jobs raced on it; a lint that only reads
  /// reports every name, as before.
  @Test func aFileReachedTwiceIsWrittenOnce() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["fx/sub/a.outline": Self.broken], in: folder)
    let sub = folder.appendingPathComponent("fx/sub")
    #expect(symlink("a.outline", sub.appendingPathComponent("b.outline").path) == 0)
    #expect(
      link(sub.appendingPathComponent("a.outline").path, sub.appendingPathComponent("c.outline").path) == 0)
    for arguments in [
      ["fx", "fx/sub"], ["fx/sub", "fx"], ["fx/sub/a.outline", "fx/sub/a.outline"],
      ["fx/sub/b.outline", "fx"],
    ] {
      let lint = try CLI.run("outline-lint", arguments, in: folder)
      #expect(lint.status == 1, "\(arguments): \(lint.stdout)\(lint.stderr)")
      #expect(!lint.stdout.contains("in 1 file"), "\(arguments): \(lint.stdout)")
      try CLI.write(
        ["fx/sub/a.outline": Self.broken.replacingOccurrences(of: "\n  <", with: "\n\t<")], in: folder)
      let formatted = try CLI.run("outline", ["fmt"] + arguments, in: folder)
      #expect(formatted.status == 0, "\(arguments): \(formatted.stdout)\(formatted.stderr)")
      #expect(formatted.stderr.contains("formatted 1 file"), "\(arguments): \(formatted.stderr)")
      try CLI.write(["fx/sub/a.outline": Self.broken], in: folder)
    }
    for _ in 0..<5 {
      try CLI.write(["fx/sub/a.outline": Self.broken], in: folder)
      let fix = try CLI.run(
        "outline-lint", ["--fix", "--jobs", "2", "fx", "fx/sub", "fx/sub/a.outline"], in: folder)
      #expect(fix.status == 0, "\(fix.stdout)\(fix.stderr)")
      #expect(!fix.stderr.contains("changed while being fixed"), "\(fix.stderr)")
      #expect(
        try String(contentsOf: sub.appendingPathComponent("c.outline"), encoding: .utf8).contains(
          "order=\"1\""))
    }
  }

  /// A file whose name is not UTF-8 cannot be carried as a path: a folder search says so for an
  /// `.outline` one (exit 2) and checks the others; named on the command line, it is said too.
  @Test func aNameThatIsNotUTF8IsSaidNotPassedOver() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["nu/good.outline": "<outline version=\"1\"/>\n"], in: folder)
    let name =
      Array(folder.appendingPathComponent("nu").path.utf8) + Array("/bad\u{FF}".utf8).dropLast(2) + [0xFF]
      + Array("name.outline".utf8) + [0]
    let descriptor = name.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
    }
    #expect(descriptor >= 0)
    close(descriptor)
    let run = try CLI.run("outline-lint", ["nu"], in: folder)
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    #expect(
      run.stderr.contains(
        #"cannot read 'nu/bad\xFFname.outline': file names that are not UTF-8 are not supported"#),
      "\(run.stderr)")
    #expect(run.stdout.contains("in 1 file; 1 path could not be checked"), "\(run.stdout)")
  }

  /// A name that is not UTF-8, found by a folder search, is named alike in every format: shown
  /// with its bytes escaped (`bad\xFFname.outline`, with no `./` no other path has), listed
  /// where its bytes put it among the files (JSON, GitHub, SARIF's notifications, standard
  /// error), and in SARIF as the URI of its own bytes (`bad%FFname.outline`).
  /// A folder whose name is not UTF-8 cannot be searched: said (exit 2), as its outlines would
  /// otherwise go unchecked without a word; one the configuration excludes is passed over.
  @Test func aFolderWhoseNameIsNotUTF8IsSaidNotSkipped() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["ok.outline": "<outline/>\n"], in: folder)
    let name = Array(folder.path.utf8) + Array("/bad".utf8) + [0xFF, 0]
    let made = name.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) == 0 }
    }
    guard made, StreamingMapOrderTests.make(Array("bad".utf8) + [0xFF] + Array("/a.outline".utf8), in: folder)
    else {
      print("skipped: the file system refuses names that are not UTF-8")
      return
    }
    let run = try CLI.run("outline-lint", ["."], in: folder)
    #expect(run.status == 2)
    #expect(
      run.stderr.contains(
        #"cannot search the folder 'bad\xFF': folder names that are not UTF-8 are not supported"#),
      "\(run.stderr)")
    try CLI.write([".outline.json": #"{"exclude": ["bad?/**"]}"#], in: folder)
    let excluded = try CLI.run("outline-lint", ["."], in: folder)
    #expect(excluded.status == 0 && excluded.stderr.isEmpty, "\(excluded.stderr)")
  }

  /// Folders nested past the longest path the system takes (PATH_MAX, 4,096 bytes on Linux) are
  /// made one level at a time through descriptors; the one the search cannot reach by its path
  /// is said (exit 2), not passed over with the outline inside it unchecked.
  @Test func aFolderPastTheLongestPathIsSaidNotSkipped() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["ok.outline": "<outline/>\n"], in: folder)
    let level = String(repeating: "d", count: 200)
    var descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
    try #require(descriptor >= 0)
    for _ in 0..<30 {
      try #require(mkdirat(descriptor, level, 0o755) == 0)
      let next = openat(descriptor, level, O_RDONLY | O_DIRECTORY)
      close(descriptor)
      descriptor = next
      try #require(descriptor >= 0)
    }
    let file = openat(descriptor, "deep.outline", O_WRONLY | O_CREAT, 0o644)
    close(descriptor)
    try #require(file >= 0)
    let text = Array("<outline><Item order=\"1\"/></outline>\n".utf8)
    #expect(write(file, text, text.count) == text.count)
    close(file)
    let run = try CLI.run("outline-lint", ["."], in: folder)
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("cannot search the folder"), "\(run.stderr)")
    #expect(run.stderr.contains("File name too long"), "\(run.stderr)")
    #expect(run.stdout.contains("could not be checked"), "\(run.stdout)")
    // Removed through descriptors, deepest first: the scratch folder's removal goes by path.
    var descriptors = [open(folder.path, O_RDONLY | O_DIRECTORY)]
    for _ in 0..<30 { descriptors.append(openat(descriptors.last!, level, O_RDONLY | O_DIRECTORY)) }
    #expect(unlinkat(descriptors.last!, "deep.outline", 0) == 0)
    close(descriptors.removeLast())
    while let parent = descriptors.popLast() {
      #expect(unlinkat(parent, level, AT_REMOVEDIR) == 0)
      close(parent)
    }
  }

  /// Run from a folder whose name is not UTF-8, SARIF's `%SRCROOT%` is that folder's URI by its
  /// bytes (`w%FFd/`), as the files' URIs are, not one with U+FFFD in its place.
  @Test func aWorkingFolderThatIsNotUTF8IsTheSARIFBaseByItsBytes() throws {
    let folder = try CLI.temporaryFolder()
    let name = Array(folder.path.utf8) + Array("/w".utf8) + [0xFF, UInt8(ascii: "d"), 0]
    let made = name.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) == 0 }
    }
    guard made else {
      print("skipped: the file system refuses names that are not UTF-8")
      return
    }
    let tool = CLI.products.appendingPathComponent("outline-lint").path
    let run = try CLI.program(
      "/bin/sh",
      [
        "-c",
        #"cd "$(printf 'w\377d')" && printf '<outline/>\n' > a.outline && exec "$0" --format sarif a.outline"#,
        tool,
      ], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    let sarifRun = (document["runs"] as! [[String: Any]])[0]
    let base = (sarifRun["originalUriBaseIds"] as? [String: [String: String]])?["%SRCROOT%"]?["uri"]
    #expect(base == URL(fileURLWithPath: folder.path).absoluteString + "w%FFd/")
  }

  @Test func aNameThatIsNotUTF8IsNamedAlikeAndInPlaceInEveryFormat() throws {
    let folder = try CLI.temporaryFolder()
    let document = "<outline><Item order=\"1\"/></outline>"
    try CLI.write(["a.outline": document, "z.outline": document, "sub/d.outline": document], in: folder)
    guard StreamingMapOrderTests.make(Array("bad".utf8) + [0xFF] + Array("name.outline".utf8), in: folder),
      StreamingMapOrderTests.make(Array("sub/c".utf8) + [0xFE] + Array(".outline".utf8), in: folder)
    else {
      print("skipped: the file system refuses names that are not UTF-8")
      return
    }
    let listed = ["a.outline", #"bad\xFFname.outline"#, #"sub/c\xFE.outline"#, "sub/d.outline", "z.outline"]
    let json = try CLI.run("outline-lint", ["--format", "json"], in: folder)
    #expect(json.status == 2)
    let files = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["files"]
        as? [[String: Any]])
    #expect(files.map { $0["path"] as? String } == listed)
    #expect(
      files[1]["error"] as? String
        == #"cannot read 'bad\xFFname.outline': file names that are not UTF-8 are not supported"#)
    let github = try CLI.run("outline-lint", ["--format", "github", "."], in: folder)
    #expect(
      github.stdout.split(separator: "\n").map { $0.split(separator: ",").first.map(String.init) ?? "" }
        == listed.map { "::error file=" + $0 })
    let text = try CLI.run("outline-lint", ["."], in: folder)
    #expect(
      text.stderr == """
        outline-lint: cannot read 'bad\\xFFname.outline': file names that are not UTF-8 are not supported
        outline-lint: cannot read 'sub/c\\xFE.outline': file names that are not UTF-8 are not supported

        """)
    #expect(text.stdout.hasPrefix("a.outline:1:"), "\(text.stdout)")
    let sarif = try CLI.run("outline-lint", ["--format", "sarif", "."], in: folder)
    let run = try #require(
      ((try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])?["runs"]
        as? [[String: Any]])?.first)
    let notifications = try #require(
      (run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"] as? [[String: Any]])
    let locations = notifications.map {
      (($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
        "artifactLocation"]
        as? [String: String]
    }
    #expect(
      locations == [
        ["uri": "bad%FFname.outline", "uriBaseId": "%SRCROOT%"],
        ["uri": "sub/c%FE.outline", "uriBaseId": "%SRCROOT%"],
      ])
    // Named on the command line (through a shell, which passes the bytes as they are): said as
    // one that cannot be read, or does not exist, with its own bytes in SARIF.
    let named = try CLI.program(
      "/bin/sh",
      [
        "-c",
        #"cd "$1" && exec "$0" --format sarif "$(printf 'bad\377name.outline')" "$(printf 'gone\377.outline')""#,
        CLI.products.appendingPathComponent("outline-lint").path, folder.path,
      ])
    #expect(named.status == 2)
    #expect(
      named.stderr == """
        outline-lint: cannot read 'bad\\xFFname.outline': file names that are not UTF-8 are not supported
        outline-lint: 'gone\\xFF.outline' does not exist

        """)
    #expect(named.stdout.contains(#""uri": "bad%FFname.outline""#), "\(named.stdout)")
    #expect(named.stdout.contains(#""uri": "gone%FF.outline""#), "\(named.stdout)")
  }

  /// Files with one-character names are written like any other (Foundation's
  /// `deletingLastPathComponent` traps on such a path on Linux: fmt of `b` crashed).
  @Test func oneCharacterFileNamesAreWritten() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["b": Self.broken.replacingOccurrences(of: "\n  <", with: "\n\t<"), "a.outline": Self.broken],
      in: folder)
    let fmt = try CLI.run("outline", ["fmt", "b"], in: folder)
    #expect(fmt.status == 0, "\(fmt.stdout)\(fmt.stderr)")
    let fix = try CLI.run("outline-lint", ["--fix", "b"], in: folder)
    #expect(fix.status == 0, "\(fix.stdout)\(fix.stderr)")
    let convert = try CLI.run("outline", ["convert", "b", "-o", "x", "--to", "json"], in: folder)
    #expect(convert.status == 0, "\(convert.stdout)\(convert.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x").path))
  }

  /// `convert` whose input and output names say the same format is a usage error (it wrote
  /// JSON into `copy.outline`); the output's name says the format first, and `--to` overrides.
  @Test func convertNamesThatSayOneFormatForBoth() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": "<outline version=\"1\"/>\n"], in: folder)
    let both = try CLI.run("outline", ["convert", "a.outline", "-o", "copy.outline"], in: folder)
    #expect(both.status == 2 && both.stderr.contains("both XML by their names"), "\(both.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy.outline").path))
    let forced = try CLI.run(
      "outline", ["convert", "a.outline", "-o", "copy.outline", "--to", "json"], in: folder)
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder).status == 0)
    let back = try CLI.run("outline", ["convert", "a.json", "-o", "b.json"], in: folder)
    #expect(back.status == 2 && back.stderr.contains("both JSON by their names"), "\(back.stderr)")
  }
}
