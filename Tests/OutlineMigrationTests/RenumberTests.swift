import OutlineCore
import OutlineMigration
import OutlineModel
import Testing

/// Order numbers after a migration drops objects or merges sibling groups.
@Suite struct RenumberTests {
  static let item = """
    <attribute name="title" optional="YES" attributeType="String"/>\
    <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>\
    \(MigrationTests.containment)
    """

  /// Item and its sub-entity Note in one sibling group; the second version removes Note.
  static let removedNote = MigrationTests.history(
    "<entity name=\"Item\">\(item)</entity><entity name=\"Note\" parentEntity=\"Item\"><attribute name=\"body\" optional=\"YES\" attributeType=\"String\"/></entity>",
    "<entity name=\"Item\">\(item)</entity>")

  static func migrate(_ document: String, _ history: ModelHistory) -> (String, MigrationOutcome) {
    let plan = MigrationPlan(
      history: history, from: 0, to: history.versions.count - 1,
      settings: MigrationSettings(allowDataLoss: true))
    return MigrationTests.stream(document, plan)
  }

  @Test func survivorsOfADroppedEntityAreRenumberedInTheirOrder() throws {
    let document = """
      <outline modelVersion="V1">
        <Item title="a" order="0"/>
        <Note body="x" order="1"/>
        <Item title="b" order="2"><Note body="y" order="0"/><Item title="b1" order="1"/></Item>
        <Item title="c" order="3"/>
      </outline>
      """
    let (output, outcome) = Self.migrate(document, Self.removedNote)
    #expect(outcome.refusal(allowDataLoss: true) == nil, "\(outcome.errors)")
    #expect(
      output == """
        <outline modelVersion="V2">
          <Item title="a" order="0"/>
          <Item title="b" order="1"><Item title="b1" order="0"/></Item>
          <Item title="c" order="2"/>
        </outline>
        """)
    #expect(
      outcome.renumbered.map { "\($0.parent): \($0.count)" } == ["Item 'b': 1", "the root: 2"])
    // The editor's edits agree with the stream, and a second run changes nothing.
    let status = try #require(DocumentVersionStatus.of(SourceText(document), history: Self.removedNote))
    let (edits, _) = status.migration(
      of: SourceText(document), settings: MigrationSettings(allowDataLoss: true))
    #expect(String(decoding: TextEdit.apply(edits, to: Array(document.utf8))!, as: UTF8.self) == output)
    let again = try #require(DocumentVersionStatus.of(SourceText(output), history: Self.removedNote))
    #expect(!again.migrationPending && again.migration(of: SourceText(output)).edits.isEmpty)
  }

  @Test func theOrderIsKeptWhenItDiffersFromDocumentOrder() {
    // The dropped note (order 0) comes after its siblings in the text.
    let document = """
      <outline modelVersion="V1"><Item title="z" order="2"/><Item title="y" order="1"/><Note order="0"/></outline>
      """
    let (output, outcome) = Self.migrate(document, Self.removedNote)
    #expect(outcome.refusal(allowDataLoss: true) == nil, "\(outcome.errors)")
    #expect(
      output
        == "<outline modelVersion=\"V2\"><Item title=\"z\" order=\"1\"/><Item title=\"y\" order=\"0\"/></outline>"
    )
  }

  @Test func renumberingStreamsAtAnyDepth() {
    let depth = 50_000
    let document =
      "<outline modelVersion=\"V1\">"
      + String(repeating: "<Note order=\"0\"/><Item order=\"1\">", count: depth)
      + String(repeating: "</Item>", count: depth) + "</outline>"
    let (output, outcome) = Self.migrate(document, Self.removedNote)
    #expect(outcome.refusal(allowDataLoss: true) == nil)
    #expect(output.hasPrefix("<outline modelVersion=\"V2\"><Item order=\"0\"><Item order=\"0\">"))
    #expect(outcome.renumbered.count == depth && outcome.dropped.count == depth)
  }

  @Test func groupsThatBecomeOneAreNumberedOneAfterTheOther() {
    // Version 1 keeps notes in their own containment; version 2 makes Note an Item, held in children.
    let history = MigrationTests.history(
      """
      <entity name="Item">\(Self.item)\
      <relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note" inverseName="owner" inverseEntity="Note"/></entity>\
      <entity name="Note"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/>\
      <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Item" inverseName="notes" inverseEntity="Item"/></entity>
      """,
      "<entity name=\"Item\">\(Self.item)</entity><entity name=\"Note\" parentEntity=\"Item\"/>")
    let document = """
      <outline modelVersion="V1"><Item title="a" order="1"/><Note order="0"/><Item title="b" order="0"/><Note order="1"/></outline>
      """
    let (output, outcome) = Self.migrate(document, history)
    #expect(outcome.refusal(allowDataLoss: true) == nil, "\(outcome.errors)")
    #expect(
      output
        == "<outline modelVersion=\"V2\"><Item title=\"a\" order=\"1\"/><Note order=\"2\"/><Item title=\"b\" order=\"0\"/><Note order=\"3\"/></outline>"
    )
    #expect(outcome.renumbered.map(\.count) == [2])
  }

  @Test func objectsOfARemovedContainmentAreDroppedOnlyWithDataLossAllowed() throws {
    // Version 2 keeps Note but no longer lets an Item hold notes.
    let note = "<attribute name=\"order\" attributeType=\"Integer 64\" defaultValueString=\"0\"/>"
    let history = MigrationTests.history(
      """
      <entity name="Item">\(Self.item)\
      <relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note" inverseName="owner" inverseEntity="Note"/></entity>\
      <entity name="Note">\(note)\
      <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Item" inverseName="notes" inverseEntity="Item"/></entity>
      """,
      "<entity name=\"Item\">\(Self.item)</entity><entity name=\"Note\">\(note)</entity>")
    let document = """
      <outline modelVersion="V1"><Item title="a" order="0"><Note order="0"/><Item title="a1" order="0"/></Item></outline>
      """
    let (output, outcome) = Self.migrate(document, history)
    #expect(outcome.refusal(allowDataLoss: true) == nil, "\(outcome.errors)")
    #expect(outcome.refusal(allowDataLoss: false) != nil)
    #expect(outcome.dropped.map(\.what) == ["Note object"] && outcome.renumbered.isEmpty)
    #expect(
      output
        == "<outline modelVersion=\"V2\"><Item title=\"a\" order=\"0\"><Item title=\"a1\" order=\"0\"/></Item></outline>"
    )
  }

  @Test func aDocumentAtItsTargetGetsNoEdit() throws {
    let document =
      "<outline modelVersion=\"V2\"><Item title=\"a\" order=\"0\"/><Item title=\"b\" order=\"1\"/></outline>"
    let plan = MigrationPlan(
      history: Self.removedNote, from: 1, to: 1, settings: MigrationSettings(allowDataLoss: true))
    let (output, outcome) = MigrationTests.stream(document, plan)
    #expect(output == document && !outcome.changed && outcome.refusal(allowDataLoss: false) == nil)
    let status = try #require(DocumentVersionStatus.of(SourceText(document), history: Self.removedNote))
    #expect(!status.migrationPending)
    #expect(
      status.migration(of: SourceText(document), settings: MigrationSettings(allowDataLoss: true)).edits
        .isEmpty)
  }
}
