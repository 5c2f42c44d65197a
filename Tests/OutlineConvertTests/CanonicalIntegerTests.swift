import Testing

@testable import OutlineConvert

/// The one check fmt and the JSON form share for integers written as they stand.
@Suite struct CanonicalIntegerTests {
  @Test(arguments: [
    ("0", true), ("7", true), ("-12", true), ("123456789012345678", true), ("-123456789012345678", true),
    ("", false), ("-", false), ("-0", false), ("007", false), ("-01", false), ("1234567890123456789", false),
    ("1a", false), ("+1", false), (" 1", false), ("1.0", false),
  ])
  func canonicalIntegers(text: String, expected: Bool) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { raw in
      #expect(CanonicalLayout.isCanonicalInteger(raw) == expected, "\(text)")
      // The same answer for the bytes in the middle of a larger buffer.
      let padded = Array("x".utf8) + bytes + Array("9".utf8)
      padded.withUnsafeBufferPointer { whole in
        #expect(
          CanonicalLayout.isCanonicalInteger(whole.baseAddress!, 1, 1 + bytes.count) == expected, "\(text)")
      }
    }
  }
}
