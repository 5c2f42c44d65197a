import OutlineCore
import OutlineValidation
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
}
