import OutlineCore
import OutlineValidation
import OutlineXML
import TestSupport
import Testing

@testable import OutlineMerge

/// The items of a document with the default model, as the tests compare them.
func items(_ text: String) -> DocumentItems {
  let source = SourceText(text)
  let validator = OutlineValidator.validate(source)
  return DocumentItems(source: source, tree: validator.tree!, model: validator.model)
}

@Suite struct DocumentItemsTests {
  @Test func leavesOrderOutOfAnItemsContentAndAttributeOrderToo() {
    let document = items(
      """
      <outline>
        <Item order="0" title="a" xml:id="x"/>
        <Item title="a" xml:id="y" order="1"/>
      </outline>
      """)
    #expect(document.attributes(of: 1).map { document.text($0.name) } == ["title", "xml:id"])
    let other = items(
      """
      <outline>
        <Item xml:id="x" title="a" order="7"/>
      </outline>
      """)
    #expect(document.ownHash[1] == other.ownHash[1])
    #expect(document.ownHash[1] != document.ownHash[2])
  }

  @Test func readsAValueAsItMeansNotAsItIsWritten() {
    let one = items(#"<outline><Item order="0" title="a &amp; b"/></outline>"#)
    let two = items(#"<outline><Item order="0" title='a &#38; b'/></outline>"#)
    #expect(one.subtreeHash[0] == two.subtreeHash[0])
    #expect(one.title(of: 1) == "a & b")
  }

  @Test func hashesChildrenInSiblingOrderNotDocumentOrder() {
    let one = items(
      #"<outline><Item order="0" title="a"/><Item order="1" title="b"/></outline>"#)
    let two = items(
      #"<outline><Item order="1" title="b"/><Item order="0" title="a"/></outline>"#)
    let three = items(
      #"<outline><Item order="0" title="b"/><Item order="1" title="a"/></outline>"#)
    #expect(one.subtreeHash[0] == two.subtreeHash[0])
    #expect(one.subtreeHash[0] != three.subtreeHash[0])
    #expect(two.sequence(of: 0) == [2, 1])
    #expect(two.siblingRank[1] == 1 && two.siblingRank[2] == 0)
  }

  @Test func hashesAValueAsTheBytesItDecodesTo() throws {
    let pieces = [
      "a", "Zoë", "日本", "🚆", " ", "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#38;", "&#x26;", "&#233;",
      "&#x1F686;", "\t", "\n", "\r", "\r\n", "&", ";", "#",
    ]
    try Property.check("value hash is the decoded bytes' hash", cases: 300) { random, _ in
      let raw = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
      let bytes = Array("x=\"\(raw)\"".utf8)
      let range = TextRange(start: 3, end: bytes.count - 1)
      let decoded = Array(XMLEscaping.decodeAttribute(Array(bytes[range.start..<range.end])).utf8)
      let expected = ContentHash.bytes(decoded, TextRange(start: 0, end: decoded.count))
      let hashed = ContentHash.value(bytes, range)
      let scanned = bytes.withByteView { view in
        var scanner = TagAttributes.Scanner(view, tag: TextRange(start: -1, end: bytes.count), nameLength: 0)
        return scanner.next(view)
      }
      if hashed != expected {
        return "\(raw.debugDescription): value hash differs from the decoded bytes' hash"
      }
      if scanned?.valueHash != expected || scanned?.attribute.value != range {
        return "\(raw.debugDescription): the scanner read \(String(describing: scanned?.attribute))"
      }
      return nil
    }
  }
}
