import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineXML
import Testing

/// Objects under uniqueness constraints take the validator's lane when every member of their
/// constraints is an attribute, and report the same duplicates (OL505) as the general way.
@Suite struct ItemLaneUniquenessTests {
  /// `Item` under two constraints (its title; its title and code, a compound of two strings),
  /// and `Note` under one whose member is a relationship (the general way's).
  static func model(relationshipMember: Bool) -> Model {
    let noteConstraint =
      relationshipMember
      ? "<uniquenessConstraints><uniquenessConstraint><constraint value=\"owner\"/><constraint value=\"title\"/></uniquenessConstraint></uniquenessConstraints>"
      : ""
    let text = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Item" representedClassName="Item" syncable="YES">
              <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
              <attribute name="title" optional="YES" attributeType="String"/>
              <attribute name="code" optional="YES" attributeType="String"/>
              <attribute name="count" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
              <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
              <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
              <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="owner" inverseEntity="Note"/>
              <uniquenessConstraints>
                  <uniquenessConstraint><constraint value="title"/></uniquenessConstraint>
                  <uniquenessConstraint><constraint value="title"/><constraint value="code"/></uniquenessConstraint>
                  <uniquenessConstraint><constraint value="count"/></uniquenessConstraint>
              </uniquenessConstraints>
          </entity>
          <entity name="Note" representedClassName="Note" syncable="YES">
              <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
              <attribute name="title" optional="YES" attributeType="String"/>
              <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="notes" inverseEntity="Item"/>
              \(noteConstraint)
          </entity>
      </model>
      """
    return ModelLoader.load(SourceText(text), path: "/models/Unique.xcdatamodel/contents")
  }

  @Test func itemsUnderAttributeConstraintsTakeTheLaneAndReportTheSame() {
    let model = Self.model(relationshipMember: false)
    var taken = 0
    var duplicates = 0
    for seed in 0..<120 {
      var random = SeededGenerator(seed: UInt64(seed * 13 + 5))
      let text = ItemLaneTests.document(&random, element: "Item", always: [])
      let fast = ItemLaneTests.run(text, model: model, lane: true, tree: seed % 3 == 0)
      let general = ItemLaneTests.run(text, model: model, lane: false, tree: seed % 3 == 0)
      #expect(fast.diagnostics == general.diagnostics, "seed \(seed):\n\(text)")
      #expect(fast.silencedErrors == general.silencedErrors, "seed \(seed)")
      taken += fast.laneTags
      duplicates += fast.diagnostics.filter { $0.code == .uniquenessViolation }.count
    }
    #expect(taken > 1000, "the lane took \(taken) tags")
    // Titles repeat in the generated documents: the comparison covers the duplicates too.
    #expect(duplicates > 100, "\(duplicates) duplicates")
  }

  @Test func aRelationshipMemberKeepsItsEntityOnTheGeneralWay() {
    let model = Self.model(relationshipMember: true)
    let text = """
      <outline version="1"><Item order="0" title="a"><Note order="0" title="n"/><Note order="1" title="n"/></Item>\
      <Item order="1" title="a" code="c"/><Item order="2" title="b"/></outline>
      """
    let fast = ItemLaneTests.run(text, model: model, lane: true)
    let general = ItemLaneTests.run(text, model: model, lane: false)
    #expect(fast.diagnostics == general.diagnostics)
    // The second Item's title repeats the first's; the Notes share an owner and a title.
    #expect(fast.diagnostics.filter { $0.code == .uniquenessViolation }.count == 2, "\(fast.diagnostics)")
  }
}
