import OutlineCore
import OutlineModel
import Testing

@testable import OutlineValidation

/// Messages quote what the document says (values, names, ids, titles) only as an excerpt:
/// at most 60 characters, then `...`, control characters escaped (Files.md, "What messages quote").
@Suite struct MessageExcerptTests {
  static let x60 = String(repeating: "x", count: 60)

  /// Every message and related note of `diagnostics`: one short line each.
  func expectShort(_ diagnostics: [Diagnostic], _ comment: Comment? = nil) {
    for diagnostic in diagnostics {
      for message in [diagnostic.message] + diagnostic.related.map(\.message) {
        #expect(message.count < 400, "\(diagnostic.code): \(message.prefix(200))")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 }, "\(diagnostic.code)")
      }
    }
  }

  @Test func longValuesNamesIdsAndTitlesAreCutInEveryMessage() throws {
    let long = String(repeating: "x", count: 1_000_000)
    let name = "q" + String(repeating: "q", count: 5_000)
    let id = "i" + String(repeating: "d", count: 5_000)
    let title = String(repeating: "t", count: 5_000) + "&#10;"
    let text = document(
      """
      <Item order="\(long)" title="t"/>
      <Item order="1" \(name)="1"/>
      <Z\(name) order="2"/>
      <Item order="3" code="\(long)"/>
      <Item order="4" xml:id="\(id)"/>
      <Item order="5" xml:id="\(id)"/>
      <Item order="6" best="r\(id)"/>
      <Item order="7" when="\(long)"/>
      <Item order="8" title="\(title)"><Item order="5"/></Item>
      <Item order="9" xml:id="a&#10;\(long)"/>
      """)
    let diagnostics = validate(text)
    expectShort(diagnostics)
    let codes = Set(diagnostics.map(\.code))
    for code in [
      DiagnosticCode.valueType, .unknownAttribute, .unknownEntity, .valuePattern, .duplicateID, .unknownID,
      .orderOutOfSequence, .idNotName,
    ] {
      #expect(codes.contains(code), "\(code)")
    }
    let messages = diagnostics.map(\.message)
    #expect(messages.contains("'order': '\(Self.x60)...' is not a decimal integer (Integer 64)"))
    #expect(messages.contains { $0.hasPrefix("'\(name.prefix(60))...' is not an attribute or relationship") })
    #expect(messages.contains("'Z\(name.prefix(59))...' is not an entity of the model"))
    #expect(messages.contains { $0.hasPrefix("'code' value '\(Self.x60)...' does not match") })
    #expect(messages.contains("The id '\(id.prefix(60))...' is used twice"))
    #expect(messages.contains { $0.hasPrefix("'best' names 'r\(id.prefix(59))...', which no object") })
    #expect(messages.contains { $0.hasPrefix("'when': '\(Self.x60)...' is not an ISO 8601 date") })
    #expect(messages.contains { $0.contains("the only child of '\(title.prefix(60))...' is numbered 0") })
    #expect(messages.contains { $0.hasPrefix(#"The id 'a\n"# + String(repeating: "x", count: 58) + "...'") })
  }

  @Test func controlCharactersInValuesAreWrittenEscaped() throws {
    let diagnostics = validate(document("<Item order=\"a&#10;b&#13;c&#9;d\\e\"/>"))
    let message = try #require(diagnostics.first { $0.code == .valueType }?.message)
    #expect(message == #"'order': 'a\nb\rc\td\\e' is not a decimal integer (Integer 64)"#)
  }

  @Test func libxml2MessagesQuoteLongNamesShortened() {
    let name = String(repeating: "z", count: 5_000)
    for text in [
      "<outline><Item order=\"0\" title=\"&\(name);\"/></outline>",
      "<outline><\(name) order=\"0\"></b></outline>",
      "<outline><Item order=\"0\" \(name)=\"1\" \(name)=\"1\"/></outline>",
    ] {
      let diagnostics = validate(text)
      #expect(diagnostics.contains { $0.code == .notWellFormed })
      expectShort(diagnostics)
      #expect(
        diagnostics.contains {
          $0.code == .notWellFormed && $0.message.contains(String(name.prefix(60)) + "...")
        })
    }
  }

  @Test func modelNamesAreQuotedTheSameWay() {
    let entity = "E" + String(repeating: "n", count: 200)
    let attribute = "a" + String(repeating: "m", count: 200)
    let model = ModelLoader.load(
      SourceText(
        """
        <model><entity name="\(entity)"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/>\
        <attribute name="\(attribute)" attributeType="String"/></entity></model>
        """), path: "M.xcdatamodel/contents")
    let diagnostics = validate("<outline><\(entity) order=\"0\"/></outline>", model: model)
    expectShort(diagnostics)
    #expect(
      diagnostics.map(\.message).contains(
        "'\(entity.prefix(60))...' needs '\(attribute.prefix(60))...' (String, not optional, no default)"))
  }
}
