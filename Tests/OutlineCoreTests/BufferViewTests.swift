import Foundation
import OutlineCore
import TestSupport
import Testing

/// The checked view the modules without raw memory read bytes through: its searches and
/// doors give what the same question asked of an array gives.
@Suite struct BufferViewTests {
  static func randomBytes(_ random: inout SeededGenerator) -> [UInt8] {
    let alphabet = Array("ab&;  \r\n<o".utf8) + [0xC3, 0xA9, 0x80]
    return (0..<Int.random(in: 0..<40, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
  }

  @Test func rangedSearchesFindWhatTheArrayFinds() throws {
    try Property.check("ranged searches", cases: 500) { random, _ in
      let bytes = Self.randomBytes(&random)
      let lower = Int.random(in: 0...bytes.count, using: &random)
      let range = lower..<Int.random(in: lower...bytes.count, using: &random)
      let wanted = [UInt8(ascii: "&"), UInt8(ascii: ";")]
      let (first, last) = bytes.withByteView { view in
        (
          view.firstIndex(in: range) { wanted.contains($0) },
          view.lastIndex(in: range) { wanted.contains($0) }
        )
      }
      let expectedFirst = bytes[range].firstIndex { wanted.contains($0) }
      let expectedLast = bytes[range].lastIndex { wanted.contains($0) }
      guard first == expectedFirst, last == expectedLast else {
        return "\(bytes) \(range): \(String(describing: first)), \(String(describing: last))"
      }
      return nil
    }
  }

  @Test func anEmptyRangeFindsNothing() {
    let bytes = Array("a&b".utf8)
    bytes.withByteView { view in
      #expect(view.firstIndex(in: 1..<1) { _ in true } == nil)
      #expect(view.lastIndex(in: 3..<3) { _ in true } == nil)
      #expect(view.lastIndex(in: 0..<3) { $0 == UInt8(ascii: "&") } == 1)
    }
  }

  @Test func hashedBytesAreHashedAsTheArraysBytes() {
    for text in ["", "id-1", "caf\u{E9} &amp; more"] {
      let bytes = Array(text.utf8)
      var viaView = Hasher()
      bytes.withByteView { $0.hashBytes(into: &viaView) }
      var direct = Hasher()
      bytes.withUnsafeBytes { direct.combine(bytes: $0) }
      #expect(viaView.finalize() == direct.finalize())
    }
    // Only the bytes count: a slice hashes as the array of the same bytes.
    let whole = Array("xx-key-yy".utf8)
    var slice = Hasher()
    whole.withByteView(3..<6) { $0.hashBytes(into: &slice) }
    var key = Hasher()
    Array("key".utf8).withByteView { $0.hashBytes(into: &key) }
    #expect(slice.finalize() == key.finalize())
  }

  @Test func updateEachChangesOnlyTheRangeInOrder() {
    var values = Array(0..<10)
    var seen: [Int] = []
    values.updateEach(in: 3..<7) { value in
      seen.append(value)
      value *= 10
    }
    #expect(seen == [3, 4, 5, 6])
    #expect(values == [0, 1, 2, 30, 40, 50, 60, 7, 8, 9])
    values.updateEach(in: 10..<10) { $0 = -1 }
    #expect(values.last == 9)
  }

  @Test func updateEachLeavesACopyAlone() {
    var values = [1, 2, 3]
    let copy = values
    values.updateEach(in: 0..<3) { $0 += 1 }
    #expect(values == [2, 3, 4])
    #expect(copy == [1, 2, 3])
  }

  @Test func positionsAndColumnsThroughAViewMatchTheText() throws {
    try Property.check("positions through a view", cases: 300) { random, _ in
      let bytes = Self.randomBytes(&random)
      let offset = Int.random(in: 0...bytes.count, using: &random)
      var lines = LineIndex()
      var start = 0
      bytes.withByteView { view in
        while start < view.count {
          let end = min(view.count, start + Int.random(in: 1...7, using: &random))
          lines.append(view.extracting(start..<end))
          start = end
        }
      }
      let text = SourceText(bytes: bytes)
      for unit in [ColumnUnit.scalar, .utf16, .utf8] {
        let viaView = bytes.withByteView {
          SourceText.position(of: offset, unit: unit, lines: lines, bytes: $0)
        }
        let expected = text.position(of: offset, unit: unit)
        guard viaView == expected else { return "\(bytes) at \(offset) (\(unit)): \(viaView) != \(expected)" }
        let counted = bytes.withByteView { ColumnCounter.count(unit: unit, in: $0, from: 0, to: offset) }
        let direct = bytes.withUnsafeBufferPointer {
          ColumnCounter.count(unit: unit, in: $0, from: 0, to: offset)
        }
        guard counted == direct else { return "\(bytes) to \(offset) (\(unit)): \(counted) != \(direct)" }
      }
      return nil
    }
  }
}
