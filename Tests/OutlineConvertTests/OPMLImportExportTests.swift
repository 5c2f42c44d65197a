import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

@testable import OutlineConvert

/// `outline import` and `outline export` in process: the OPML reader, ``OPMLConversion``'s
/// import (the outline and the model copy it writes) and export, and the JSON form between.
/// (The commands themselves, the files they write and refuse to write, go through the binary
/// in OPMLCLITests, OPMLRoundTripCLITests and OPMLExportCLITests.)
@Suite struct OPMLImportExportTests {
  /// What `outline import` writes for the OPML `bytes` into `stem.outline`: the outline, its
  /// model copy's text and that model loaded.
  static func imported(_ bytes: [UInt8], stem: String = "a") throws -> (
    outline: String, modelText: String, model: Model
  ) {
    let document = try OPMLReader.read(bytes).0.get()
    let imported = OPMLConversion.importOPML(document, modelReference: stem + ".xcdatamodel")
    return (
      String(decoding: imported.outline, as: UTF8.self), imported.model,
      ModelLoader.load(SourceText(imported.model))
    )
  }

  /// The diagnostics of `outline` against `model`.
  static func lint(_ outline: String, model: Model) -> [Diagnostic] {
    OutlineValidator.validate(SourceText(outline), modelProvider: fixedModel(model)).diagnostics
  }

  /// What `outline export` writes for `outline` in `model`.
  static func exported(_ outline: String, model: Model) throws -> String {
    let source = SourceText(outline)
    let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    let tree = try #require(validator.tree)
    let document = try OPMLConversion.exportOPML(source, tree: tree, model: model)
    return String(decoding: OPMLConversion.write(document), as: UTF8.self)
  }

  /// windows-1252 (and ISO-8859-1, which files mostly mean as windows-1252) is read with
  /// windows-1252's characters in 0x80...0x9F: quotes, euro sign and dash, not control characters.
  @Test(arguments: ["windows-1252", "ISO-8859-1"])
  func windows1252IsReadAsWindows1252(label: String) throws {
    let head = Array(
      "<?xml version=\"1.0\" encoding=\"\(label)\"?>\n<opml version=\"1.0\"><head><title>".utf8)
    let title: [UInt8] = [0x93, 0x48, 0x69, 0x94, 0x20, 0x80, 0x20, 0x96, 0x20, 0xE9]
    let tail = Array("</title></head><body><outline text=\"x\"/></body></opml>\n".utf8)
    let text = try Self.imported(head + title + tail, stem: "w").outline
    #expect(text.contains("title=\"\u{201C}Hi\u{201D} \u{20AC} \u{2013} \u{E9}\""), "\(text)")
  }

