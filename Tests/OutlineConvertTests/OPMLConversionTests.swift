import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

@testable import OutlineConvert

/// OPML both ways in process: what the writer writes the reader reads back as it was, an
/// outline `importOPML` made exports to the OPML it came from, and export refuses what OPML
/// cannot carry back (``OPMLConversion/exportProblems(_:tree:model:)``).
@Suite struct OPMLConversionTests {
  static let values = [
    "tab\there", "line\nfeed", "carriage\rreturn", "crlf\r\npair", "\r\n\r\n", "trailing\r", "]]> and ]]",
    "<tag> & \"double\" 'single'", "café 中 🚆", "  spaced  ", "", "&amp; &#13;",
  ]

  /// A document holding every value in every place OPML has for one.
  static let document: OPMLDocument = {
    var document = OPMLDocument()
    document.opmlAttributes = [("version", "2.0")] + values.enumerated().map { ("o\($0)", $1) }
    document.namespaces = [("xmlns:x", "urn:x")]
    // `modelVersion` is a head field like any other, though the format has an attribute so named.
    document.head =
      [("title", values[3]), ("modelVersion", "3"), ("model", "m")]
      + values.enumerated().map { ("h\($0)", $1) }
    document.bodyAttributes = values.enumerated().map { ("b\($0)", $1) }
    document.outlines = values.enumerated().map { index, value in
      OPMLOutline(
        depth: index == 0 ? 0 : 1,
        attributes: [.init(name: "text", value: value), .init(name: "x:n\(index)", value: value)])
    }
    return document
  }()

  static func read(_ bytes: [UInt8]) throws -> OPMLDocument { try OPMLReader.read(bytes).0.get() }

  /// The outline `document` imports as, validated (its tree built) against the model the import wrote.
  static func imported(_ document: OPMLDocument) -> (SourceText, OutlineValidator, Model) {
    let imported = OPMLConversion.importOPML(document, modelReference: "a.xcdatamodel")
    let model = ModelLoader.load(SourceText(imported.model))
    let source = SourceText(bytes: imported.outline)
    let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    #expect(validator.diagnostics.isEmpty, "\(validator.diagnostics)")
    return (source, validator, model)
  }

  @Test func theReaderReadsBackWhatTheWriterWrote() throws {
    let written = OPMLConversion.write(Self.document)
    // No raw carriage return is left for a reader to make a line feed of.
    #expect(!written.contains(0x0D))
    let back = try Self.read(written)
    #expect(back == Self.document)
    #expect(back.head[0].value == "crlf\r\npair")
  }

  @Test func anImportedOutlineExportsToTheOPMLItCameFrom() throws {
    let (source, validator, model) = Self.imported(Self.document)
    #expect(OPMLConversion.exportProblems(source, tree: validator.tree!, model: model).isEmpty)
    let exported = try OPMLConversion.exportOPML(source, tree: validator.tree!, model: model)
    #expect(exported == Self.document)
    #expect(try Self.read(OPMLConversion.write(exported)) == Self.document)
  }

  /// The shipped OPML model, for outlines written by hand.
  static let opmlModel = ModelLoader.load(SourceText(ShippedModels.opml))

  static func problems(_ outline: String, model: Model = opmlModel) -> [String] {
    let source = SourceText(outline)
    let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    #expect(!validator.diagnostics.contains { $0.severity == .error }, "\(validator.diagnostics)")
    let problems = OPMLConversion.exportProblems(source, tree: validator.tree!, model: model)
    do {
      _ = try OPMLConversion.exportOPML(source, tree: validator.tree!, model: model)
      #expect(problems.isEmpty)
    } catch {
      #expect(error.problems == problems)
    }
    return problems.map { "\(source.string(in: $0.range)): \($0.message)" }
  }

  @Test func anOutlineInTheOPMLModelWrittenByHandExports() {
    let outline = """
      <outline version="1" opmlVersion="1.0" title="T" ownerName="o">
        <Outline order="1" text="b" xml:id="x1">
          <Outline order="0" text="c" type="link" url="https://example.org/?a=1&amp;b=2"/>
        </Outline>
        <Outline order="0" text="a" version="v"/>
      </outline>
      """
    #expect(Self.problems(outline) == [])
  }

