import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import Testing

@testable import OutlineEditing

/// An id two objects define (OL500, turned off or not): the reference index
/// keeps every definition, and highlights show them all from either one.
@Suite struct DuplicateIDTests {
  static let text = """
    <outline version="1">
      <!-- outline-disable OL500 -->
      <Item xml:id="x" order="0" title="first"/>
      <Item xml:id="x" order="1" title="second"/>
      <Item xml:id="y" order="2" title="third"/>
    </outline>

    """

  let source = SourceText(text)
  var tree: ItemTree { OutlineValidator.validate(source).tree! }

  func offset(of needle: String, _ occurrence: Int = 0) -> Int {
    var from = 0
    var found = 0
    let bytes = Array(Self.text.utf8)
    while true {
      let range = bytes[from...].firstRange(of: Array(needle.utf8))!
      if found == occurrence { return range.lowerBound }
      found += 1
      from = range.upperBound
    }
  }

  @Test func theIndexKeepsEveryDefinition() {
    let index = ReferenceIndex(tree: tree, source: source, model: ModelLoader.defaultModel)
    #expect(index.duplicates.keys.sorted() == ["x"])
    let x = index.definitions(of: "x")
    #expect(x.map(\.range.start) == [offset(of: "x\" order", 0), offset(of: "x\" order", 1)])
    #expect(index.definitions["x"]?.range == x.first?.range)
    #expect(index.definitions(of: "y").count == 1 && index.definitions(of: "z").isEmpty)
  }

  @Test func highlightsShowEveryDefinitionFromEither() {
    let index = ReferenceIndex(tree: tree, source: source, model: ModelLoader.defaultModel)
    let markup = MarkupTree(source.bytes)
    let first = offset(of: "x\" order", 0)
    let second = offset(of: "x\" order", 1)
    for at in [first, second] {
      let highlights = DocumentHighlights.highlights(at: at, markup: markup, references: index)
      #expect(highlights.map(\.range.start) == [first, second])
      #expect(highlights.allSatisfy { $0.kind == .write })
    }
  }
}
