import TestSupport
import Testing

@testable import OutlineValidation

/// The validator's one hash (``SeededHash``): every byte and the length count, the seed
/// changes everything, and the low bits (a table's slot) spread keys that differ only in
/// their high bytes.
@Suite struct SeededHashTests {
  static func hash(_ bytes: [UInt8], seed: UInt64 = 42) -> UInt64 {
    bytes.withUnsafeBufferPointer { SeededHash.hash($0, seed: seed) }
  }

  @Test func everyByteAtEveryPlaceOfEveryLengthCounts() {
    for length in 0...40 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
      let original = Self.hash(bytes)
      for place in 0..<length {
        var changed = bytes
        changed[place] ^= 0x01
        #expect(Self.hash(changed) != original, "length \(length), byte \(place)")
      }
      // A zero byte appended is another key (the length is mixed in).
      #expect(Self.hash(bytes + [0]) != original, "length \(length) and one zero more")
    }
  }

  @Test func theSeedChangesTheHash() throws {
    try Property.check("seeds give other hashes", cases: 300, slowFactor: 2) { random, _ in
      let bytes = (0..<Int.random(in: 0..<24, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      let one = UInt64.random(in: .min ... .max, using: &random)
      return Self.hash(bytes, seed: one) == Self.hash(bytes, seed: one ^ 1)
        ? "seed bit 0 ignored for \(bytes)" : nil
    }
  }

  @Test func lowBitsSpreadIntegersThatDifferInTheirHighBytes() {
    // 4,096 keys that differ only in bytes 5 and 6, into 1,024 slots by their low bits: a
    // hash whose low bits ignore high bytes would fill a handful of slots.
    var counts = [Int](repeating: 0, count: 1024)
    for key in 0..<4096 {
      let value = UInt64(key) << 40
      let bytes = (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
      counts[Int(Self.hash(bytes) & 1023)] += 1
    }
    #expect(counts.max()! <= 16, "the fullest slot holds \(counts.max()!) of 4,096 keys")
    #expect(counts.filter { $0 == 0 }.count < 100, "\(counts.filter { $0 == 0 }.count) of 1,024 slots empty")
  }
}
