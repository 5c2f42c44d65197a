import OutlineCore
import OutlineModel
import Testing

/// Every kind of change `model diff` knows, each from a pair of small models.
@Suite struct ModelDiffTests {
  static func model(_ entities: String) -> Model {
    ModelLoader.load(SourceText("<?xml version=\"1.0\"?>\n<model>\n\(entities)\n</model>\n"))
  }

  static let containment = """
    <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>\
    <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
    """

  static let before = """
    <entity name="Base" isAbstract="YES"><attribute name="stamp" optional="YES" attributeType="Date"/></entity>
    <entity name="Item" parentEntity="Base"><attribute name="title" optional="YES" attributeType="String"/>\
    <attribute name="note" optional="YES" attributeType="String"/>\
    <attribute name="size" attributeType="Integer 16" defaultValueString="0"/>\
    <attribute name="flag" optional="YES" attributeType="Boolean"/>\
    <attribute name="cache" optional="YES" attributeType="String"/>\
    <attribute name="gone" optional="YES" attributeType="String"/>\
    <attribute name="code" attributeType="String"/>\
    \(containment)\
    <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>\
    <relationship name="best" optional="YES" maxCount="1" destinationEntity="Tag"/>\
    <relationship name="steps" optional="YES" toMany="YES" destinationEntity="Tag"/>\
    <relationship name="old" optional="YES" maxCount="1" destinationEntity="Tag"/>\
    <relationship name="few" optional="YES" toMany="YES" maxCount="3" destinationEntity="Tag"/>\
    <relationship name="must" maxCount="1" destinationEntity="Tag"/>\
    <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>
    <entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/>\
    <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/></entity>
    <entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>
    <entity name="Gone"><attribute name="x" optional="YES" attributeType="String"/></entity>
    """

  static let after = """
    <entity name="Base"><attribute name="stamp" optional="YES" attributeType="Date"/></entity>
    <entity name="Item"><attribute name="name" optional="YES" attributeType="String" renamingIdentifier="title"/>\
    <attribute name="note" attributeType="String"/>\
    <attribute name="size" optional="YES" attributeType="Integer 64" defaultValueString="0"/>\
    <attribute name="flag" optional="YES" attributeType="Boolean" defaultValueString="NO"/>\
    <attribute name="cache" optional="YES" transient="YES" attributeType="String"/>\
    <attribute name="added" optional="YES" attributeType="String"/>\
    <attribute name="code" attributeType="String"/>\
    \(containment)\
    <relationship name="labels" optional="YES" toMany="YES" destinationEntity="Label" inverseName="items" inverseEntity="Label" renamingIdentifier="tags"/>\
    <relationship name="best" optional="YES" toMany="YES" destinationEntity="Label"/>\
    <relationship name="steps" optional="YES" toMany="YES" ordered="YES" destinationEntity="Label"/>\
    <relationship name="few" optional="YES" toMany="YES" maxCount="5" destinationEntity="Label"/>\
    <relationship name="must" maxCount="1" destinationEntity="Folder"/>\
    <relationship name="fresh" optional="YES" maxCount="1" destinationEntity="Folder"/></entity>
    <entity name="Label" renamingIdentifier="Tag"><attribute name="label" optional="YES" attributeType="String"/>\
    <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="labels" inverseEntity="Item"/></entity>
    <entity name="Folder" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
    <entity name="Fresh"><attribute name="x" optional="YES" attributeType="String"/></entity>
    """

  @Test func everyKindOfChangeIsFoundAndJudged() {
    let changes = ModelDiff.changes(along: [Self.model(Self.before), Self.model(Self.after)])
    func find(_ kind: ModelChange.Kind, _ entity: String, _ property: String? = nil) -> ModelChange? {
      changes.first { $0.kind == kind && $0.entity == entity && $0.property == property }
    }
    let seen = Set(changes.map(\.kind))
    #expect(
      seen == Set(ModelChange.Kind.allCases), "missing: \(Set(ModelChange.Kind.allCases).subtracting(seen))")
    #expect(find(.entityAdded, "Fresh")?.inferable == true)
    #expect(find(.entityRemoved, "Gone")?.data == .dropped)
    #expect(find(.entityRenamed, "Label")?.detail == "entity 'Tag' renamed to 'Label'")
    #expect(find(.parentChanged, "Item")?.inferable == true)
    #expect(find(.abstractChanged, "Folder")?.inferable == false)
    #expect(find(.abstractChanged, "Base")?.inferable == true)
    #expect(find(.attributeRenamed, "Item", "name")?.data == .kept)
    #expect(find(.attributeAdded, "Item", "added")?.inferable == true)
    #expect(find(.attributeRemoved, "Item", "gone")?.data == .dropped)
    #expect(find(.attributeRetyped, "Item", "size")?.inferable == false)
    #expect(find(.madeRequired, "Item", "note")?.inferable == false)
    #expect(find(.madeOptional, "Item", "size")?.inferable == true)
    #expect(find(.transientChanged, "Item", "cache")?.data == .dropped)
    #expect(find(.relationshipRenamed, "Item", "labels")?.inferable == true)
    #expect(find(.relationshipAdded, "Item", "fresh")?.inferable == true)
    #expect(find(.relationshipRemoved, "Item", "old")?.data == .dropped)
    #expect(find(.cardinalityChanged, "Item", "best")?.inferable == true)
    #expect(find(.orderingChanged, "Item", "steps")?.inferable == true)
    #expect(
      find(.countChanged, "Item", "few")?.detail == "relationship 'Item.few' count 0...3 changed to 0...5")
    #expect(find(.destinationChanged, "Item", "must")?.inferable == false)
    #expect(find(.constraintChanged, "Item")?.detail.contains("(code) of 'Item' removed") == true)
    #expect(!ModelDiff.isMigratable(changes))
    // Unchanged models differ in nothing.
    #expect(ModelDiff.changes(along: [Self.model(Self.before), Self.model(Self.before)]).isEmpty)
  }
}
