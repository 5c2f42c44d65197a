import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

@testable import OutlineMerge

@Suite struct StructuralDiffTests {
  /// The text lines of the diff from `old` to `new` (default model unless `model` is given).
  func lines(_ old: String, _ new: String, model: Model? = nil) -> [String] {
    DiffText.lines(StructuralDiff(old: items(old, model: model), new: items(new, model: model)))
  }

  func items(_ text: String, model: Model? = nil) -> DocumentItems {
    guard let model else { return OutlineMergeTests.items(text) }
    let source = SourceText(text)
    let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    return DocumentItems(source: source, tree: validator.tree!, model: validator.model)
  }

  static let list = """
    <outline title="List">
      <Item order="0" title="a"/>
      <Item order="1" title="b"/>
      <Item order="2" title="c"/>
      <Item order="3" title="d"/>
    </outline>
    """

  @Test func findsNothingBetweenADocumentAndItself() {
    #expect(lines(Self.list, Self.list).isEmpty)
  }

  @Test func saysATitleChangedInPlaceIsOneChange() {
    let new = Self.list.replacingOccurrences(of: "\"b\"", with: "\"B &amp; co\"")
    #expect(lines(Self.list, new) == [#"changed "B & co" 3:3 -> 3:3: title "b" -> "B & co""#])
  }

  @Test func saysAnAdditionWithoutTheRenumberedSiblings() {
    let new = """
      <outline title="List">
        <Item order="0" title="a"/>
        <Item order="1" title="new"><Item order="0" title="inside"/></Item>
        <Item order="2" title="b"/>
        <Item order="3" title="c"/>
        <Item order="4" title="d"/>
      </outline>
      """
    #expect(lines(Self.list, new) == [#"added "new" - -> 3:3: under "List" at #2 (2 items)"#])
  }

  @Test func saysARemovalWhereItStood() {
    let new = """
      <outline title="List">
        <Item order="0" title="a"/>
        <Item order="1" title="c"/>
        <Item order="2" title="d"/>
      </outline>
      """
    #expect(lines(Self.list, new) == [#"removed "b" 3:3 -> -: from "List" at #2"#])
  }

  @Test func saysAMoveAmongSiblingsForTheMovedItemOnly() {
    let new = """
      <outline title="List">
        <Item order="0" title="b"/>
        <Item order="1" title="c"/>
        <Item order="2" title="a"/>
        <Item order="3" title="d"/>
      </outline>
      """
    #expect(lines(Self.list, new) == [#"moved "a" 2:3 -> 4:3: within "List" #1 -> #3"#])
  }

  @Test func readsSiblingOrderFromOrderValuesNotTheFile() {
    let new = """
      <outline title="List">
        <Item order="3" title="d"/>
        <Item order="2" title="c"/>
        <Item order="1" title="b"/>
        <Item order="0" title="a"/>
      </outline>
      """
    #expect(lines(Self.list, new).isEmpty)
    let renumbered = Self.list.replacingOccurrences(of: "order=\"3\"", with: "order=\"9\"")
    #expect(lines(Self.list, renumbered).isEmpty)
  }

