import OutlineCore
import OutlineModel
import Testing

/// `ModelGraph`: what a diagram of a model shows, before any format.
@Suite struct ModelGraphTests {
  static let model = ModelLoader.load(
    SourceText(
      """
      <?xml version="1.0"?>
      <model>
        <entity name="Node" isAbstract="YES">
          <attribute name="title" optional="YES" attributeType="String"/>
          <attribute name="cache" optional="YES" transient="YES" attributeType="Binary"/>
          <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="children" inverseEntity="Folder"/>
        </entity>
        <entity name="Folder" parentEntity="Node">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
          <relationship name="children" toMany="YES" ordered="YES" minCount="1" maxCount="20" deletionRule="Cascade" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
          <relationship name="owner" maxCount="1" deletionRule="Deny" destinationEntity="Person" inverseName="folders" inverseEntity="Person"/>
        </entity>
        <entity name="Leaf" parentEntity="Node">
          <attribute name="url" attributeType="URI"/>
          <relationship name="seeAlso" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Leaf"/>
        </entity>
        <entity name="Person">
          <relationship name="folders" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Folder" inverseName="owner" inverseEntity="Folder"/>
        </entity>
      </model>
      """))

  @Test func entitiesShowTheirOwnAttributesAndTheirParent() {
    let graph = ModelGraph(Self.model)
    #expect(graph.nodes.map(\.name) == ["Node", "Folder", "Leaf", "Person"])
    #expect(graph.nodes[0].isAbstract && graph.nodes[0].parent == nil)
    #expect(graph.nodes[0].fields.map(\.name) == ["title", "cache"])
    #expect(graph.nodes[0].fields[1].isTransient && graph.nodes[0].fields[1].isOptional)
    // Inherited attributes are drawn on the parent only.
    #expect(
      graph.nodes[1].fields.map { "\($0.name): \($0.typeName)\($0.isOptional ? "?" : "")" } == [
        "order: Integer 64"
      ])
    #expect(graph.nodes[1].parent == "Node" && graph.nodes[2].parent == "Node")
  }

  @Test func inversePairsAreOneAssociationWithBothEnds() {
    let graph = ModelGraph(Self.model)
    let drawn = graph.associations.map { association in
      "\(association.source.entity).\(association.source.name) \(association.source.multiplicity) -> \(association.destination)"
        + (association.inverse.map { " / \($0.entity).\($0.name) \($0.multiplicity)" } ?? "")
    }
    #expect(
      drawn == [
        "Node.parent 0..1 -> Folder / Folder.children 1..20",
        "Folder.owner 1 -> Person / Person.folders 0..*",
        "Leaf.seeAlso 0..* -> Leaf",
      ])
    let children = graph.associations[0].inverse!
    #expect(children.isOrdered && children.deletionRule == .cascade && children.isToMany)
    #expect(graph.associations[1].source.deletionRule == .deny)
    #expect(graph.associations[2].source.deletionRule == .noAction && graph.associations[2].inverse == nil)
  }

  @Test func defaultModelIsOneSelfPair() {
    let graph = ModelGraph(ModelLoader.defaultModel)
    #expect(graph.nodes.count == 1 && graph.associations.count == 1)
    #expect(
      graph.associations[0].source.name == "children" && graph.associations[0].inverse?.name == "parent")
  }
}
