import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

@testable import OutlineConvert

/// `outline new`'s template: what it writes validates, for models that ask for a lot.
@Suite struct OutlineTemplateTests {
  static func model(_ entities: String) -> Model {
    ModelLoader.load(SourceText("<?xml version=\"1.0\"?>\n<model>\n\(entities)\n</model>\n"))
  }

  static func errors(_ text: String, _ model: Model) -> [String] {
    OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(model)).diagnostics
      .filter { $0.severity == .error }.map { "\($0.code) \($0.message)" }
  }

  @Test func defaultModelIsOneUntitledItem() {
    let text = OutlineTemplate.document(for: ModelLoader.defaultModel, modelPath: nil)
    #expect(
      text == """
        <?xml version="1.0" encoding="UTF-8"?>
        <outline version="1">
          <Item order="0" title="Untitled"/>
        </outline>

        """)
    #expect(Self.errors(text, ModelLoader.defaultModel).isEmpty)
  }

  /// An object with two required parents is nested in one and names the
  /// other by id; the members of a uniqueness constraint differ.
  @Test func secondParentsAreNamedAndConstrainedValuesDiffer() {
    let model = Self.model(
      """
      <entity name="Store">
        <attribute name="code" attributeType="Integer 32" defaultValueString="0"/>
        <relationship name="events" toMany="YES" destinationEntity="Event" inverseName="store" inverseEntity="Event"/>
        <relationship name="changes" toMany="YES" destinationEntity="Change" inverseName="store" inverseEntity="Change"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>
      </entity>
      <entity name="Event">
        <attribute name="code" attributeType="Integer 32" defaultValueString="0"/>
        <relationship name="store" maxCount="1" destinationEntity="Store" inverseName="events" inverseEntity="Store"/>
        <relationship name="changes" optional="NO" toMany="YES" destinationEntity="Change" inverseName="event" inverseEntity="Change"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>
      </entity>
      <entity name="Change">
        <relationship name="store" maxCount="1" destinationEntity="Store" inverseName="changes" inverseEntity="Store"/>
        <relationship name="event" maxCount="1" destinationEntity="Event" inverseName="changes" inverseEntity="Event"/>
      </entity>
      """)
    let text = OutlineTemplate.document(for: model, modelPath: nil)
    #expect(Self.errors(text, model).isEmpty, "\(text)")
  }

  @Test func everyRequiredTypeGetsAnAcceptedValue() {
    let model = Self.model(
      """
      <entity name="Doc">
        <attribute name="name" attributeType="String" minValueString="3" maxValueString="40" regularExpressionString="[a-z]+@[a-z]+\\.com"/>
        <attribute name="code" attributeType="String" regularExpressionString="[-_A-Za-z0-9]{1,64}"/>
        <attribute name="small" attributeType="Integer 16" minValueString="5" maxValueString="9"/>
        <attribute name="big" attributeType="Integer 64"/>
        <attribute name="negative" attributeType="Integer 32" maxValueString="-3"/>
        <attribute name="ratio" attributeType="Double" minValueString="0.5"/>
        <attribute name="amount" attributeType="Decimal"/>
        <attribute name="weight" attributeType="Float" defaultValueString="2.5"/>
        <attribute name="flag" attributeType="Boolean"/>
        <attribute name="when" attributeType="Date"/>
        <attribute name="uuid" attributeType="UUID"/>
        <attribute name="link" attributeType="URI"/>
        <attribute name="blob" attributeType="Binary"/>
        <attribute name="thing" attributeType="Transformable"/>
        <attribute name="scratch" attributeType="String" transient="YES"/>
        <attribute name="note" optional="YES" attributeType="String"/>
        <relationship name="parts" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Part" inverseName="doc" inverseEntity="Part"/>
      </entity>
      <entity name="Part">
        <attribute name="order" attributeType="Integer 32"/>
        <attribute name="title" optional="YES" attributeType="String" maxValueString="4"/>
        <relationship name="doc" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Doc" inverseName="parts" inverseEntity="Doc"/>
      </entity>
      """)
    #expect(!model.hasErrors, "\(model.diagnostics)")
    let made = OutlineTemplate.make(for: model, modelPath: "m.xcdatamodel")
    #expect(made.problems.isEmpty)
    #expect(Self.errors(made.text, model).isEmpty, "\(made.text)")
    #expect(made.text.contains(#"model="m.xcdatamodel""#))
    #expect(made.text.contains(#"name="a@example.com" code="Untitled""#))
    #expect(made.text.contains(#"small="5""#) && made.text.contains(#"negative="-3""#))
    #expect(made.text.contains(#"weight="2.5""#) && made.text.contains(#"flag="false""#))
    #expect(!made.text.contains("scratch=") && !made.text.contains("note="))
    // The one item is a Part, numbered 0, with a title short enough.
    #expect(made.text.contains(#"<Part order="0" title="a"/>"#), "\(made.text)")
  }

  @Test func requiredRelationshipsInversesAndCountsAreMet() {
    let model = Self.model(
      """
      <entity name="Board">
        <relationship name="cards" toMany="YES" minCount="2" deletionRule="Cascade" destinationEntity="Card" inverseName="board" inverseEntity="Card"/>
      </entity>
      <entity name="Card" isAbstract="YES">
        <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
        <relationship name="board" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Board" inverseName="cards" inverseEntity="Board"/>
        <relationship name="owners" toMany="YES" minCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cards" inverseEntity="Person"/>
      </entity>
      <entity name="Task" parentEntity="Card">
        <relationship name="subtasks" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="parentTask" inverseEntity="Task"/>
        <relationship name="parentTask" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="subtasks" inverseEntity="Task"/>
      </entity>
      <entity name="Note" parentEntity="Card"/>
      <entity name="Person">
        <attribute name="name" attributeType="String"/>
        <relationship name="cards" toMany="YES" deletionRule="Nullify" destinationEntity="Card" inverseName="owners" inverseEntity="Card"/>
        <relationship name="manager" maxCount="1" deletionRule="Deny" destinationEntity="Person"/>
      </entity>
      """)
    #expect(!model.hasErrors, "\(model.diagnostics)")
    let made = OutlineTemplate.make(for: model, modelPath: nil)
    #expect(made.problems.isEmpty, "\(made.problems)")
    #expect(Self.errors(made.text, model).isEmpty, "\(made.text)")
    // Two cards of the leaf kind (Note needs no children; Task would need subtasks).
    #expect(made.text.components(separatedBy: "<Note ").count == 3, "\(made.text)")
    // Cards and people name each other (a to-many pair, both required); each
    // person's required manager is another person, not itself.
    #expect(made.text.contains(#"<Person xml:id="person-"#), "\(made.text)")
    #expect(made.text.components(separatedBy: "<Person ").count == 3, "\(made.text)")
  }

  @Test func requirementsNoOutlineCanHoldAreNamed() {
    // Every Node needs children, and a Node could go in either relationship.
    let model = Self.model(
      """
      <entity name="Node">
        <relationship name="left" toMany="YES" deletionRule="Cascade" destinationEntity="Node" inverseName="up" inverseEntity="Node"/>
        <relationship name="right" toMany="YES" deletionRule="Cascade" destinationEntity="Node" inverseName="back" inverseEntity="Node"/>
        <relationship name="up" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node" inverseName="left" inverseEntity="Node"/>
        <relationship name="back" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node" inverseName="right" inverseEntity="Node"/>
      </entity>
      """)
    let made = OutlineTemplate.make(for: model, modelPath: nil)
    #expect(made.problems.contains { $0.contains("'Node' needs children in 'left'") }, "\(made.problems)")
  }

  @Test func modelWithoutContainmentGetsOneFreeObject() {
    let model = Self.model(
      """
      <entity name="Tag"><attribute name="label" attributeType="String"/></entity>
      """)
    let made = OutlineTemplate.make(for: model, modelPath: nil)
    #expect(made.text.contains(#"<Tag label="""#))
    #expect(Self.errors(made.text, model).isEmpty)
    let empty = OutlineTemplate.make(for: Self.model(""), modelPath: nil)
    #expect(empty.text.hasSuffix("<outline version=\"1\"/>\n") && empty.problems.isEmpty)
  }
}
