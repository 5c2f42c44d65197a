import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

@testable import OutlineConvert

/// What the OPML reader refuses because the `.outline` import writes could not hold it (ids that
/// are no XML names or come twice, names that would get a prefix of the format's), and the order
/// of the head's fields, which import keeps for export (issue 32, items 5 and 9).
@Suite struct OPMLImportNamesTests {
  /// The message and the line:column (1-based, in characters) of the reader's refusal of `opml`.
  static func refusal(_ opml: String) -> String? {
    let (result, source) = OPMLReader.read(Array(opml.utf8))
    guard case .failure(let error) = result else { return nil }
    let position = source.position(of: error.range.start, unit: .scalar)
    return "\(position.line + 1):\(position.column + 1): \(error.message)"
  }

  static func body(_ outlines: String) -> String {
    "<opml version=\"2.0\"><head/><body>\n\(outlines)\n</body></opml>"
  }

  @Test func anIDThatIsNoXMLNameIsRefusedAtItsValue() throws {
    for bad in ["1bad", "", "a b", "x:y", "-a", ".b"] {
      let message = try #require(Self.refusal(Self.body("<outline text=\"t\" xml:id=\"\(bad)\"/>")))
      #expect(message.hasPrefix("2:27: The xml:id '\(bad)' is not an XML name"), "\(message)")
      #expect(message.hasSuffix("[OL510]"))
    }
    #expect(Self.refusal(Self.body("<outline xml:id=\"_ok-1.é\"/><outline xml:id=\"b\"/>")) == nil)
  }

  @Test func anIDUsedTwiceIsRefusedAtItsSecondPlace() throws {
    let message = try #require(
      Self.refusal(Self.body("<outline xml:id=\"a\">\n  <outline xml:id=\"a\"/></outline>")))
    #expect(
      message
        == "3:20: The xml:id 'a' is used twice (first at 2:18); the ids of an .outline name one object each [OL500]"
    )
  }

  @Test func aPrefixedNameGivenTheFormatsPrefixIsRefused() throws {
    let cases = [
      (
        "<opml version=\"2.0\" xml:lang=\"en\"><head/><body/></opml>",
        "1:21: The <opml> attribute 'xml:lang' would be the attribute 'opml.xml:lang'"
      ),
      (
        "<opml version=\"2.0\"><head/><body xml:lang=\"en\"/></opml>",
        "1:34: The <body> attribute 'xml:lang' would be the attribute 'body.xml:lang'"
      ),
      (
        "<opml version=\"2.0\"><head><xml:id>x</xml:id></head><body/></opml>",
        "1:28: The head field 'xml:id' would be the attribute 'head.xml:id'"
      ),
      (
        "<opml version=\"2.0\" xmlns:opml.x=\"urn:x\"><head/><body><outline opml.x:y=\"1\"/></body></opml>",
        "1:64: The <outline> attribute 'opml.x:y' would be the attribute 'opml.opml.x:y'"
      ),
    ]
    for (opml, expected) in cases {
      let message = try #require(Self.refusal(opml))
      #expect(message.hasPrefix(expected), "\(message)")
    }
    // Prefixed names that keep their name are kept.
    #expect(
      Self.refusal(
        "<opml version=\"2.0\" xmlns:dc=\"urn:dc\"><head><dc:creator>x</dc:creator><xml:lang>en</xml:lang></head><body><outline dc:x=\"1\" xml:lang=\"en\"/></body></opml>"
      ) == nil)
  }

  @Test func headFieldsNamedAsTheFormatsAttributesArePrefixed() {
    #expect(OPMLConversion.headName("xmlns") == "head.xmlns")
    #expect(OPMLConversion.headName("modelVersion") == "head.modelVersion")
    #expect(OPMLConversion.headName("version") == "head.version")
    #expect(OPMLConversion.headName("title") == "title")
    #expect(OPMLConversion.rootPlace(of: "head.xmlns") == .headField("xmlns"))
    #expect(OPMLConversion.rootPlace(of: "modelVersion") == .format)
  }

  @Test func theRootKeepsTheHeadsOrder() {
    // In the OPML model's order: its order, as before.
    #expect(
      OPMLConversion.rootAttributeOrder(head: ["title", "windowBottom", "x"], extras: ["x", "opml.y"])
        == ["opmlVersion"] + OPMLConversion.headFields + ["x", "opml.y"])
    // Another order: the head's, then the rest.
    let order = OPMLConversion.rootAttributeOrder(
      head: ["windowRight", "x", "windowBottom", "title"], extras: ["opml.y", "x"])
    #expect(Array(order.prefix(5)) == ["opmlVersion", "windowRight", "x", "windowBottom", "title"])
    #expect(Set(order) == Set(["opmlVersion"] + OPMLConversion.headFields + ["opml.y", "x"]))
    #expect(order.count == 1 + OPMLConversion.headFields.count + 2)
  }

  /// Import, validation against the model copy, export: the head comes back in its order, and
  /// the imported outline is already in `fmt`'s layout (the model copy lists the root's
  /// attributes in the head's order).
  @Test func exportGivesTheHeadBackInItsOrder() throws {
    let opml =
      "<opml version=\"2.0\" a=\"1\"><head><windowRight>5</windowRight><foo>f</foo><modelVersion>3</modelVersion><xmlns>n</xmlns><windowBottom>3</windowBottom><title>t</title></head><body b=\"2\"><outline xml:id=\"i\" text=\"x\"/></body></opml>"
    let document = try OPMLReader.read(Array(opml.utf8)).0.get()
    let imported = OPMLConversion.importOPML(document, modelReference: "a.xcdatamodel")
    let model = ModelLoader.load(SourceText(imported.model))
    let source = SourceText(bytes: imported.outline)
    let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    #expect(validator.diagnostics.isEmpty, "\(validator.diagnostics)")
    let exported = try OPMLConversion.exportOPML(source, tree: validator.tree!, model: model)
    #expect(
      exported.head.map(\.name) == ["windowRight", "foo", "modelVersion", "xmlns", "windowBottom", "title"])
    #expect(exported == document)
    let formatted = Formatter.format(source, model: model)
    #expect(formatted == imported.outline, "\(String(decoding: formatted, as: UTF8.self))")
  }
}
