import Foundation
import OutlineCore
import Testing

@testable import OutlineModel

/// The model index answers from one load: names by bytes, kinds, required
/// properties, containment and the relationship nesting implies.
@Suite struct ModelIndexTests {
  static let model = ModelLoader.load(
    SourceText(
      modelText(
        """
        <entity name="Project">
          <attribute name="name" attributeType="String"/>
          <attribute name="code" attributeType="String" defaultValueString="P"/>
          <attribute name="budget" optional="YES" attributeType="Decimal" minValueString="0" maxValueString="10"/>
          <attribute name="total" attributeType="Integer 32" derived="YES" derivationExpression="tasks.@count"/>
          <attribute name="scratch" attributeType="String" transient="YES"/>
          <relationship name="tasks" optional="YES" toMany="YES" destinationEntity="Task" inverseName="project"/>
          <relationship name="members" toMany="YES" minCount="1" destinationEntity="Person" inverseName="projects"/>
        </entity>
        <entity name="Task" isAbstract="YES">
          <attribute name="order" attributeType="Integer 16"/>
          <attribute name="title" optional="YES" attributeType="String" regularExpressionString="[a-z]+"/>
          <attribute name="done" attributeType="Boolean" defaultValueString="NO"/>
          <attribute name="due" optional="YES" attributeType="Date"/>
          <attribute name="blob" optional="YES" attributeType="Transformable"/>
          <relationship name="project" optional="YES" maxCount="1" destinationEntity="Project" inverseName="tasks"/>
        </entity>
        <entity name="Chore" parentEntity="Task">
          <attribute name="effort" optional="YES" attributeType="Double"/>
        </entity>
        <entity name="Person">
          <relationship name="projects" optional="YES" toMany="YES" destinationEntity="Project" inverseName="members"/>
        </entity>
        """)))
  static var index: ModelIndex { model.index }

  func entity(_ name: String) -> Int { Self.model.entity(named: name)! }

  @Test func findsEntitiesAndPropertiesByTheirBytes() {
    var hint = -1
    let chore = Array("Chore".utf8).withByteView { Self.index.entity(named: $0, hint: &hint) }
    #expect(chore == entity("Chore"))
    #expect(hint == entity("Chore"))
    let missing = Array("Nothing".utf8).withByteView { Self.index.entity(named: $0, hint: &hint) }
    #expect(missing == nil)
    #expect(hint == entity("Chore"))
    let task = entity("Task")
    let title = Array("title".utf8).withByteView { Self.index.attribute($0, of: task) }
    #expect(title == Self.index.attribute(named: "title", of: task))
    let project = Array("project".utf8).withByteView { Self.index.relationship($0, of: task) }
    #expect(project == Self.index.relationship(named: "project", of: task))
    let key = Array("project".utf8).withByteView { Self.index.key($0, of: task) }
    #expect(key == Self.index.attributeCount[task] + project!)
    // Inherited properties come first, in the parent's order.
    #expect(Self.index.keys[entity("Chore")].first == Array("order".utf8))
  }

  @Test func kindsFollowTheAttributeTypes() {
    let facts = Self.index.attributes[entity("Task")]
    #expect(facts.map(\.valueKind) == [.integer, .string, .boolean, .text, .opaque])
    #expect(facts.map(\.needsCheck) == [true, true, true, true, false])
    #expect(facts[1].pattern?.firstMatch(in: "ab", range: NSRange(location: 0, length: 2)) != nil)
    #expect(facts[1].pattern?.firstMatch(in: "abC", range: NSRange(location: 0, length: 3)) == nil)
    let budget = Self.index.attributes[entity("Project")][2]
    #expect(budget.minimum == 0 && budget.maximum == 10)
    #expect(Self.index.relationshipKinds[entity("Project")] == [.containment, .toMany])
    #expect(Self.index.relationshipKinds[entity("Task")] == [.toOne])
    #expect(Self.index.relationshipKinds[entity("Person")] == [.toMany])
  }

  @Test func everyTypeHasOneKindAndIntegersHaveBounds() {
    for type in AttributeType.allCases {
      #expect((type.integerBounds != nil) == (type.valueKind == .integer), "\(type)")
      #expect(type.isInteger == (type.valueKind == .integer), "\(type)")
    }
    #expect(AttributeType.integer16.integerBounds == -32768...32767)
    #expect(ModelValues.integerBounds(.string) == Int64.min...Int64.max)
  }

  @Test func requiredIsOneRule() {
    let project = entity("Project")
    let attributes = Self.model.entities[project].attributes
    // `name` only: `code` has a default, `budget` is optional, `total` derived, `scratch` transient.
    #expect(attributes.filter(\.isRequired).map(\.name) == ["name"])
    #expect(Self.index.requiredAttributes[project] == [0])
    // The order attribute is required in the JSON form where it is stored and not optional.
    #expect(Self.index.requiredAttributes[entity("Chore")] == [0])
    #expect(Self.index.mayMissRequired[project])
    #expect(!Self.index.mayMissRequired[entity("Chore")])
    #expect(Self.model.entities[project].relationships.map(\.isRequired) == [false, true])
  }

  @Test func containmentAndImpliedRelationshipsPerPairOfEntities() {
    let project = entity("Project")
    let chore = entity("Chore")
    #expect(Self.index.containment(of: project, holding: chore) == .relationship(0))
    #expect(Self.index.containmentIndex(of: project, holding: chore) == 0)
    #expect(Self.index.containment(of: project, holding: entity("Person")) == .none)
    #expect(Self.index.containmentIndex(of: chore, holding: project) == -1)
    #expect(Self.model.containment(of: project, holding: chore) == .relationship(0))
    // Nesting a Chore in a Project sets its `project`.
    #expect(Self.index.impliedRelationship(parent: project, child: chore) == 0)
    #expect(Self.index.isKind(chore, of: entity("Task")))
    #expect(!Self.index.isKind(entity("Task"), of: chore))
  }

  @Test func tracksRelationshipsOthersCanSet() {
    // `members` needs one, and a Person's `projects` can set it from the other side.
    let project = entity("Project")
    #expect(Self.index.trackedSlot[project] == [-1, 0])
    #expect(Self.index.trackedCount[project] == 1)
    #expect(Self.index.trackedCount[entity("Person")] == 0)
  }
}
