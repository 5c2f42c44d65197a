import Testing

@testable import OutlineCore

/// Columns on lines longer than a checkpoint stride (first, middle, last
/// without a newline, and lines of exactly the stride) agree with counting
/// from the line's start.
@Suite struct LongLineColumnsTests {
  @Test func columnsOnLongLinesMatchCountingFromTheLineStart() {
    let long = String(repeating: "aé😀 ", count: 700)  // 700 × 10 bytes
    let exact = String(repeating: "b", count: 1023) + "\n"  // 1024 bytes with its newline
    let justOver = String(repeating: "c", count: 1024) + "\n"
    let text = long + "\n" + "short\n" + exact + justOver + long + "\r\n" + "x\n" + long
    let source = SourceText(text)
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      for offset in Swift.stride(from: 0, through: bytes.count, by: 97) {
        guard offset == bytes.count || bytes[offset] & 0xC0 != 0x80 else { continue }
        for unit in [ColumnUnit.utf16, .scalar, .utf8] {
          let line = source.lines.line(containing: offset)
          let expected = ColumnCounter.count(
            unit: unit, in: buffer, from: source.lines.start(ofLine: line), to: offset)
          #expect(source.position(of: offset, unit: unit) == SourcePosition(line: line, column: expected))
        }
      }
    }
    #expect(source.position(of: bytes.count, unit: .scalar).line == 6)
  }

  @Test func longLinesAreFoundFromTheLineStarts() {
    let text = Array(
      (String(repeating: "a", count: 10) + "\n" + "bb\n" + String(repeating: "c", count: 9) + "\n\n").utf8)
    let lines = LineIndex(text)
    #expect(lines.lines(longerThan: 9) == [0, 2])
    #expect(lines.lines(longerThan: 10) == [0])
    #expect(lines.lines(longerThan: 0) == [0, 1, 2, 3])
    #expect(LineIndex(Array("dddd".utf8)).lines(longerThan: 3) == [0])
    #expect(LineIndex(Array("dddd".utf8)).lines(longerThan: 4) == [])
    #expect(LineIndex([UInt8]()).lines(longerThan: 0) == [])
  }
}