  /// Head fields over lines, with comments and in other namespaces, and ids import without
  /// loss and export back; a head field given twice, or with attributes, is refused.
  @Test func opmlHeadsAndIdsImportWithoutLoss() throws {
    let opml =
      "<?xml version=\"1.0\"?>\r\n<opml version=\"2.0\">\r\n<head xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\r\n<title>one\r\ntwo</title>\r\n<docs>http://x<!-- note -->/y</docs>\r\n<dc:creator>Me</dc:creator>\r\n</head>\r\n<body><outline text=\"a\" xml:id=\"n1\"/></body>\r\n</opml>\r\n"
    let (imported, _, model) = try Self.imported(Array(opml.utf8))
    #expect(
      imported.contains("title=\"one&#10;two\"") && imported.contains("docs=\"http://x/y\""), "\(imported)")
    #expect(imported.contains("xml:id=\"n1\""), "\(imported)")
    #expect(!Self.lint(imported, model: model).contains { $0.severity == .error })
    let exported = try Self.exported(imported, model: model)
    #expect(exported.contains("<outline xml:id=\"n1\" text=\"a\"/>"), "\(exported)")
    for refused in [
      "<opml version=\"2.0\"><head><category>a</category><category>b</category></head><body><outline text=\"a\"/></body></opml>\n",
      "<opml version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"><head><atom:link rel=\"self\" href=\"x\"/></head><body><outline text=\"a\"/></body></opml>\n",
    ] {
      #expect(throws: (any Error).self, "\(refused)") { try Self.imported(Array(refused.utf8)) }
    }
  }

  /// Attributes the OPML model lacks extend the model copy the import writes; export gives
  /// them back, and the file's encoding is read.
  @Test func unknownAttributesExtendTheModelCopy() throws {
    let opml = """
      <?xml version="1.0" encoding="ISO-8859-1"?>
      <opml version="2.0" xmlns:x="urn:x"><head><title>Caf\u{E9}</title><custom>1</custom></head>
      <body><outline text="a" x:icon="i" order="7"><outline text="b" extra="e"/></outline></body></opml>
      """
    let latin1 = [UInt8](try #require(opml.data(using: .isoLatin1)))
    let (outline, modelText, model) = try Self.imported(latin1, stem: "feeds")
    #expect(
      outline == """
        <?xml version="1.0" encoding="UTF-8"?>
        <outline version="1" model="feeds.xcdatamodel" xmlns:x="urn:x" opmlVersion="2.0" title="Café" custom="1">
          <Outline order="0" text="a" x:icon="i" opml.order="7">
            <Outline order="0" text="b" extra="e"/>
          </Outline>
        </outline>

        """)
    for name in ["custom", "x:icon", "opml.order", "extra"] {
      #expect(modelText.contains("<attribute name=\"\(name)\" optional=\"YES\" attributeType=\"String\"/>"))
    }
    let export = try Self.exported(outline, model: model)
    #expect(export.contains("<outline text=\"a\" x:icon=\"i\" order=\"7\">"), "\(export)")
    #expect(export.contains("<title>Café</title>"), "\(export)")
  }

  /// An outline written by hand in the shipped OPML model exports, its outlines in order order.
  @Test func aDocumentInTheOPMLModelWrittenByHandExports() throws {
    let outline = """
      <outline version="1" model="OPML.xcdatamodel" title="Feeds" ownerName="Me">
        <Outline order="1" text="b &amp; c" xml:id="n1"/>
        <Outline order="0" text="a">
          <Outline order="0" text="x" type="rss" xmlUrl="https://example.org/feed"/>
        </Outline>
      </outline>

      """
    let exported = try Self.exported(outline, model: ModelLoader.load(SourceText(ShippedModels.opml)))
    #expect(
      exported == """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0">
          <head>
            <title>Feeds</title>
            <ownerName>Me</ownerName>
          </head>
          <body>
            <outline text="a">
              <outline text="x" type="rss" xmlUrl="https://example.org/feed"/>
            </outline>
            <outline text="b &amp; c" xml:id="n1"/>
          </body>
        </opml>

        """)
  }

  /// Namespaced attributes an import wrote go through the JSON form (`@xmlns`) and back.
  @Test func namespacedAttributesGoThroughTheJSONForm() throws {
    let opml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="2.0" xmlns:rg="https://example.org/rg">
        <head><title>Feeds</title></head>
        <body>
          <outline text="Tech" rg:icon="AAAA">
            <outline text="Wired" type="rss" xmlUrl="https://www.wired.com/feed/rss" rg:postProcess="x &amp; y"/>
          </outline>
        </body>
      </opml>

      """
    let (outline, _, model) = try Self.imported(Array(opml.utf8), stem: "feeds")
    let json = Convert.toJSON(outline, model: model)
    #expect(json.contains("\"@xmlns\":{\"rg\":\"https://example.org/rg\"}"), "\(json)")
    let xml = try Convert.toXML(json, model: model)
    for expected in [
      "xmlns:rg=\"https://example.org/rg\"", "rg:icon=\"AAAA\"", "rg:postProcess=\"x &amp; y\"",
    ] {
      #expect(xml.contains(expected), "\(expected) in \(xml)")
    }
    #expect(Self.lint(xml, model: model).isEmpty, "\(Self.lint(xml, model: model))")
  }

  /// `line:col: error: message` of the OPML reader's refusal of `text`, as `outline import`
  /// reports it (nil when it reads).
  static func refusal(_ text: String) -> String? {
    let (result, source) = OPMLReader.read(Array(text.utf8))
    guard case .failure(let error) = result else { return nil }
    let position = source.position(of: error.range.start, unit: .scalar)
    return "\(position.line + 1):\(position.column + 1): error: \(error.message)"
  }

  /// A control character is refused at its place; nesting 2,000 deep imports, lints and
  /// exports back to the same OPML.
  @Test func controlCharactersAreRefusedAndDeepNestingImports() throws {
    let depth = 2_000
    let control = Self.refusal("<opml version=\"2.0\"><head><title>a&#1;b</title></head><body/></opml>\n")
    #expect(control?.hasPrefix("1:") == true, "\(String(describing: control))")
    let deep =
      "<opml version=\"2.0\"><head/><body>\n" + String(repeating: "<outline text=\"x\">", count: depth)
      + String(repeating: "</outline>", count: depth) + "\n</body></opml>\n"
    let (outline, _, model) = try Self.imported(Array(deep.utf8), stem: "deep")
    #expect(!Self.lint(outline, model: model).contains { $0.severity == .error })
    let back = try OPMLReader.read(Array(try Self.exported(outline, model: model).utf8)).0.get()
    #expect(back.outlines.count == depth && back.outlines.last?.depth == depth - 1)
    #expect(back == (try OPMLReader.read(Array(deep.utf8)).0.get()))
  }

  /// Head fields keep their order through import, fmt and export, those named like the
  /// format's own attributes included.
  @Test func exportKeepsTheHeadsOrder() throws {
    let opml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="2.0">
        <head>
          <windowRight>5</windowRight>
          <title>t</title>
          <windowBottom>3</windowBottom>
          <modelVersion>m</modelVersion>
          <xmlns>x</xmlns>
          <dateCreated>d</dateCreated>
        </head>
        <body>
          <outline xml:id="a1" text="a"/>
        </body>
      </opml>

      """
    let (outline, _, model) = try Self.imported(Array(opml.utf8))
    #expect(!Self.lint(outline, model: model).contains { $0.severity == .error })
    // Already formatted: fmt keeps the order too.
    #expect(Convert.format(outline, model: model) == outline)
    let back = try OPMLReader.read(Array(try Self.exported(outline, model: model).utf8)).0.get()
    #expect(
      back.head.map(\.name) == [
        "windowRight", "title", "windowBottom", "modelVersion", "xmlns", "dateCreated",
      ])
    #expect(back == (try OPMLReader.read(Array(opml.utf8)).0.get()))
  }

  /// A value over the size limit is refused at its place, OL107 named.
  @Test(arguments: OversizedValue.sizesOverTheLimit)
  func importRefusesAnOversizedOPMLValue(bytes: Int) {
    let refusal = Self.refusal(OversizedValue.opml(bytes)) ?? ""
    #expect(
      refusal.contains(
        "5:16: error: The value of 'text' is \(bytes) bytes, over the limit of 16 MiB (16777216 bytes) as the .outline would write it [OL107]"
      ), "\(refusal.prefix(400))")
  }

  /// The value is measured as the outline writes it: 16 MiB in the OPML, but the `"` inside
  /// single quotes becomes `&quot;`.
  @Test func importMeasuresTheValueAsTheOutlineWritesIt() {
    let limit = SizeRule.maximumValueBytes
    let value = String(repeating: "a", count: limit - 1) + "\""
    let refusal =
      Self.refusal("<opml version=\"2.0\"><head/><body><outline text='\(value)'/></body></opml>\n") ?? ""
    #expect(
      refusal.contains("1:49: error: The value of 'text' is \(limit + 5) bytes"), "\(refusal.prefix(300))")
  }

  /// Every value no XML writer may change, in one OPML file.
  static let everyValue = OPMLEveryValue.opml

  /// XML -> JSON -> XML keeps every value: both are in the canonical layout, so the same values
  /// are the same bytes, and they export to the OPML they came from.
  @Test func xmlToJSONToXMLKeepsEveryValue() throws {
    let (outline, _, model) = try Self.imported(Array(Self.everyValue.utf8))
    let back = try Convert.toXML(Convert.toJSON(outline, model: model), model: model)
    #expect(back == outline)
    #expect(Convert.format(outline, model: model) == outline)
    let exported = try OPMLReader.read(Array(try Self.exported(back, model: model).utf8)).0.get()
    #expect(exported == (try OPMLReader.read(Array(Self.everyValue.utf8)).0.get()))
  }

  /// A key or an element name of 100,000 characters is quoted as 60 characters then `...`, in
  /// what convert and import say: a line, not 100,000 characters.
  @Test func convertAndImportQuoteKeysAndNamesShortened() throws {
    let key = String(repeating: "k", count: 100_000)
    do {
      _ = try Convert.toXML(#"{"children":[{"@entity":"Item","order":0,"\#(key)":1}]}"#)
      Issue.record("an unknown key converted")
    } catch {
      // As `outline convert` writes each, to standard error.
      let said = error.all.map {
        "c.outline.json:1:\($0.offset + 1): error[\($0.code)]: \($0.message) (at \($0.path))"
      }
      .joined(separator: "\n")
      #expect(said.count < 1_000, "\(said.prefix(300))")
      #expect(said.contains("'\(key.prefix(60))...' is not an attribute"), "\(said.prefix(300))")
    }
    let refusal = Self.refusal("<opml version=\"2.0\"><head/><body><\(key)/></body></opml>\n") ?? ""
    #expect(!refusal.isEmpty && refusal.count < 1_000, "\(refusal.prefix(300))")
    #expect(refusal.contains("'\(key.prefix(60))...'"), "\(refusal.prefix(300))")
  }
}
