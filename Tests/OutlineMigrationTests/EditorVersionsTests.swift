import Foundation
import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineWorkspace
import Testing

/// What the language server asks of OutlineMigration: the version, the pending migration, its edits.
@Suite struct EditorVersionsTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures/versions")

  @Test func hoverDiagnosticAndActionTexts() throws {
    let history = try ModelLocator.history(
      path: Self.fixtures.appendingPathComponent("Tasks.xcdatamodeld").path)
    let text = try String(contentsOf: Self.fixtures.appendingPathComponent("v1.outline"), encoding: .utf8)
    let status = try #require(DocumentVersionStatus.of(SourceText(text), history: history))
    #expect(
      status.hoverText
        == "Model version 'Tasks' (recorded in modelVersion); the current version is 'Tasks 4' (run `outline migrate`)"
    )
    #expect(
      status.pendingMessage == "This document is for model version 'Tasks'; the current version is 'Tasks 4'")
    #expect(status.actionTitle == "Migrate to Tasks 4")
    let diagnostic = try #require(status.pendingDiagnostic)
    #expect(diagnostic.code == .migrationPending && diagnostic.severity == .information)
    #expect(diagnostic.range == status.range)
    // Tasks -> Tasks 2 loses nothing: the code action's edits are the migration's.
    let (edits, outcome) = status.migration(of: SourceText(text), to: 1)
    #expect(outcome.refusal(allowDataLoss: false) == nil)
    let migrated = String(decoding: TextEdit.apply(edits, to: Array(text.utf8))!, as: UTF8.self)
    #expect(migrated.contains("modelVersion=\"Tasks 2\"") && migrated.contains("<Label xml:id=\"t1\""))
    let current = try #require(DocumentVersionStatus.of(SourceText(migrated), history: history))
    #expect(current.versionName == "Tasks 2" && current.pendingMessage != nil)
  }

  @Test func aRenameInTheDocumentMatchesTheModel() throws {
    let model = ModelLoader.load(
      SourceText(
        """
        <model><entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\
        <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>\
        <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/></entity></model>
        """))
    let document = SourceText(
      "<outline title=\"r\">\n  <Item title=\"a\"><Item title=\"b\"/></Item>\n</outline>\n")
    let edits = try ModelRename.documentEdits(
      document, model: model, entity: "Item", property: "title", to: "name")
    #expect(edits.count == 3)
    let renamed = String(decoding: TextEdit.apply(edits, to: document.bytes)!, as: UTF8.self)
    #expect(renamed == "<outline name=\"r\">\n  <Item name=\"a\"><Item name=\"b\"/></Item>\n</outline>\n")
  }
}
