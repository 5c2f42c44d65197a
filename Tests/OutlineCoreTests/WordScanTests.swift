import OutlineCore
import TestSupport
import Testing

/// `WordScan` answers "look closer" for eight bytes at once: it may flag a byte that does not
/// hold (the caller checks byte by byte), but it must never miss one that does, and must be
/// silent when no byte holds.
@Suite struct WordScanTests {
  static func word(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBufferPointer { WordScan.load($0.baseAddress!) }
  }

  @Test func loadReadsEightBytesLittleEndianFromAnyOffset() {
    let bytes: [UInt8] = Array(0..<16)
    for offset in 0..<8 {
      let word = bytes.withUnsafeBufferPointer { WordScan.load($0.baseAddress! + offset) }
      for index in 0..<8 {
        #expect(UInt8(truncatingIfNeeded: word >> UInt64(8 * index)) == UInt8(offset + index))
      }
    }
  }

  @Test func neverMissesAndIsSilentWhenNothingHolds() throws {
    try Property.check("WordScan never misses", cases: 2000, slowFactor: 2) { random, _ in
      // Bytes from a small alphabet around the tested values, so hits and near misses are common.
      let alphabet: [UInt8] = [0, 1, 0x20, 0x21, 0x22, 0x3C, 0x3D, 0x7F, 0x80, 0x81, 0xFF, 0x41]
      let bytes = (0..<8).map { _ in alphabet.randomElement(using: &random)! }
      let word = Self.word(bytes)
      let needle = alphabet.randomElement(using: &random)!
      let bound = UInt8.random(in: 1...0x80, using: &random)
      let equal = WordScan.equal(word, needle)
      let below = WordScan.below(word, bound)
      if bytes.contains(needle) != (equal != 0) { return "equal(\(bytes), \(needle)) = \(equal)" }
      if bytes.contains(where: { $0 < bound }) != (below != 0) {
        return "below(\(bytes), \(bound)) = \(below)"
      }
      if bytes.contains(where: { $0 > 0x7F }) != (WordScan.nonASCII(word) != 0) {
        return "nonASCII(\(bytes))"
      }
      // The first flagged byte is always a real one: scanners stop at the lowest set high bit.
      if equal != 0, bytes[equal.trailingZeroBitCount / 8] != needle { return "first equal flag \(bytes)" }
      if below != 0, bytes[below.trailingZeroBitCount / 8] >= bound { return "first below flag \(bytes)" }
      return nil
    }
  }
}
