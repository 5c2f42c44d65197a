import OutlineCore
import OutlineMigration
import OutlineModel
import Testing

/// Renaming a property in a model file: name, renaming identifier, references.
@Suite struct ModelRenameTests {
  static let text = """
    <?xml version="1.0"?>
    <model>
    <entity name="Base" isAbstract="YES"><attribute name="code" optional="YES" attributeType="String"/>\
    <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>
    <entity name="Item" parentEntity="Base"><attribute name="note" optional="YES" attributeType="String" renamingIdentifier="memo"/>\
    <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="items" inverseEntity="Person"/></entity>
    <entity name="Person"><relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/></entity>
    </model>
    """

  static func renamed(_ entity: String, _ property: String, _ name: String) throws -> String {
    let model = ModelLoader.load(SourceText(text))
    let edits = try ModelRename.edits(in: model, entity: entity, property: property, to: name)
    return String(decoding: TextEdit.apply(edits, to: model.source.bytes)!, as: UTF8.self)
  }

  @Test func theNameTheIdentifierAndTheReferencesChange() throws {
    let code = try Self.renamed("Base", "code", "sku")
    #expect(code.contains("<attribute name=\"sku\" renamingIdentifier=\"code\" optional=\"YES\""))
    #expect(code.contains("<constraint value=\"sku\"/>"))
    let note = try Self.renamed("Item", "note", "text")
    #expect(
      note.contains(
        "<attribute name=\"text\" optional=\"YES\" attributeType=\"String\" renamingIdentifier=\"memo\"/>"))
    let owner = try Self.renamed("Item", "owner", "holder")
    #expect(owner.contains("relationship name=\"holder\" renamingIdentifier=\"owner\""))
    #expect(owner.contains("inverseName=\"holder\" inverseEntity=\"Item\""))
    #expect(ModelLoader.load(SourceText(owner)).diagnostics.filter { $0.severity == .error }.isEmpty)
  }

  @Test func inheritedTakenAndUnknownNamesAreRefused() {
    #expect(throws: ModelRename.Refusal.self) { try Self.renamed("Item", "code", "sku") }
    #expect(throws: ModelRename.Refusal.self) { try Self.renamed("Base", "code", "note") }
    #expect(throws: ModelRename.Refusal.self) { try Self.renamed("Item", "missing", "x") }
    #expect(throws: ModelRename.Refusal.self) { try Self.renamed("Item", "note", "two words") }
  }

  static let annotated = """
    <?xml version="1.0"?>
    <model>
        <entity name="Node">
            <attribute name="position" attributeType="Integer 32" defaultValueString="0"/>
            <attribute name="label" optional="YES" attributeType="String"/>
            <fetchIndex name="byLabel">
                <fetchIndexElement property="label" type="Binary" order="ascending"/>
            </fetchIndex>
            <compoundIndexes>
                <compoundIndex>
                    <index value="label"/>
                    <index value="position"/>
                </compoundIndex>
            </compoundIndexes>
            <userInfo>
                <entry key="outline.order" value="position"/>
                <entry key="outline.title" value="label"/>
            </userInfo>
        </entity>
        <entity name="Leaf" parentEntity="Node">
            <uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints>
            <fetchIndex name="leafLabel"><fetchIndexElement property="label" type="Binary" order="ascending"/></fetchIndex>
        </entity>
        <entity name="Item">
            <attribute name="order" attributeType="Integer 32" defaultValueString="0"/>
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Sub" parentEntity="Item">
            <attribute name="extra" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  static func renamed(in text: String, _ entity: String, _ property: String, _ name: String) throws -> Model {
    let model = ModelLoader.load(SourceText(text))
    let edits = try ModelRename.edits(in: model, entity: entity, property: property, to: name)
    return ModelLoader.load(SourceText(bytes: TextEdit.apply(edits, to: model.source.bytes)!))
  }

  @Test func annotationsIndexesAndInheritedConstraintsFollowTheName() throws {
    let model = try Self.renamed(in: Self.annotated, "Node", "label", "caption")
    #expect(model.diagnostics.isEmpty, "\(model.diagnostics)")
    let text = model.source.string
    #expect(text.contains(#"<entry key="outline.title" value="caption"/>"#))
    #expect(text.contains(#"<fetchIndexElement property="caption""#))
    #expect(text.contains(#"<index value="caption"/>"#))
    #expect(text.contains(#"<constraint value="caption"/>"#))
    // The old name is left only as the renaming identifier.
    #expect(text.components(separatedBy: #""label""#).count == 2)
    #expect(text.contains(#"renamingIdentifier="label""#))
    let node = try #require(model.entity(named: "Node"))
    #expect(model.entities[node].titleAttribute.map { model.entities[node].attributes[$0].name } == "caption")
    let order = try Self.renamed(in: Self.annotated, "Node", "position", "rank")
    #expect(order.diagnostics.isEmpty, "\(order.diagnostics)")
    #expect(order.entities[node].orderAttribute.map { order.entities[node].attributes[$0].name } == "rank")
  }

  @Test func anOrderOrTitleKnownByItsNameKeepsItsRoleThroughAnAnnotation() throws {
    let model = try Self.renamed(in: Self.annotated, "Item", "order", "position")
    #expect(model.diagnostics.isEmpty, "\(model.diagnostics)")
    for name in ["Item", "Sub"] {
      let entity = model.entities[try #require(model.entity(named: name))]
      #expect(entity.orderAttribute.map { entity.attributes[$0].name } == "position", "\(name)")
      #expect(entity.titleAttribute.map { entity.attributes[$0].name } == "title", "\(name)")
    }
    // Indented as the file is: a new userInfo before the entity's end tag.
    #expect(
      model.source.string.contains(
        """
                <attribute name="title" optional="YES" attributeType="String"/>
                <userInfo>
                    <entry key="outline.order" value="position"/>
                </userInfo>
            </entity>
        """))
    let title = try Self.renamed(in: Self.annotated, "Item", "title", "heading")
    let item = title.entities[try #require(title.entity(named: "Item"))]
    #expect(item.titleAttribute.map { item.attributes[$0].name } == "heading")
  }

  /// `<entity .../>`, as Xcode writes an entity with no properties of its own (a sub-entity
  /// that only inherits), is opened up to take the annotation, indented as the file is.
  @Test func aSelfClosingEntityThatNeedsAnAnnotationIsOpenedUp() throws {
    for closing in ["/>", " />"] {
      let text = Self.annotated.replacingOccurrences(
        of: """
          <entity name="Sub" parentEntity="Item">
                  <attribute name="extra" optional="YES" attributeType="String"/>
              </entity>
          """, with: #"<entity name="Sub" parentEntity="Item""# + closing)
      #expect(text.contains(#"<entity name="Sub" parentEntity="Item""# + closing))
      let model = try Self.renamed(in: text, "Item", "order", "position")
      #expect(model.diagnostics.isEmpty, "\(model.diagnostics)")
      let sub = model.entities[try #require(model.entity(named: "Sub"))]
      #expect(sub.orderAttribute.map { sub.attributes[$0].name } == "position")
      #expect(
        model.source.string.contains(
          """
              <entity name="Sub" parentEntity="Item">
                  <userInfo>
                      <entry key="outline.order" value="position"/>
                  </userInfo>
              </entity>
          """), "\(model.source.string)")
    }
  }

  @Test func anIndexNamingNothingIsAModelError() {
    let text = Self.annotated.replacingOccurrences(
      of: #"<index value="position"/>"#, with: #"<index value="gone"/>"#)
    let model = ModelLoader.load(SourceText(text))
    let errors = model.diagnostics.filter { $0.code == .badIndex }
    #expect(errors.count == 1)
    #expect(
      errors.first?.message
        == "A compound index of 'Node' names 'gone', which is not an attribute or relationship of it")
  }
}