  @Test func saysASubtreeMovedToAnotherParentAndEditedInside() {
    let old = """
      <outline>
        <Item order="0" title="p">
          <Item order="0" title="m"><Item order="0" title="m1"/></Item>
        </Item>
        <Item order="1" title="q"/>
      </outline>
      """
    let new = """
      <outline>
        <Item order="0" title="p"/>
        <Item order="1" title="q">
          <Item order="0" title="m"><Item order="0" title="m1" done="true"/></Item>
        </Item>
      </outline>
      """
    #expect(
      lines(old, new) == [
        #"moved "m" 3:5 -> 4:5: from "p" #1 to "q" #1"#,
        #"changed "m1" 3:31 -> 4:31: done (none) -> "true""#,
      ])
  }

  @Test func labelsAnItemWithoutTitleByElementAndPlace() {
    let old = #"<outline><Item order="0" title="a"/><Item order="1"/></outline>"#
    let new = #"<outline><Item order="0" title="a"/></outline>"#
    #expect(lines(old, new) == [#"removed Item #2 1:37 -> -: from outline at #2"#])
  }

  @Test func namesTheIDsARelationshipGainedAndLost() {
    let model = ModelLoader.load(
      SourceText(
        """
        <model>
          <entity name="Task">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="subtasks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="parentTask" inverseEntity="Task"/>
            <relationship name="parentTask" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="subtasks" inverseEntity="Task"/>
            <relationship name="blocks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="blockedBy" inverseEntity="Task"/>
            <relationship name="blockedBy" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="blocks" inverseEntity="Task"/>
          </entity>
        </model>
        """))
    let old = """
      <outline>
        <Task xml:id="a" order="0" title="a" blocks="b c"/>
        <Task xml:id="b" order="1" title="b" blockedBy="a"/>
        <Task xml:id="c" order="2" title="c" blockedBy="a"/>
      </outline>
      """
    // The same ids in another order are no change of an unordered relationship.
    let swapped = old.replacingOccurrences(of: "blocks=\"b c\"", with: "blocks=\"c  b\"")
    #expect(lines(old, swapped, model: model).isEmpty)
    let new = old.replacingOccurrences(of: "blocks=\"b c\"", with: "blocks=\"c\"")
      .replacingOccurrences(of: "blockedBy=\"a\"/>\n  <Task xml:id=\"c\"", with: "/>\n  <Task xml:id=\"c\"")
    #expect(
      lines(old, new, model: model) == [
        #"changed "a" 2:3 -> 2:3: blocks "b c" -> "c" (removed b)"#,
        #"changed "b" 3:3 -> 3:3: blockedBy "a" -> (none) (removed a)"#,
      ])
    let diff = StructuralDiff(old: items(old, model: model), new: items(new, model: model))
    #expect(diff.changes.first?.removedIDs == ["b"] && diff.changes.first?.addedIDs == [])
  }

  @Test func comparesADocumentWithNoneAsOneAddition() {
    let none = DocumentItems(source: SourceText(bytes: []), tree: .init(), model: nil)
    let diff = StructuralDiff(old: none, new: items(Self.list))
    #expect(diff.changes.map(\.kind) == [.added])
    #expect(diff.changes.first?.items == 5)
    #expect(
      DiffText.lines(StructuralDiff(old: items(Self.list), new: none)) == [
        #"removed "List" 1:1 -> -: the root (5 items)"#
      ])
  }

  @Test func diffsADeepChainWithoutRecursion() {
    let depth = 100_000
    var old = "<outline>"
    for level in 0..<depth { old += "<Item order=\"0\" title=\"t\(level)\">" }
    old += String(repeating: "</Item>", count: depth) + "</outline>"
    let new = old.replacingOccurrences(of: "title=\"t70000\"", with: "title=\"changed\"")
    let diff = StructuralDiff(old: items(old), new: items(new))
    #expect(diff.changes.count == 1)
    #expect(diff.changes.first?.old == 70_001 && diff.changes.first?.attribute == "title")
  }

  @Test func diffsAWideGroupWithScatteredChangesAsThoseChanges() {
    var old = "<outline>"
    for index in 0..<20_000 { old += "<Item order=\"\(index)\" title=\"c\(index % 5)\"/>" }
    old += "</outline>"
    // Every thousandth item renamed: twenty changes, nothing moved, added or removed.
    var new = old
    for index in stride(from: 500, to: 20_000, by: 1000) {
      new = new.replacingOccurrences(
        of: "order=\"\(index)\" title=\"c\(index % 5)\"", with: "order=\"\(index)\" title=\"r\(index)\"")
    }
    let diff = StructuralDiff(old: items(old), new: items(new))
    #expect(diff.changes.count == 20)
    #expect(diff.changes.allSatisfy { $0.kind == .changed && $0.old == $0.new })
  }
}