  @Test func otherEntitiesAndRelationshipsAreRefused() {
    let model = ModelLoader.load(
      SourceText(
        """
        <model>
          <entity name="Item">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
            <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
            <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
          </entity>
          <entity name="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
          </entity>
        </model>
        """))
    let outline = """
      <outline>
        <Item order="0" title="a" tags="t1"/>
        <Item order="1" title="b" tags="t1"/>
        <Tag xml:id="t1" label="urgent"/>
      </outline>
      """
    #expect(
      Self.problems(outline, model: model) == [
        "outline: The root is 'Item', not 'OPML': export writes documents in the OPML model, as `outline import` makes them",
        "Item: 'Item' objects have no place in OPML, which holds 'Outline' objects only (each an <outline> element) (and 1 more place like it)",
        "tags: 'tags' relates this 'Item' to other objects by id, which OPML cannot say: its attributes are text, and `outline import` reads them back as String attributes (and 1 more place like it)",
        "Tag: 'Tag' objects have no place in OPML, which holds 'Outline' objects only (each an <outline> element)",
      ])
  }

  /// The OPML model's entities in a model of their own: what import could not give back is named.
  @Test func namesTypesDefaultsAndContainmentsThatWouldComeBackChangedAreRefused() {
    let model = ModelLoader.load(
      SourceText(
        """
        <model>
          <entity name="OPML">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="head.title" optional="YES" attributeType="String"/>
            <attribute name="opml.version" optional="YES" attributeType="String"/>
            <attribute name="opml.1x" optional="YES" attributeType="String"/>
            <attribute name="lang" optional="YES" attributeType="String" defaultValueString="en"/>
            <relationship name="items" optional="YES" toMany="YES" destinationEntity="Outline" inverseName="document" inverseEntity="Outline"/>
          </entity>
          <entity name="Outline">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
            <attribute name="text" optional="YES" attributeType="String"/>
            <attribute name="count" optional="YES" attributeType="Integer 32"/>
            <attribute name="opml.text" optional="YES" attributeType="String"/>
            <relationship name="children" optional="YES" toMany="YES" destinationEntity="Outline" inverseName="parent" inverseEntity="Outline"/>
            <relationship name="document" optional="YES" maxCount="1" destinationEntity="OPML" inverseName="items" inverseEntity="OPML"/>
            <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Outline" inverseName="children" inverseEntity="Outline"/>
          </entity>
        </model>
        """))
    let outline = """
      <outline xml:id="r" lang="de" head.title="h" opml.version="2" opml.1x="y">
        <Outline order="0" text="a" count="3" opml.text="b">
          <Outline order="0" text="c"/>
        </Outline>
      </outline>
      """
    #expect(
      Self.problems(outline, model: model) == [
        "xml:id: The root's xml:id has no place in OPML: `outline import` gives the root no id",
        "head.title: 'head.title' would be written as the head field <title>, which `outline import` reads back as 'title'",
        "opml.version: 'opml.version' would be written as the <opml> attribute 'version', which `outline import` reads back as 'opmlVersion'",
        "opml.1x: 'opml.1x' would be written as the <opml> attribute '1x', which is not an XML name",
        "Outline: This 'Outline' stands in 'items', which OPML cannot say: `outline import` puts an <outline> in 'outlines'",
        "count: 'count' holds Integer 32 values in 'Outline', which OPML cannot say: its attributes are text, and `outline import` reads them back as String attributes",
        "opml.text: 'opml.text' would be written as the <outline> attribute 'text', which `outline import` reads back as 'text'",
      ])
    // A default the root leaves unsaid.
    #expect(
      Self.problems("<outline/>", model: model) == [
        "outline: This 'OPML' has 'lang' by its default 'en', which OPML cannot say: `outline import` would give it no value"
      ])
  }
}
