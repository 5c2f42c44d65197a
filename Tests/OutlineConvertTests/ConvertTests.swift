import Foundation
import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML
import TestSupport
import Testing

@testable import OutlineConvert

enum Convert {
  static func toJSON(_ xml: String, model: Model = ModelLoader.defaultModel) -> String {
    let source = SourceText(xml)
    let check = OutlineValidator.validate(source, modelProvider: fixedModel(model), buildTree: false)
    precondition(check.diagnostics.allSatisfy { $0.severity != .error }, "\(check.diagnostics)")
    var out: [UInt8] = []
    JSONFormWriter.write(
      source, model: model, rootEntity: check.rootEntity, childrenInOrder: check.childrenInOrder,
      tree: { OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree! },
      output: { out += $0 })
    return String(decoding: out, as: UTF8.self)
  }

  static func toXML(_ json: String, model: Model = ModelLoader.defaultModel) throws(JSONFormError) -> String {
    String(decoding: try JSONFormReader.convert(Array(json.utf8), model: model), as: UTF8.self)
  }

  static func format(_ xml: String, model: Model = ModelLoader.defaultModel) -> String {
    String(decoding: Formatter.format(SourceText(xml), model: model), as: UTF8.self)
  }
}

@Suite struct FormatterTests {
  @Test func canonicalLayoutKeepsCommentsAndIsIdempotent() {
    let input = """
      <?xml version='1.0'?>
      <!-- top
           comment -->
      <outline title="W &amp; x"   version="1"><Item order="0"
         title="a &lt; b" xml:id="a"><!-- inner -->
            <Item title='q"uote' order="0"/><?pi data?>
         </Item>
            <Item order="1" title="tab&#9;nl&#10;"></Item>
      </outline>
      """
    let expected = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- top
           comment -->
      <outline version="1" title="W &amp; x">
        <Item xml:id="a" order="0" title="a &lt; b">
          <!-- inner -->
          <Item order="0" title="q&quot;uote"/>
          <?pi data?>
        </Item>
        <Item order="1" title="tab&#9;nl&#10;"/>
      </outline>

      """
    let once = Convert.format(input)
    #expect(once == expected)
    #expect(Convert.format(once) == once)
  }

  @Test func deepChainFormatsInLinearSize() {
    let depth = 100_000
    let xml =
      "<outline>" + String(repeating: "<Item order=\"0\">", count: depth)
      + String(repeating: "</Item>", count: depth) + "</outline>"
    let formatted = Formatter.format(SourceText(xml), model: ModelLoader.defaultModel)
    #expect(formatted.count < depth * 2 * (2 * CanonicalLayout.maximumIndentDepth + 30))
    #expect(Formatter.format(SourceText(bytes: formatted), model: ModelLoader.defaultModel) == formatted)
  }
}

@Suite struct JSONFormTests {
  static let sample = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="Weekend">
      <Item title="Groceries" order="0">
        <Item title="Milk" order="0" xml:id="milk"/>
        <Item title="Eggs" order="1"/>
      </Item>
      <Item title="Work" order="1"/>
    </outline>
    """

  @Test func matchesTheSpecExampleShape() throws {
    let json = Convert.toJSON(Self.sample)
    #expect(
      json == """
        {"@outline":1,"@entity":"Item","title":"Weekend","children":[
        {"@entity":"Item","order":0,"title":"Groceries","children":[
        {"@entity":"Item","@id":"milk","order":0,"title":"Milk"},
        {"@entity":"Item","order":1,"title":"Eggs"}
        ]},
        {"@entity":"Item","order":1,"title":"Work"}
        ]}

        """)
    // Foundation agrees it is JSON.
    _ = try JSONSerialization.jsonObject(with: Data(json.utf8))
  }

  @Test func xmlToJSONToXMLKeepsTheData() throws {
    let json = Convert.toJSON(Self.sample)
    let xml = try Convert.toXML(json)
    #expect(xml == Convert.format(Self.sample))
    // JSON -> XML -> JSON is identical.
    #expect(Convert.toJSON(xml) == json)
  }

