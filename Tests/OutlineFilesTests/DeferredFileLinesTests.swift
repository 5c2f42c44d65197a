import Foundation
import OutlineCore
import OutlineFiles
import TestSupport
import Testing

@Suite struct DeferredFileLinesTests {
  private func temporaryFile(_ text: String) throws -> String {
    let path = Scratch.path("deferred-lines", suffix: ".outline")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func indexesTheFileWhenFirstAsked() throws {
    let text = "<a>\r\n  <b/>\n\n<c x=\"é\"/>"
    let path = try temporaryFile(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let deferred = FileLines(indexingWhenAsked: path)
    let eager = FileLines(path: path, lines: LineIndex(Array(text.utf8)))
    #expect(deferred.lines == eager.lines)
    #expect(deferred.lines.lineCount == 4)
    #expect(deferred.lineText(1) == "  <b/>")
    #expect(deferred.linePosition(of: 14, unit: .scalar) == eager.linePosition(of: 14, unit: .scalar))
  }

  @Test func aFileNeverAskedForIsNeverRead() throws {
    let path = try temporaryFile("<a/>\n")
    let lines = FileLines(indexingWhenAsked: path)
    // Gone before its lines were asked for: nothing had been read, so there is nothing.
    try FileManager.default.removeItem(atPath: path)
    #expect(lines.lines.lineCount == LineIndex().lineCount)
    #expect(lines.lineBytes(0).isEmpty)
  }

  @Test func noOffsetsAskForNoLines() throws {
    let path = try temporaryFile("<a>\n<b/>\n</a>\n")
    let lines = FileLines(indexingWhenAsked: path)
    _ = PositionTable(offsets: [], in: lines, unit: .scalar)
    try FileManager.default.removeItem(atPath: path)
    #expect(lines.lines.lineCount == LineIndex().lineCount)
  }
}
