import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineXML
import TestSupport
import Testing

@testable import OutlineConvert

/// `ObjectHead.writeItem` matches names by their first eight bytes read as one word, copies keys and values eight
/// bytes at a time and reads a value's last bytes as a word that may end at the tag's last byte: each object head
/// it writes is the one spelled out here from the decoded values, for names that share their first eight bytes,
/// attributes in any order, values needing work at every place, and tags that end where the buffer ends.
@Suite struct ItemHeadTests {
  static let model = ModelLoader.load(
    SourceText(
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="R">
              <attribute name="a" attributeType="String"/>
              <attribute name="order" attributeType="Integer 64"/>
              <attribute name="title" attributeType="String"/>
              <attribute name="description1" attributeType="String"/>
              <attribute name="description2" attributeType="String"/>
              <attribute name="descript" attributeType="String"/>
              <attribute name="flag" attributeType="Boolean"/>
              <attribute name="amount" attributeType="Double"/>
              <attribute name="small" attributeType="Integer 16"/>
              <relationship name="owner" destinationEntity="R" toMany="NO"/>
              <relationship name="tags" destinationEntity="R" toMany="YES"/>
          </entity>
          <entity name="Wide">
      \((0..<70).map { "        <attribute name=\"w\($0)\" attributeType=\"String\"/>" }.joined(separator: "\n"))
          </entity>
      </model>
      """))

  /// The head the writer must produce: `@entity`, `@id`, then the keys in model order, each value decoded and written
  /// as its kind says.
  static func expected(entity: String, id: String?, values: [(name: String, raw: String)]) -> String {
    let model = Self.model
    let index = model.entities.firstIndex { $0.name == entity }!
    let definition = model.entities[index]
    var out = "{\"@entity\":\(JSONText.quote(entity))"
    if let id { out += ",\"@id\":" + JSONText.quote(XMLEscaping.decodeAttribute(Array(id.utf8))) }
    let names = definition.attributes.map(\.name) + definition.relationships.map(\.name)
    for name in names {
      guard let raw = values.first(where: { $0.name == name })?.raw else { continue }
      let decoded = XMLEscaping.decodeAttribute(Array(raw.utf8))
      let isToOne = name != "tags" && definition.attributes.allSatisfy { $0.name != name }
      // A to-one naming nothing is left out.
      if isToOne && decoded.allSatisfy({ $0 == " " }) { continue }
      out += "," + JSONText.quote(name) + ":"
      if let attribute = definition.attributes.firstIndex(where: { $0.name == name }) {
        let kind = model.index.attributes[index][attribute].valueKind
        switch kind {
        case .string, .text, .opaque: out += JSONText.quote(decoded)
        case .integer, .number, .boolean: out += ObjectHead.json(decoded, kind)
        }
      } else {
        let ids = decoded.split(separator: " ").map { JSONText.quote(String($0)) }
        out += name == "tags" ? "[" + ids.joined(separator: ",") + "]" : ids[0]
      }
    }
    return out
  }

  /// What the writer writes for `tag`, the tag alone in its buffer (its last byte the buffer's last).
  static func written(_ tag: String, entity: Int) -> String {
    let bytes = Array(tag.utf8)
    let head = ObjectHead(model: model, rootEntity: nil)
    var out = ByteOutput(capacity: 1)
    defer { out.free() }
    TagScanner.withStartTag(in: bytes, range: TextRange(start: 0, end: bytes.count)) { tag in
      head.write(tag, entity: entity, isRoot: false, into: &out)
    }
    return String(decoding: out.buffer, as: UTF8.self)
  }

  static let values = [
    "", "x", "é", "&amp;", "&quot;", "&#233;", "&lt;b", "'", "\\", "\t", "a\r\nb", "&#x1F600;", "1234567",
    "12345678", "abcdefgh&amp;", "abcdefg&quot;x", "Zürich &amp; \"", "日本語のメモ", "&#1;", "a&amp", "&amp",
  ]

  @Test(arguments: 0..<40)
  func headsMatchTheDecodedValues(seed: Int) {
    var random = SeededGenerator(seed: UInt64(seed))
    let names = [
      "a", "order", "title", "description1", "description2", "descript", "flag", "amount", "small",
      "owner", "tags", "descriptio", "xml:lang",
    ]
    for _ in 0..<60 {
      var chosen = names.filter { _ in random.next() % 3 == 0 }
      chosen.shuffle(using: &random)
      var pairs: [(name: String, raw: String)] = []
      for name in chosen {
        let raw: String
        switch name {
        case "order", "small":
          raw = ["0", "-0", "05", "12", "-7", "1234567890123456789", "x", " 3"].randomElement(using: &random)!
        case "flag": raw = ["YES", "NO", "true", "1", "maybe"].randomElement(using: &random)!
        case "amount": raw = ["1.50", "2", "-0.0", "1e3", "abc"].randomElement(using: &random)!
        case "owner", "tags": raw = ["i1", "i1 i2", "", "i&amp;3"].randomElement(using: &random)!
        default:
          raw =
            Self.values.randomElement(using: &random)!
            + (random.next() % 2 == 0 ? Self.values.randomElement(using: &random)! : "")
        }
        pairs.append((name, raw))
      }
      let id = random.next() % 3 == 0 ? Self.values.randomElement(using: &random)! : nil
      var attributes = pairs.map {
        " \($0.name)=\"\($0.raw.replacingOccurrences(of: "\"", with: "&quot;"))\""
      }
      if let id {
        attributes.insert(
          " xml:id=\"\(id.replacingOccurrences(of: "\"", with: "&quot;"))\"",
          at: Int(random.next() % UInt64(attributes.count + 1)))
      }
      let close = random.next() % 2 == 0 ? "/>" : ">"
      let tag = "<R" + attributes.joined() + close
      let known = pairs.filter { $0.name != "descriptio" && $0.name != "xml:lang" }
      #expect(Self.written(tag, entity: 0) == Self.expected(entity: "R", id: id, values: known), "\(tag)")
    }
  }

  @Test func singleQuotedValuesKeepTheirQuotes() {
    #expect(Self.written("<R a='say \"hi\"'/>", entity: 0) == "{\"@entity\":\"R\",\"a\":\"say \\\"hi\\\"\"")
    #expect(Self.written("<R a='\"'>", entity: 0) == "{\"@entity\":\"R\",\"a\":\"\\\"\"")
  }

  @Test func anEntityWithMoreThan64KeysIsWrittenInModelOrder() {
    let tag = "<Wide w69=\"z\" xml:id=\"i\" w3=\"c&amp;\" w0=\"a\"/>"
    #expect(
      Self.written(tag, entity: 1)
        == Self.expected(entity: "Wide", id: "i", values: [("w69", "z"), ("w3", "c&amp;"), ("w0", "a")]))
  }
}
