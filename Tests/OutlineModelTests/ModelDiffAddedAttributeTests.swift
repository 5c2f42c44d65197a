import OutlineCore
import OutlineModel
import Testing

/// What `model diff` says of an attribute new to the objects already stored, and of one made
/// stored or required: a derived attribute is computed, a transient one never stored, a default
/// fills the objects there are; only a required stored attribute without a default needs a value.
@Suite struct ModelDiffAddedAttributeTests {
  static func change(_ old: String, _ new: String) -> [ModelChange] {
    func model(_ attributes: String) -> Model {
      ModelLoader.load(
        SourceText("<?xml version=\"1.0\"?>\n<model><entity name=\"Item\">\(attributes)</entity></model>\n"))
    }
    return ModelDiff.changes(along: [model(old), model(new)])
  }

  struct Added: Sendable, CustomTestStringConvertible {
    var attribute: String
    var detail: String
    var inferable: Bool
    var data: ModelChange.DataEffect
    var testDescription: String { detail }
  }

  static let added: [Added] = [
    Added(
      attribute:
        #"<attribute name="now" attributeType="Double" derived="YES" derivationExpression="now()"/>"#,
      detail: "attribute 'Item.now' added (derived: Core Data computes it as 'now()')", inferable: true,
      data: ModelChange.DataEffect.none),
    Added(
      attribute: #"<attribute name="count" optional="YES" attributeType="Integer 64" derived="YES"/>"#,
      detail: "attribute 'Item.count' added (derived: Core Data computes it)", inferable: true,
      data: ModelChange.DataEffect.none),
    Added(
      attribute: #"<attribute name="cache" transient="YES" attributeType="String"/>"#,
      detail: "attribute 'Item.cache' added (transient: never stored)", inferable: true,
      data: ModelChange.DataEffect.none),
    Added(
      attribute: #"<attribute name="note" optional="YES" attributeType="String"/>"#,
      detail: "attribute 'Item.note' added (optional)", inferable: true, data: ModelChange.DataEffect.none),
    Added(
      attribute: #"<attribute name="optionalFloat" attributeType="Float" defaultValueString="0.0"/>"#,
      detail: "attribute 'Item.optionalFloat' added (required, default '0.0': the objects there are take it)",
      inferable: true, data: ModelChange.DataEffect.none),
    Added(
      attribute: #"<attribute name="owner" attributeType="String"/>"#,
      detail: "attribute 'Item.owner' added (required, no default)", inferable: false, data: .needsDefault),
  ]

  @Test(arguments: added)
  func anAddedAttributeSaysWhatTheStoredObjectsGet(_ added: Added) throws {
    let changes = Self.change("", added.attribute)
    let change = try #require(changes.first { $0.kind == .attributeAdded })
    #expect(change.detail == added.detail)
    #expect(change.inferable == added.inferable)
    #expect(change.data == added.data)
  }

  @Test func anAttributeMadeStoredTakesWhatANewOneWould() throws {
    let withDefault = try #require(
      Self.change(
        #"<attribute name="size" transient="YES" attributeType="Integer 16"/>"#,
        #"<attribute name="size" attributeType="Integer 16" defaultValueString="3"/>"#
      ).first { $0.kind == .transientChanged })
    #expect(
      withDefault.detail
        == "attribute 'Item.size' made stored (required, default '3': the objects there are take it)")
    #expect(withDefault.inferable && withDefault.data == ModelChange.DataEffect.none)
    let without = try #require(
      Self.change(
        #"<attribute name="size" transient="YES" attributeType="Integer 16"/>"#,
        #"<attribute name="size" attributeType="Integer 16"/>"#
      ).first { $0.kind == .transientChanged })
    #expect(without.detail == "attribute 'Item.size' made stored (required, no default)")
    #expect(!without.inferable && without.data == .needsDefault)
    let transient = try #require(
      Self.change(
        #"<attribute name="size" optional="YES" attributeType="Integer 16"/>"#,
        #"<attribute name="size" optional="YES" transient="YES" attributeType="Integer 16"/>"#
      ).first { $0.kind == .transientChanged })
    #expect(transient.detail == "attribute 'Item.size' made transient" && transient.data == .dropped)
  }

  @Test func aDerivedAttributeMadeRequiredNeedsNoValue() throws {
    let change = try #require(
      Self.change(
        #"<attribute name="now" optional="YES" attributeType="Date" derived="YES" derivationExpression="now()"/>"#,
        #"<attribute name="now" attributeType="Date" derived="YES" derivationExpression="now()"/>"#
      ).first { $0.kind == .madeRequired })
    #expect(change.detail == "attribute 'Item.now' made required (derived: Core Data computes it)")
    #expect(change.inferable && change.data == .kept)
  }
}
