import OutlineCore
import Testing

@testable import OutlineXML

/// `isNCName` answers ASCII names from their bytes and others by the name
/// characters of XML 1.0 (fifth edition); either way the answer is
/// libxml2's: a name it accepts is one this toolchain writes and accepts as
/// an `xml:id`, and no other.
@Suite struct XMLNameTests {
  /// Whether libxml2 reads `name` as an element name.
  static func libxml2Reads(_ name: String) -> Bool {
    let bytes = Array("<\(name)/>".utf8)
    let recorder = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: recorder)
    return !recorder.lines.contains { $0.hasPrefix("error") }
      && recorder.lines.contains { $0.hasPrefix("start \(name) tag=") }
  }

  @Test func everyASCIINameOfOneOrTwoCharactersAgreesWithTheRule() {
    let scalars = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
    #expect(XMLName.isNCName("") == false)
    for a in scalars where a != ":" {
      if XMLName.isNCName(String(a)) != Self.libxml2Reads(String(a)) {
        Issue.record("'\(a)' (\(a.unicodeScalars.first!.value))")
      }
      for b in scalars where b != ":" && b != "/" && b != ">" {
        let name = String([a, b])
        if XMLName.isNCName(name) != Self.libxml2Reads(name) {
          Issue.record("'\(name)' (\(a.unicodeScalars.first!.value), \(b.unicodeScalars.first!.value))")
        }
      }
    }
  }

  /// Every character up to U+3100 and around each boundary beyond, first and
  /// second in a name: the exact rule, where a Unicode-property guess was
  /// wrong for characters such as `½` (a number, not a name character).
  @Test func namesBeyondASCIIAreLibxml2s() {
    var values = Array(0x80...0x3100)
    for edge in [0xD7FF, 0xF900, 0xFDCF, 0xFDF0, 0xFFFD, 0x10000, 0x1F686, 0xEFFFF, 0xF0000] {
      values += [edge - 1, edge, edge + 1]
    }
    var disagreements: [String] = []
    for value in values {
      guard let scalar = Unicode.Scalar(value) else { continue }
      for name in [String(scalar) + "a", "a" + String(scalar)]
      where XMLName.isNCName(name) != Self.libxml2Reads(name) {
        disagreements.append("U+\(String(value, radix: 16)) in '\(name)'")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    #expect(!XMLName.isNCName("a½") && XMLName.isNCName("a·b") && XMLName.isNCName("Zoë"))
  }
}
