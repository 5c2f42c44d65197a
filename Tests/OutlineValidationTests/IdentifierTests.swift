import OutlineCore
import OutlineModel
import OutlineXML
import Testing

@testable import OutlineValidation

/// Ids are NCNames (OL510), at the `xml:id` and at every reference.
@Suite struct IdentifierTests {
  @Test func badIdsAndReferencesAreReportedAtTheName() {
    let marked = Marked(
      document(
        """
        <Item order="0" xml:id="1️⃣1st" related="2️⃣1st 3️⃣a:b ok"/><Item order="1" xml:id="4️⃣a:b"/>
        <Item order="2" xml:id="ok"/><Item order="3" xml:id="é-ü.2_x"/><Tag name="t" xml:id="5️⃣t t"/>
        <Item order="4" xml:id="6️⃣"/><Item order="5" xml:id="7️⃣&#49;x"/><Item order="6" xml:id="_&#65;"/>
        """))
    let diagnostics = validate(marked.text).filter { $0.code == .idNotName }
    let starts = diagnostics.map(\.range.start)
    #expect(starts == (1...7).map { marked.offsets[$0 - 1] }, "\(diagnostics.map(\.message))")
    #expect(diagnostics.allSatisfy { $0.severity == .error })
    #expect(diagnostics[0].message.contains("The id '1st' is not an XML name"))
    #expect(diagnostics[1].message == "'related' names '1st', which is not an XML name")
    #expect(diagnostics[1].range.end - diagnostics[1].range.start == 3)
    #expect(diagnostics[6].message.contains("'1x'"))
  }

  /// The eight-bytes-at-a-time check of ASCII ids says what the name rule says, for every
  /// byte at every place of ids short and long.
  @Test func everyByteAtEveryPlaceIsJudgedAsTheNameRuleJudgesIt() {
    for length in [1, 5, 7, 8, 9, 13, 16, 17, 24] {
      for position in 0..<length {
        for byte in UInt8(0)...UInt8(127) {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          bytes[position] = byte
          let expected = String(validating: bytes, as: UTF8.self).map(XMLName.isNCName) ?? false
          let judged = bytes.withUnsafeBufferPointer { IDNames.isValid(raw: $0) }
          // ASCII: where the check by words decides (other bytes are decoded first).
          #expect(judged == expected, "byte \(byte) at \(position) of \(length)")
        }
      }
    }
  }

  @Test func validIdsGiveNothing() {
    let text = document(
      #"<Item order="0" xml:id="a" related="b _c"/><Item order="1" xml:id="b"/><Item order="2" xml:id="_c"/>"#
    )
    #expect(validate(text).isEmpty)
  }

  @Test(arguments: [
    ("1st", "_1st"), ("a:b", "a_b"), ("a b", "a_b"), ("é 1", "é_1"), ("-x", "_-x"), (".5", "_.5"),
  ])
  func aValidNameIsDerived(_ id: String, _ expected: String) {
    #expect(IDNames.derive(from: id, taken: []) == expected)
    #expect(XMLName.isNCName(expected))
  }

  @Test func derivedNamesAvoidTakenOnesAndNeedSomethingToKeep() {
    #expect(IDNames.derive(from: "a:b", taken: ["a_b", "a_b-2"]) == "a_b-3")
    #expect(IDNames.derive(from: "", taken: []) == nil)
    #expect(IDNames.derive(from: ":: ", taken: []) == nil)
  }

  @Test func byteCheckAgreesWithTheStringCheck() {
    for id in ["a", "1", "_", "a-b.c", "a b", "a:b", "é", "中文", "x😀", "&#65;", "a&amp;b", "", "-"] {
      let bytes = Array(id.utf8)
      let decoded = id.replacingOccurrences(of: "&#65;", with: "A").replacingOccurrences(
        of: "&amp;", with: "&")
      #expect(
        bytes.withUnsafeBufferPointer { IDNames.isValid(raw: $0) } == XMLName.isNCName(decoded), "\(id)")
    }
  }
}
