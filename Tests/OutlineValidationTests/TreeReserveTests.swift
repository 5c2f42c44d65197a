import OutlineCore
import OutlineValidation
import OutlineXML
import Testing

/// A tree sized up front from the document's length holds the same items as one grown item by item.
@Suite struct TreeReserveTests {
  @Test func aReservedTreeHoldsTheSameItems() {
    var text = "<outline version=\"1\">\n"
    for index in 0..<3000 {
      text += "<item xml:id=\"i\(index)\" title=\"t\(index)\">\(index % 3 == 0 ? "<item/>" : "")</item>\n"
    }
    text += "<!-- c --></outline>\n"
    let source = SourceText(text)
    let grown = OutlineValidator.validate(source)
    let sized = OutlineValidator(modelProvider: fixedModel(), buildTree: true)
    sized.prepare(forDocumentBytes: source.bytes.count)
    #expect((sized.tree?.items.capacity ?? 0) >= source.bytes.count / 64)
    XMLEventParser.parse(source.bytes, handler: sized)
    sized.finish()
    #expect(grown.tree?.items.count == 4001)
    #expect(sized.tree?.items == grown.tree?.items)
    #expect(sized.tree?.comments == grown.tree?.comments)
    #expect(sized.tree?.instructions == grown.tree?.instructions)
    #expect(sized.diagnostics == grown.diagnostics)
  }
}
