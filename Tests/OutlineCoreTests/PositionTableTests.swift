import TestSupport
import Testing

@testable import OutlineCore

/// A document that counts the bytes read from it, so a test can tell linear work from quadratic.
final class CountingLines: DocumentLines, @unchecked Sendable {
  let source: SourceText
  var bytesRead = 0

  init(_ text: String) { source = SourceText(text) }

  var lines: LineIndex { source.lines }

  func lineBytes(_ line: Int) -> [UInt8] {
    let bytes = source.lineBytes(line)
    bytesRead += bytes.count
    return bytes
  }

  func bytes(in range: Range<Int>) -> [UInt8] {
    let bytes = source.bytes(in: range)
    bytesRead += bytes.count
    return bytes
  }
}

/// Positions counted the slow, obvious way: decode the line up to the offset.
private func naive(_ offset: Int, in text: String, unit: ColumnUnit) -> SourcePosition {
  let bytes = Array(text.utf8)
  let offset = max(0, min(offset, bytes.count))
  var line = 0
  var lineStart = 0
  for index in 0..<offset where bytes[index] == 0x0A {
    line += 1
    lineStart = index + 1
  }
  var contentEnd = lineStart
  while contentEnd < bytes.count && bytes[contentEnd] != 0x0A { contentEnd += 1 }
  if contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
  let within = min(offset, contentEnd)
  let prefix = String(decoding: bytes[lineStart..<within], as: UTF8.self)
  let column: Int
  switch unit {
  case .utf8: column = within - lineStart
  case .utf16: column = prefix.utf16.count
  case .scalar: column = prefix.unicodeScalars.count
  }
  return SourcePosition(line: line, column: column + (offset - within))
}

@Suite struct PositionTableTests {
  /// Text with long lines, multi-byte and astral characters and CRLF endings.
  static let text: String = {
    var generator = 0x2545_F491_4F6C_DD1D as UInt64
    let pieces = ["a", "é", "中", "🚆", "<Item order=\"0\"/>", "\r\n", "\n", " "]
    var out = ""
    for _ in 0..<6000 {
      generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let pick = Int(generator >> 33) % 40
      out += pick < pieces.count - 2 ? pieces[pick] : pick == 38 ? "\r\n" : pick == 39 ? "\n" : "x"
    }
    return out + String(repeating: "ü🚆x", count: 2000)
  }()

  @Test(arguments: [ColumnUnit.utf8, .utf16, .scalar])
  func tableMatchesTheObviousCount(unit: ColumnUnit) {
    let source = SourceText(Self.text)
    let count = source.bytes.count
    // Offsets on character boundaries (the naive count decodes the prefix).
    let offsets = (Array(stride(from: 0, through: count + 3, by: 7)) + [count, count - 1, 5, 5]).filter {
      $0 >= count || source.bytes[$0] & 0xC0 != 0x80
    }
    let table = PositionTable(offsets: offsets.shuffled(), in: source, unit: unit)
    for offset in offsets {
      #expect(table.position(of: offset) == naive(offset, in: Self.text, unit: unit), "offset \(offset)")
    }
    // An offset not asked for is still right.
    #expect(table.position(of: 3) == naive(3, in: Self.text, unit: unit))
  }

  @Test(arguments: [ColumnUnit.utf16, .scalar])
  func sourceTextPositionsOnLongLinesMatch(unit: ColumnUnit) {
    let source = SourceText(Self.text)
    for offset in stride(from: 0, to: source.bytes.count, by: 97) where source.bytes[offset] & 0xC0 != 0x80 {
      #expect(source.position(of: offset, unit: unit) == naive(offset, in: Self.text, unit: unit))
      var end = min(source.bytes.count, offset + 5000)
      while end < source.bytes.count && source.bytes[end] & 0xC0 == 0x80 { end += 1 }
      let (start, endPosition) = source.positions(of: TextRange(start: offset, end: end), unit: unit)
      #expect(start == naive(offset, in: Self.text, unit: unit))
      #expect(endPosition == naive(end, in: Self.text, unit: unit))
    }
  }

  /// 20,000 positions on one line of 340 KB read each byte about once: counting
  /// every column from the line's start would read 3.4 GB.
  @Test func oneLineIsReadOnce() {
    let text = String(repeating: "<Item order=\"0\"/>", count: 20_000)
    let document = CountingLines(text)
    let offsets = (0..<20_000).flatMap { [$0 * 17, $0 * 17 + 1, 17] }
    let table = PositionTable(offsets: offsets, in: document, unit: .scalar)
    #expect(table.position(of: 17 * 19_999) == SourcePosition(line: 0, column: 17 * 19_999))
    #expect(document.bytesRead <= text.utf8.count + (1 << 16))
  }

  @Test func oneLinePerDiagnosticIsReadOnce() {
    let text = String(repeating: "<Item order=\"0\"/>\n", count: 20_000)
    let document = CountingLines(text)
    let table = PositionTable(offsets: (0..<20_000).map { $0 * 18 + 6 }, in: document, unit: .utf16)
    #expect(table.position(of: 18 * 500 + 6) == SourcePosition(line: 500, column: 6))
    #expect(document.bytesRead <= text.utf8.count + (1 << 16))
  }

  /// The ranges of items in a chain written on one line all end near the
  /// line's end: n such ranges cost about n checkpoints' worth, not n times the
  /// line. Linear work takes about 4x from n to 4n, quadratic 16x.
  @Test func rangesToTheEndOfALongLineAreLinear() {
    func seconds(_ items: Int) -> Double {
      let source = SourceText(String(repeating: "<Item title=\"é\">", count: items) + "</Item>")
      var sum = 0
      let elapsed = ThreadCPU.seconds {
        for item in 0..<items {
          let (from, to) = source.positions(
            of: TextRange(start: item * 18, end: source.bytes.count - 7 * (item % 3)), unit: .utf16)
          sum += from.column + to.column
        }
      }
      #expect(sum > 0)
      return elapsed
    }
    let small = min(seconds(3_000), seconds(3_000))
    let large = seconds(12_000)
    #expect(large < 8 * small, "n: \(small) s, 4n: \(large) s")
  }

  /// One position on its own reads the bytes before it on its line, not the rest of the line.
  @Test func linePositionReadsOnlyUpToTheOffset() {
    let document = CountingLines(String(repeating: "x", count: 1_000_000))
    #expect(document.linePosition(of: 10, unit: .scalar) == SourcePosition(line: 0, column: 10))
    #expect(document.bytesRead < 1 << 17)
  }
}
