import OutlineXML
import Testing

/// `isNCName` answers ASCII names from their bytes; the answer is the
/// Unicode rule's (a letter or `_` first, then letters, digits, `_`, `-`, `.`).
@Suite struct XMLNameTests {
  static func rule(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
      return false
    }
    return name.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" || $0 == "-" || $0 == "."
    }
  }

  @Test func everyASCIINameOfOneOrTwoCharactersAgreesWithTheRule() {
    let scalars = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
    #expect(XMLName.isNCName("") == false)
    for a in scalars {
      #expect(XMLName.isNCName(String(a)) == Self.rule(String(a)), "\(a.unicodeScalars.first!.value)")
      for b in scalars {
        let name = String([a, b])
        if XMLName.isNCName(name) != Self.rule(name) {
          Issue.record("'\(name)' (\(a.unicodeScalars.first!.value), \(b.unicodeScalars.first!.value))")
        }
      }
    }
  }

  @Test func namesBeyondASCIIFollowTheUnicodeRule() {
    for name in ["Zoë", "émoji", "日本語", "a·b", "_x-1.2", "1st", "a:b", "a b", "x🚆", "Ελληνικά", "٣x", "x٣"] {
      #expect(XMLName.isNCName(name) == Self.rule(name), "\(name)")
    }
    #expect(XMLName.isNCName("Zoë") && !XMLName.isNCName("1st") && !XMLName.isNCName("a:b"))
  }
}
