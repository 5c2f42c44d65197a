import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import Testing

@testable import OutlineEditing

/// Moving and sorting siblings: whole elements move (children, comments and
/// layout with them) and take the order value of the place they move to.
@Suite struct SiblingEditsTests {
  static func edited(_ source: SourceText, _ edits: [TextEdit]) -> String {
    String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
  }

  @Test func swappingMovesWholeElementsAndKeepsThePlacesOrders() {
    let (source, tree) = document(list)
    let a = index(of: "a", in: tree, source)
    let b = index(of: "b", in: tree, source)
    let edits = SiblingEdits.swap(a, b, tree: tree, source: source)
    #expect(edits.count == 2)
    #expect(edits.map(\.range) == [tree.items[a].fullRange, tree.items[b].fullRange])
    let text = Self.edited(source, edits)
    #expect(
      text == """
        <outline>
          <Item title="b" order="0">
            <Item title="b1" order="0"/>
          </Item>
          <Item title="a" order="1"/>
          <!-- keep -->
          <Item title="c" order="2"/>
          <Item title="d" order="3"/>
        </outline>

        """)
    #expect(OutlineValidator.validate(SourceText(text)).diagnostics.isEmpty)
    // Swapping back restores the document.
    let (again, swapped) = document(text)
    let back = SiblingEdits.swap(
      index(of: "b", in: swapped, again), index(of: "a", in: swapped, again), tree: swapped, source: again)
    #expect(Self.edited(again, back) == list)
  }

  @Test func anElementWithoutAnOrderMovesAsWritten() {
    let text = "<outline><Item title=\"x\"/><Item title=\"y\" order=\"1\"/></outline>\n"
    let (source, tree) = document(text)
    let edits = SiblingEdits.swap(1, 2, tree: tree, source: source)
    // `y` takes x's place, which has no order: it keeps its own; `x` has none to set.
    #expect(
      Self.edited(source, edits) == "<outline><Item title=\"y\" order=\"1\"/><Item title=\"x\"/></outline>\n")
  }

  @Test func sortingPutsAValidGroupInOrderOrder() {
    let text = """
      <outline>
        <Item title="c" order="2"/>
        <Item title="a" order="0">
          <!-- a's note -->
          <Item title="a1" order="0"/>
        </Item>
        <Item title="b" order="1"/>
      </outline>

      """
    let (source, tree) = document(text)
    let group = SiblingEdits.group(
      of: index(of: "a", in: tree, source), tree: tree, model: ModelLoader.defaultModel)!
    #expect(group.parent == 0 && group.children.count == 3)
    let edits = SiblingEdits.sort(group, tree: tree, source: source)
    // Every child is out of place: three edits, each replacing a whole element.
    #expect(edits.count == 3)
    #expect(
      Self.edited(source, edits) == """
        <outline>
          <Item title="a" order="0">
            <!-- a's note -->
            <Item title="a1" order="0"/>
          </Item>
          <Item title="b" order="1"/>
          <Item title="c" order="2"/>
        </outline>

        """)
  }

  @Test func aSortedGroupNeedsNoEdit() {
    let (source, tree) = document(list)
    let group = SiblingEdits.group(
      of: index(of: "c", in: tree, source), tree: tree, model: ModelLoader.defaultModel)!
    #expect(SiblingEdits.sort(group, tree: tree, source: source).isEmpty)
  }

  @Test func theGroupOfAnItemIsItsParentsRelationship() {
    let (source, tree) = document(list)
    let model = ModelLoader.defaultModel
    let b1 = index(of: "b1", in: tree, source)
    let inner = SiblingEdits.group(of: b1, tree: tree, model: model)
    #expect(inner == Renumbering.Group(parent: index(of: "b", in: tree, source), children: [b1]))
    // The root has no siblings.
    #expect(SiblingEdits.group(of: 0, tree: tree, model: model) == nil)
  }
}
