import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import Testing

@testable import OutlineEditing

/// Which siblings Renumbering numbers together, and the edits it makes for
/// given orders, on a model with two containment relationships, an ordered
/// one and free objects.
@Suite struct RenumberingGroupsTests {
  static let model = ModelLoader.load(
    SourceText(
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Board">
          <relationship name="lists" optional="YES" toMany="YES" destinationEntity="List" inverseName="board"/>
          <relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note" inverseName="board"/>
          <relationship name="pinned" optional="YES" toMany="YES" ordered="YES" destinationEntity="Pin" inverseName="board"/>
        </entity>
        <entity name="List">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
          <attribute name="title" optional="YES" attributeType="String"/>
          <relationship name="board" optional="YES" maxCount="1" destinationEntity="Board" inverseName="lists"/>
        </entity>
        <entity name="Note">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
          <attribute name="title" optional="YES" attributeType="String"/>
          <relationship name="board" optional="YES" maxCount="1" destinationEntity="Board" inverseName="notes"/>
        </entity>
        <entity name="Pin">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
          <attribute name="title" optional="YES" attributeType="String"/>
          <relationship name="board" optional="YES" maxCount="1" destinationEntity="Board" inverseName="pinned"/>
        </entity>
        <entity name="Tag">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
          <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
      </model>
      """))

  static let text = """
    <outline entity="Board">
      <List title="l0" order="3"/>
      <Note title="n0" order="0"/>
      <List title="l1" order="3"/>
      <Pin title="p0" order="7"/>
      <Tag title="t0" order="9"/>
      <Pin title="p1" order="7"/>
      <Note title="n1"/>
    </outline>

    """

  static func parsed() -> (SourceText, ItemTree) {
    let source = SourceText(text)
    return (source, OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree!)
  }

  @Test func oneGroupPerNumberedRelationshipInFirstAppearanceOrder() {
    let (source, tree) = Self.parsed()
    let groups = Renumbering.groups(under: 0, in: tree, model: Self.model)
    // Lists, then notes; the ordered `pinned` and the free Tag are not numbered.
    #expect(
      groups == [
        Renumbering.Group(
          parent: 0, children: [index(of: "l0", in: tree, source), index(of: "l1", in: tree, source)]),
        Renumbering.Group(
          parent: 0, children: [index(of: "n0", in: tree, source), index(of: "n1", in: tree, source)]),
      ])
    #expect(!Renumbering.isValid(groups[0], in: tree))
    #expect(!Renumbering.isValid(groups[1], in: tree))
  }

  @Test func editsTouchOnlyWhatDiffersAndInsertMissingOrders() {
    let (source, tree) = Self.parsed()
    let l0 = index(of: "l0", in: tree, source)
    let l1 = index(of: "l1", in: tree, source)
    let n1 = index(of: "n1", in: tree, source)
    let edits = Renumbering.edits(
      assigning: [(l0, 3), (l1, 4), (n1, 1)], in: tree, source: source, model: Self.model)
    // l0 already says 3: no edit; l1 changes; n1 gets the attribute after its name.
    #expect(edits.count == 2)
    #expect(edits[0] == TextEdit(range: tree.items[l1].orderRange!, newText: "4"))
    #expect(edits[1] == TextEdit(range: TextRange(at: tree.items[n1].nameRange.end), newText: " order=\"1\""))
  }

  @Test func fixAllRenumbersTheNumberedGroupsAndLeavesTheRest() {
    let (source, tree) = Self.parsed()
    let validator = OutlineValidator.validate(source, modelProvider: fixedModel(Self.model))
    let edits = Renumbering.fixAll(
      tree: tree, source: source, model: Self.model, reported: validator.diagnostics)
    let text = String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
    #expect(
      text == """
        <outline entity="Board">
          <List title="l0" order="0"/>
          <Note title="n0" order="0"/>
          <List title="l1" order="1"/>
          <Pin title="p0" order="7"/>
          <Tag title="t0" order="9"/>
          <Pin title="p1" order="7"/>
          <Note order="1" title="n1"/>
        </outline>

        """)
    let after = OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(Self.model))
    #expect(!after.diagnostics.contains { Renumbering.fixableCodes.contains($0.code) })
  }
}
