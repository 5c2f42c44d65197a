import Testing

@testable import OutlineXML

/// fmt writes attribute values from their bytes; that must be what decoding
/// and escaping them as strings gave.
@Suite struct CanonicalAttributeTests {
  static let pieces = [
    "a", "é", "中", "🚆", " ", "\t", "\n", "\r\n", "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#38;",
    "&#9;", "&#10;", "&#13;", "&#x26;", "&#233;", "\"", "'", ">", "&#38;#38;",
  ]

  @Test func bytesAreWhatStringsGave() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let raw = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
        Self.pieces.randomElement(using: &generator)!
      }.joined()
      let bytes = Array(raw.utf8)
      var out: [UInt8] = []
      bytes.withUnsafeBufferPointer { XMLEscaping.appendCanonicalAttribute($0, to: &out) }
      let expected = XMLEscaping.escapeAttribute(XMLEscaping.decodeAttribute(bytes))
      #expect(String(decoding: out, as: UTF8.self) == expected, "\(raw)")
    }
  }
}
