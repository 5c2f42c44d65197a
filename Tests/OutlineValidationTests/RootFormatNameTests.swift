import OutlineCore
import OutlineModel
import Testing

@testable import OutlineValidation

/// A root entity whose properties are named like the root element's format attributes
/// (`version`, `model`, `modelVersion`, `entity`): the required `model` and `version`, an
/// optional Date `modelVersion` and a to-one `entity`. `Plain` is a root entity without them
/// (its `Item` a free object).
let rootNamesModel = ModelLoader.load(
  SourceText(
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Doc">
            <attribute name="model" attributeType="String"/>
            <attribute name="version" attributeType="Integer 32"/>
            <attribute name="modelVersion" optional="YES" attributeType="Date"/>
            <relationship name="entity" optional="YES" maxCount="1" destinationEntity="Tag" inverseName="doc"/>
            <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="doc"/>
        </entity>
        <entity name="Item">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
            <relationship name="doc" optional="YES" maxCount="1" destinationEntity="Doc" inverseName="items"/>
        </entity>
        <entity name="Tag">
            <relationship name="doc" optional="YES" maxCount="1" destinationEntity="Doc" inverseName="entity"/>
        </entity>
        <entity name="Plain"/>
    </model>
    """))

@Suite struct RootFormatNameTests {
  /// The format's `model="..."` and `version="1"` are not the values of the root entity's
  /// required `model` and `version`: both are missing, at the root's name, saying why.
  @Test func formatAttributesAreNotTheRootEntitysProperties() {
    let marked = Marked(
      "<1️⃣outline version=\"1\" model=\"Doc.xcdatamodel\" modelVersion=\"Doc 2\" entity=\"Doc\"/>")
    let diagnostics = validate(marked.text, model: rootNamesModel)
    #expect(diagnostics.map(\.code) == [.requiredAttributeMissing, .requiredAttributeMissing])
    #expect(diagnostics.allSatisfy { $0.range.start == marked.offsets[0] })
    #expect(
      diagnostics.map(\.message) == [
        "'Doc' needs 'model' (String, not optional, no default), which the root element cannot hold: its 'model' is the path of the model (OM217; rename the property in the model)",
        "'Doc' needs 'version' (Integer 32, not optional, no default), which the root element cannot hold: its 'version' is the format's version (OM217; rename the property in the model)",
      ])
  }

  /// `modelVersion="Doc 2"` is not an OL300 of the Date attribute, `entity="Doc"` no reference
  /// to an unknown id; nested objects write such names as properties like any other.
  @Test func formatAttributesAreNeverCheckedAsValuesOrReferences() {
    let diagnostics = validate(
      "<outline modelVersion=\"Doc 2\" entity=\"Plain\"><Item order=\"0\"/></outline>",
      model: rootNamesModel)
    #expect(diagnostics.isEmpty, "\(diagnostics.map { "\($0.code) \($0.message)" })")
  }

  @Test func modelCheckWarnsOfEachClash() {
    let clashes = rootNamesModel.diagnostics.filter { $0.code == .rootNameClash }
    #expect(clashes.map(\.severity) == [.warning, .warning, .warning, .warning])
    #expect(
      clashes.map(\.message) == [
        "'Doc.model' cannot be written on the root element, where 'model' is the path of the model, and it is required, so no outline whose root is 'Doc' can lint clean; rename it",
        "'Doc.version' cannot be written on the root element, where 'version' is the format's version, and it is required, so no outline whose root is 'Doc' can lint clean; rename it",
        "'Doc.modelVersion' cannot be written on the root element, where 'modelVersion' is the model version the document is for, so the root object never has it; rename it",
        "'Doc.entity' cannot be written on the root element, where 'entity' is the root object's entity, so only its inverse 'Tag.doc' can set it; rename it",
      ])
  }
}
