import Foundation
import TestSupport
import Testing

/// `outline fmt` streams (issue 19): the file is read in chunks, the formatted text compared with
/// it as both stream by and written only from the first difference on; standard input's output
/// waits until the check allows it.
@Suite(.serialized) struct FmtStreamingCLITests {
  static let canonical = FmtCLITests.canonical

  func read(_ folder: URL, _ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  func status(_ folder: URL, _ name: String) -> stat {
    var info = stat()
    stat(folder.appendingPathComponent(name).path, &info)
    return info
  }

  @Test func anUnchangedFileIsNotWrittenEvenWhenReadOnly() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.canonical], in: folder)
    chmod(folder.appendingPathComponent("a.outline").path, 0o444)
    let before = status(folder, "a.outline")
    let run = try CLI.run("outline", ["fmt", "a.outline"], in: folder)
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    let after = status(folder, "a.outline")
    #expect(after.st_ino == before.st_ino && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.outline"])
  }

  @Test func aFileDifferingOnlyAtItsEndIsWrittenWhole() throws {
    let folder = try CLI.temporaryFolder()
    // Equal up to the last line: the writer starts late and copies the equal start from the input.
    let late = Self.canonical.replacingOccurrences(of: "</outline>\n", with: "</outline>")
    let long =
      String(Self.canonical.dropLast(11)) + (0..<20_000).map { "  <Item order=\"\($0 + 1)\"/>\n" }.joined()
    let longLate = long + "</outline>   "
    try CLI.write(["late.outline": late, "long.outline": longLate], in: folder)
    let run = try CLI.run("outline", ["fmt", "late.outline", "long.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr == "formatted 2 files\n")
    #expect(try read(folder, "late.outline") == Self.canonical)
    let fixed = try read(folder, "long.outline")
    #expect(fixed.hasSuffix("</outline>\n") && fixed.dropLast(11) == longLate.dropLast(13))
  }

  @Test func checkWritesNothingAtAll() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["messy.outline": FmtCLITests.messy], in: folder)
    let before = status(folder, ".")
    let run = try CLI.run("outline", ["fmt", "--check", "messy.outline"], in: folder)
    #expect(run.status == 1 && run.stdout == "messy.outline\n")
    // Not even a temporary file came and went: the folder is as it was.
    let after = status(folder, ".")
    #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
  }

  /// Comments and processing instructions keep their bytes, but for their line ends (`\n`, as
  /// XML reads them).
  @Test func commentsAndInstructionsKeepTheirBytes() throws {
    let folder = try CLI.temporaryFolder()
    let text =
      "<outline version=\"1\">\r\n<?pi  a  b?>\r\n\t<Item order=\"0\"><!-- one\r\ntwo --></Item>\r\n</outline>\r\n"
    try CLI.write(["crlf.outline": text], in: folder)
    #expect(try CLI.run("outline", ["fmt", "crlf.outline"], in: folder).status == 0)
    #expect(
      try read(folder, "crlf.outline")
        == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n  <?pi  a  b?>\n"
        + "  <Item order=\"0\">\n    <!-- one\ntwo -->\n  </Item>\n</outline>\n")
    let again = try CLI.run("outline", ["fmt", "--check", "crlf.outline"], in: folder)
    #expect(again.status == 0 && again.stdout.isEmpty)
  }

  /// Runs `outline fmt -` with standard input read from the file `name` in `folder`.
  func fromFile(_ folder: URL, _ name: String) throws -> CLI.Output {
    let process = Process()
    process.executableURL = CLI.products.appendingPathComponent("outline")
    process.arguments = ["fmt", "-"]
    process.currentDirectoryURL = folder
    process.standardInput = try FileHandle(forReadingFrom: folder.appendingPathComponent(name))
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLI.Output(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  @Test func refusedStandardInputPrintsNothingAndSaysWhere() throws {
    let folder = try CLI.temporaryFolder()
    // The text comes after 5,000 good items: their formatted lines were made before it was seen.
    let items = (0..<5_000).map { "<Item order=\"\($0)\" title=\"é\"/>\n" }.joined()
    let text = "<outline version=\"1\">\n" + items + "<Item order=\"5000\">ü text</Item></outline>\n"
    try CLI.write(["text.outline": text], in: folder)
    let expected = "outline: cannot format <stdin>:5002:20: OL105"
    for run in [
      try CLI.run("outline", ["fmt", "-"], in: folder, input: text), try fromFile(folder, "text.outline"),
    ] {
      #expect(run.status == 1)
      #expect(run.stdout.isEmpty)
      #expect(run.stderr.hasPrefix(expected), "\(run.stderr)")
    }
    let good = try CLI.run("outline", ["fmt", "-"], in: folder, input: FmtCLITests.messy)
    #expect(good.status == 0 && good.stdout == Self.canonical)
  }

  /// A file over 16 MB streams from disk: never held, formatted as standard input is, refused
  /// at the right line when something near its end cannot be formatted.
  @Test(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped)))
  func aLargeFileStreams() throws {
    let folder = try CLI.temporaryFolder()
    let items = (0..<350_000).map { "\t<Item title=\"item &amp; \($0) ü\" order=\"\($0)\"/>\n" }.joined()
    let large = "<outline version=\"1\">\n" + items + "</outline>\n"
    #expect(large.utf8.count > 16 << 20)
    let broken = "<outline version=\"1\">\n" + items + "<Item order=\"350000\">text</Item></outline>\n"
    try CLI.write(["large.outline": large, "broken.outline": broken], in: folder)
    // Older than the 3 s a streamed file is given to settle.
    let old = Date().addingTimeInterval(-10)
    for name in ["large.outline", "broken.outline"] {
      try FileManager.default.setAttributes(
        [.modificationDate: old], ofItemAtPath: folder.appendingPathComponent(name).path)
    }
    let expected = try fromFile(folder, "large.outline")
    #expect(expected.status == 0)
    let run = try CLI.run("outline", ["fmt", "large.outline", "broken.outline"], in: folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("cannot format broken.outline:350002:22: OL105"), "\(run.stderr)")
    #expect(try read(folder, "large.outline") == expected.stdout)
    #expect(try read(folder, "broken.outline") == broken)
    #expect(try CLI.run("outline", ["fmt", "--check", "large.outline"], in: folder).status == 0)
  }
}
