import OutlineCore
import OutlineMigration
import OutlineModel
import Testing

/// Renaming an entity in a model file: its name, renaming identifier and every reference; and in a document.
@Suite struct EntityRenameTests {
  static let text = """
    <?xml version="1.0"?>
    <model>
    <entity name="Base" isAbstract="YES"><attribute name="code" optional="YES" attributeType="String"/></entity>
    <entity name="Item" parentEntity="Base"><attribute name="order" optional="YES" attributeType="Integer 64"/>\
    <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>\
    <fetchedProperty name="mine" optional="YES"><fetchRequest name="r" entity="Item" predicateString="owner != nil"/></fetchedProperty></entity>
    <entity name="Person"><relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/></entity>
    <configuration name="Main"><memberEntity name="Item"/></configuration>
    <elements><element name="Item" positionX="0" positionY="0" width="128" height="44"/></elements>
    </model>
    """

  @Test func theNameTheIdentifierAndEveryReferenceChange() throws {
    let model = ModelLoader.load(SourceText(Self.text))
    let edits = try ModelRename.entityEdits(in: model, entity: "Item", to: "Thing")
    let renamed = String(decoding: TextEdit.apply(edits, to: model.source.bytes)!, as: UTF8.self)
    #expect(renamed.contains("<entity name=\"Thing\" renamingIdentifier=\"Item\" parentEntity=\"Base\">"))
    #expect(renamed.contains("destinationEntity=\"Thing\" inverseName=\"owner\" inverseEntity=\"Thing\""))
    #expect(renamed.contains("<fetchRequest name=\"r\" entity=\"Thing\""))
    #expect(renamed.contains("<memberEntity name=\"Thing\"/>") && renamed.contains("<element name=\"Thing\""))
    #expect(!renamed.contains("\"Item\"/>") && renamed.components(separatedBy: "\"Item\"").count == 2)
    let base = try ModelRename.entityEdits(in: model, entity: "Base", to: "Root")
    #expect(
      String(decoding: TextEdit.apply(base, to: model.source.bytes)!, as: UTF8.self).contains(
        "parentEntity=\"Root\""))
    // A document follows: elements renamed, nothing else.
    let document = "<outline>\n  <Item order=\"0\"><Item order=\"0\"/></Item>\n  <Person/>\n</outline>\n"
    let documentEdits = try ModelRename.documentEdits(SourceText(document), model: model, applying: edits)
    #expect(
      String(decoding: TextEdit.apply(documentEdits, to: Array(document.utf8))!, as: UTF8.self)
        == document.replacingOccurrences(of: "Item", with: "Thing"))
  }

  @Test func refusals() {
    let model = ModelLoader.load(SourceText(Self.text))
    #expect(throws: ModelRename.Refusal.self) {
      try ModelRename.entityEdits(in: model, entity: "Nope", to: "X")
    }
    #expect(throws: ModelRename.Refusal.self) {
      try ModelRename.entityEdits(in: model, entity: "Item", to: "a b")
    }
    let clash = #expect(throws: ModelRename.Refusal.self) {
      try ModelRename.entityEdits(in: model, entity: "Item", to: "Person")
    }
    #expect(clash?.description == "the model already has an entity named 'Person'")
  }
}
