import Foundation
import OutlineCore
import OutlineFiles
import Testing

@testable import OutlineWorkspace

/// `DocumentCheck.file`, the lint's read of one file: a small file whole and
/// from memory, a large one streamed, the same diagnostics either way.
@Suite struct DocumentCheckFileTests {
  static func write(_ text: String, named name: String = "a.outline") throws -> String {
    let folder = try InputFileTests.folder()
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func check(_ path: String, limit: Int = InputFile.defaultLimit, checked: Bool = false)
    throws(ReadError)
    -> (
      DocumentCheck, FileLines
    )
  {
    let models = ModelCache()
    return try DocumentCheck.file(
      path: path, modelOverride: nil, configurations: ConfigurationFinder(), models: models,
      histories: ModelHistoryCache(limit: models.limit), limit: limit, checked: checked)
  }

  /// The same document, padded past ``DocumentCheck/wholeFileBytes`` with a comment so it streams.
  static func document(padding: Int) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n  <!-- "
      + String(repeating: "x", count: padding) + " -->\n"
      + "  <Item title=\"a\" order=\"0\"/>\n  <Item title=\"b\" order=\"0\"/>\n  <Item bogus=\"1\" order=\"1\"/>\n</outline>\n"
  }

  @Test func aSmallFileAndALargeOneGetTheSameDiagnosticsAndLines() throws {
    let small = try Self.write(Self.document(padding: 10))
    let large = try Self.write(Self.document(padding: DocumentCheck.wholeFileBytes))
    let (smallCheck, smallLines) = try Self.check(small)
    let (largeCheck, largeLines) = try Self.check(large)
    #expect(!smallCheck.diagnostics.isEmpty)
    #expect(smallCheck.diagnostics.map(\.code) == largeCheck.diagnostics.map(\.code))
    #expect(smallCheck.diagnostics.map(\.message) == largeCheck.diagnostics.map(\.message))
    #expect(smallLines.lines.lineCount == 8)
    #expect(largeLines.lines.lineCount == 8)
    // Line 5 (0-based 4) is the second item, read back from disk.
    #expect(smallLines.lineBytes(4) == Array("  <Item title=\"b\" order=\"0\"/>".utf8))
    #expect(largeLines.lineBytes(4) == Array("  <Item title=\"b\" order=\"0\"/>".utf8))
  }

  @Test func aCleanSmallFileHasNoLinesToReadBack() throws {
    let path = try Self.write("<outline version=\"1\">\n  <Item title=\"a\" order=\"0\"/>\n</outline>\n")
    let (check, lines) = try Self.check(path)
    #expect(check.diagnostics.isEmpty)
    #expect(lines.lines.byteCount == 0)
  }

  @Test func aFileOverTheLimitIsRefusedUnread() throws {
    let path = try Self.write(Self.document(padding: 100))
    #expect {
      try Self.check(path, limit: 50)
    } throws: { error in
      (error as? ReadError)?.description.contains("larger than the input size limit of 50 bytes") == true
    }
  }

  @Test func aFolderOrAMissingFileIsAReadError() throws {
    let path = try Self.write("<outline version=\"1\"/>\n")
    let folder = (path as NSString).deletingLastPathComponent
    #expect(throws: ReadError.self) { try Self.check(folder) }
    #expect(throws: ReadError.self) { try Self.check(folder + "/missing.outline") }
    // Said to be checked, it is still refused: the descriptor's fstat sees a folder.
    #expect {
      try Self.check(folder, checked: true)
    } throws: { error in
      (error as? ReadError)?.description.contains("is not a regular file (a folder)") == true
    }
    #expect(throws: ReadError.self) { try Self.check(folder + "/missing.outline", checked: true) }
  }
}
