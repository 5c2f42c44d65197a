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
}
