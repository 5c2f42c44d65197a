import OutlineCore
import Testing

/// A reference names an id as the XML reads it: character and entity references in it are
/// decoded, as they are in `xml:id`, and its range is the id as written.
@Suite struct EscapedReferenceTests {
  @Test func aCharacterReferenceInAReferenceNamesTheDecodedID() {
    let text = document(
      """
      <Item xml:id="&#233;6" order="0"/>
      <Item xml:id="b" order="1" related="&#233;6 b"/>
      <Item order="2" related="é6 &#x62;" tags="t"/>
      <Tag xml:id="t" name="x"/>
      """)
    #expect(validate(text).filter { $0.severity == .error }.map(\.message) == [])
  }

  @Test func anUnknownEscapedIDIsReportedOverItsWrittenBytes() throws {
    let text = document(#"<Item order="0" related="a &#233;7"/>"#)
    let diagnostic = try #require(validate(text).last { $0.code == .unknownID })
    let bytes = Array(text.utf8)
    #expect(
      String(decoding: bytes[diagnostic.range.start..<diagnostic.range.end], as: UTF8.self) == "&#233;7")
    #expect(diagnostic.message.contains("'é7'"), "\(diagnostic.message)")
  }
}