  @Test func childrenAppearInOrderOrder() {
    let json = Convert.toJSON(
      "<outline><Item title=\"b\" order=\"1\"/><Item title=\"a\" order=\"0\"><Item title=\"y\" order=\"1\"/><Item title=\"x\" order=\"0\"/></Item></outline>"
    )
    let titles = json.split(separator: "\"title\":\"").dropFirst().map { $0.prefix(1) }
    #expect(titles == ["a", "x", "y", "b"])
  }

  @Test func typedValues() throws {
    let model = Fixtures.testModel
    let xml = """
      <outline><Item order="+0" count="007" ratio=".5" weight="1e3" price="12.50" flag="YES" when="2024-05-01T09:30:00Z" title="&quot;q&quot;" xml:id="a"/><Tag name="t" xml:id="t" items="a"/></outline>
      """
    let json = Convert.toJSON(xml, model: model)
    #expect(
      json.contains(
        #""order":0,"title":"\"q\"","count":7,"ratio":0.5,"weight":1e3,"price":12.50,"flag":true,"when":"2024-05-01T09:30:00Z""#
      ))
    #expect(json.contains(#""items":["a"]"#))
    let back = try Convert.toXML(json, model: model)
    #expect(Convert.toJSON(back, model: model) == json)
  }

  @Test(arguments: [
    (#"[1]"#, "$", "must be a JSON object"),
    (#"{"@outline":2}"#, "$.@outline", "must be 1"),
    (#"{"children":[{"title":"a"}]}"#, "$.children[0].title", "'@entity' must come first"),
    (#"{"children":[{"@entity":"Nope"}]}"#, "$.children[0].@entity", "not an entity"),
    (#"{"children":[{"@entity":"Item","order":"0"}]}"#, "$.children[0].order", "must be an integer"),
    (
      #"{"children":[{"@entity":"Item","order":0,"colour":"red"}]}"#, "$.children[0].colour",
      "not an attribute"
    ),
    (#"{"children":[{"@entity":"Item","order":0},{"@entity":"Item"}]}"#, "$.children[1]", "needs 'order'"),
    (#"{"children":[{"@entity":"Item","order":0,"title":null}]}"#, "$.children[0].title", "must be a string"),
    (
      #"{"children":[{"@entity":"Item","order":0,"children":[1]}]}"#, "$.children[0].children[0]",
      "objects only"
    ),
    (#"{"children":[{"@entity":"Item","order":0}"#, "$.children", "Invalid JSON"),
  ])
  func badInputNamesTheJSONPath(input: String, path: String, message: String) {
    do {
      _ = try Convert.toXML(input)
      Issue.record("expected an error for \(input)")
    } catch {
      #expect(error.path == path, "\(error.message)")
      #expect(error.message.contains(message), "\(error.message)")
    }
  }

  @Test func lateAttributesAndEntityFirst() throws {
    let json =
      #"{"@outline":1,"children":[{"@entity":"Item","children":[{"@entity":"Item","order":0}],"order":0,"title":"late"}]}"#
    let xml = try Convert.toXML(json)
    #expect(xml.contains(#"<Item order="0" title="late">"#))
  }

  @Test func deepChainBothWays() throws {
    let depth = 100_000
    let xml =
      "<outline>" + String(repeating: "<Item order=\"0\">", count: depth)
      + String(repeating: "</Item>", count: depth) + "</outline>"
    let json = Convert.toJSON(xml)
    #expect(json.count < depth * 60)
    let back = try Convert.toXML(json)
    #expect(Convert.toJSON(back) == json)
  }
}

/// Property-style round trips over generated outlines of random shape, values and depth.
@Suite struct RoundTripProperties {
  static func outline(seed: UInt64) -> String {
    var random = SeededGenerator(seed: seed)
    let words = ["a", "é", "中文", "😀", "R&D", "<x>", "\"q\"", "tab\there", "nl\nthere", "  spaces  ", ""]
    var xml = "<outline version=\"1\" title=\"\(words.randomElement(using: &random)!.xmlEscaped)\">\n"
    var counts = [0]
    var open = 0
    for _ in 0..<Int.random(in: 1...60, using: &random) {
      let roll = Int.random(in: 0..<10, using: &random)
      if roll < 3 && open > 0 {
        xml += "</Item>\n"
        open -= 1
        counts.removeLast()
        continue
      }
      let title = (0..<Int.random(in: 0...3, using: &random)).map { _ in words.randomElement(using: &random)!
      }.joined(separator: " ")
      let attributes = "title=\"\(title.xmlEscaped)\" order=\"\(counts[counts.count - 1])\""
      counts[counts.count - 1] += 1
      if roll < 6 {
        xml += "<Item \(attributes)/>\n"
      } else {
        xml += "<Item \(attributes)>\n"
        open += 1
        counts.append(0)
      }
    }
    xml += String(repeating: "</Item>\n", count: open) + "</outline>\n"
    return xml
  }

  @Test(arguments: 0..<60)
  func roundTrips(seed: Int) throws {
    let xml = Self.outline(seed: UInt64(seed) &* 7919 &+ 17)
    let diagnostics = OutlineValidator.validate(SourceText(xml)).diagnostics
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message)) in \(xml)")
    let formatted = Convert.format(xml)
    #expect(Convert.format(formatted) == formatted)
    let json = Convert.toJSON(xml)
    let back = try Convert.toXML(json)
    #expect(back == formatted)
    #expect(Convert.toJSON(back) == json)
  }
}

extension String {
  var xmlEscaped: String {
    replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\t", with: "&#9;")
      .replacingOccurrences(of: "\n", with: "&#10;")
  }
}

enum Fixtures {
  static let testModel: Model = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/models/Test.xcdatamodel/contents")
    return ModelLoader.load(SourceText(bytes: [UInt8](try! Data(contentsOf: url))), path: url.path)
  }()
}

@Suite struct OPMLModelTests {
  @Test func importWritesTheShippedModelWhenNothingIsUnknown() {
    #expect(OPMLConversion.modelContents(rootExtras: [], outlineExtras: []) == ShippedModels.opml)
  }
}

/// The XML -> JSON writer quotes attribute values straight from the file's
/// bytes; it must give what decoding to a string and quoting that gives.
@Suite struct AttributeTranscodingTests {
  @Test(arguments: [
    "plain", "", "a &amp; b", "&lt;tag&gt;", "&quot;q&quot; and &apos;a&apos;", "back\\slash \"",
    "line\nbreak", "cr\r\nlf", "lone\rcr", "tab\there", "ref&#10;newline", "&#13;&#9;&#0001;", "&#x1F600;é",
    "中文 &#x4E2D;", "&#31;", "\u{1}", "&unknown; & alone",
  ])
  func matchesDecodeThenQuote(raw: String) {
    let bytes = Array(raw.utf8)
    var direct = ByteOutput(capacity: 16)
    defer { direct.free() }
    bytes.withUnsafeBufferPointer { ObjectHead.appendString($0, to: &direct) }
    let viaString = JSONText.quote(XMLEscaping.decodeAttribute(bytes))
    #expect(String(decoding: direct.buffer, as: UTF8.self) == viaString)
  }
}

/// JSON string -> XML attribute text in one pass: what XML reads back is
/// what JSON meant, and what XML cannot hold is refused at its byte.
@Suite struct JSONStringTranscodingTests {
  @Test(arguments: [
    #"plain"#, #""#, #"a & b < c > d"#, #"\"quoted\" and \\ back"#, #"line\nbreak\r\n\ttab"#,
    #"\u00e9\u4e2d\ud83d\ude00 é中😀"#, #"\u0026\u003c\u0022"#, #"\/slash"#,
    #"long run of plain text before & after"#,
  ])
  func readsBackAsTheJSONMeant(json: String) throws {
    let quoted = "\"" + json + "\""
    var reader = JSONReader(Array(quoted.utf8))
    let token = try #require(try reader.nextToken())
    var xml: [UInt8] = []
    try JSONStringTranscoding.appendAttributeText(reader.contents(of: token), to: &xml)
    #expect(XMLEscaping.decodeAttribute(xml) == reader.string(token))
  }

  @Test(arguments: [
    (#"a\u0001b"#, "U+0001 cannot stand in an XML file", 1),
    (#"a\bb"#, "U+0008 cannot stand in an XML file", 1),
    (#"\uFFFE"#, "U+FFFE cannot stand in an XML file", 0),
  ])
  func refusesWhatXMLCannotHold(json: String, message: String, offset: Int) throws {
    var reader = JSONReader(Array(("\"" + json + "\"").utf8))
    let token = try #require(try reader.nextToken())
    var xml: [UInt8] = []
    #expect {
      try JSONStringTranscoding.appendAttributeText(reader.contents(of: token), to: &xml)
    } throws: { error in
      let problem = error as? JSONStringTranscoding.Problem
      return problem?.message == message && problem?.offset == offset
    }
  }

  @Test(
    arguments: [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xEF, 0xBF, 0xBF]] as [[UInt8]])
  func refusesBytesThatAreNotUTF8(bytes: [UInt8]) {
    var xml: [UInt8] = []
    let raw = Array("ok ".utf8) + bytes
    #expect(throws: JSONStringTranscoding.Problem.self) {
      try raw.withUnsafeBufferPointer { try JSONStringTranscoding.appendAttributeText($0, to: &xml) }
    }
  }

  @Test func longStringsParseAsBytesAndReadTheSame() throws {
    let text = String(repeating: "é\\n\\\"x\\u4e2d ", count: 2_000)
    let value = try JSONValue.parse(Array("{\"text\":\"\(text)\",\"short\":\"s\"}".utf8))
    guard case .utf8(let bytes)? = value["text"] else {
      Issue.record("a long string should parse as bytes")
      return
    }
    #expect(String(decoding: bytes, as: UTF8.self) == String(repeating: "é\n\"x中 ", count: 2_000))
    #expect(value["text"]?.stringValue == String(repeating: "é\n\"x中 ", count: 2_000))
    #expect(value["short"] == .string("s"))
    #expect(try JSONValue.parse(Array(value.serialized().utf8)) == value)
  }
}

/// The root element's `version`, `model` and `entity` belong to the format:
/// a model attribute of that name on the root would write the attribute
/// twice (XML no parser accepts), so it is refused at its key.
@Suite struct RootFormatNamesTests {
  @Test func aModelAttributeNamedVersionIsRefusedOnTheRoot() throws {
    let text = ShippedModels.outline.replacingOccurrences(
      of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
      with:
        #"<attribute name="title" optional="YES" attributeType="String"/><attribute name="version" optional="YES" attributeType="String"/>"#
    )
    let model = ModelLoader.load(SourceText(text), path: "Versioned.xcdatamodel")
    #expect(model.entities.first?.attributeIndex["version"] != nil)
    do {
      _ = try Convert.toXML(#"{"@outline":1,"version":"2","children":[]}"#, model: model)
      Issue.record("a root 'version' attribute was written")
    } catch {
      #expect(error.path == "$.version")
      #expect(error.message.contains("format attribute of the root element"))
    }
    // Names XML cannot write (a hand-written model may hold any text) are refused, not written:
    // the model's own error (OM218) says so first.
    let spaced = ModelLoader.load(
      SourceText(
        ShippedModels.outline.replacingOccurrences(
          of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
          with: #"<attribute name="my title" optional="YES" attributeType="String"/>"#)),
      path: "Spaced.xcdatamodel")
    do {
      _ = try Convert.toXML(#"{"children":[{"@entity":"Item","order":0,"my title":"x"}]}"#, model: spaced)
      Issue.record("an attribute name with a space was written")
    } catch {
      #expect(
        error.message.contains("Attribute 'Item.my title' cannot be an XML attribute name"),
        "\(error.message)")
    }
    // Below the root it is an ordinary attribute.
    let xml = try Convert.toXML(
      #"{"@outline":1,"children":[{"@entity":"Item","order":0,"version":"2"}]}"#, model: model)
    #expect(xml.contains(#"<Item order="0" version="2"/>"#))
  }
}
