import OutlineCore
import OutlineMigration
import OutlineModel
import Testing

/// Migrations and model renames meet documents with errors turned off (a rule, a comment), in
/// process: they refuse rather than write a start tag with one name twice or numbers that lose
/// the children's order; ids defined twice keep the references to the object that stays.
/// (That a refused migration writes nothing goes through the binary in VersionsCLITests.)
@Suite struct MigrationSafetyTests {
  static let head = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    """

  static func item(title: String = "title", renaming: String? = nil) -> String {
    let identifier = renaming.map { " renamingIdentifier=\"\($0)\"" } ?? ""
    return """
        <entity name="Item" representedClassName="Item" syncable="YES">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
          <attribute name="\(title)" optional="YES" attributeType="String"\(identifier)/>
          <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
          <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
        </entity>
      """
  }

  /// The versions `name`, `name 2`... of a bundle, the last the current one, as Xcode names them.
  static func history(_ name: String, _ versions: [String]) -> ModelHistory {
    ModelHistory(
      versions: versions.enumerated().map { index, text in
        ModelVersion(
          name: index == 0 ? name : "\(name) \(index + 1)", model: ModelLoader.load(SourceText(text)))
      },
      current: versions.count - 1)
  }

  /// `document` migrated from the first version of `history` to its last.
  static func migrated(_ document: String, _ history: ModelHistory, allowDataLoss: Bool = false) -> (
    String, MigrationOutcome
  ) {
    let plan = MigrationPlan(
      history: history, from: 0, to: history.versions.count - 1,
      settings: MigrationSettings(allowDataLoss: allowDataLoss))
    return MigrationTests.stream(document, plan)
  }

  /// Version 2 renames `title` to `name`; the object already has a `name` the older version
  /// did not know (OL203 turned off): the migration refuses instead of writing `name` twice.
  @Test(arguments: ["comment", "none"])
  func aRenameOntoANameTheObjectHasIsRefused(turnedOff by: String) {
    let disable = by == "comment" ? "\n  <!-- outline-disable OL203 -->" : ""
    let document = """
      <outline version="1" model="V.xcdatamodeld" modelVersion="V">\(disable)
        <Item order="0" title="A" name="already"/>
      </outline>

      """
    let history = Self.history(
      "V",
      [
        Self.head + Self.item() + "</model>\n",
        Self.head + Self.item(title: "name", renaming: "title") + "</model>\n",
      ])
    let (_, outcome) = Self.migrated(document, history)
    let refusal = outcome.refusal(allowDataLoss: false) ?? ""
    #expect(
      refusal.contains("Item.title=\"A\" would be renamed 'name', a name its object already has"),
      "\(refusal)")
  }

  /// `model rename Item.title label` where an object already has a `label` (OL203 turned off):
  /// refused.
  @Test func aModelRenameOntoANameAnObjectHasIsRefused() throws {
    let model = ModelLoader.load(SourceText(Self.head + Self.item() + "</model>\n"))
    let document = """
      <outline version="1" model="M.xcdatamodel">
        <!-- outline-disable OL203 -->
        <Item order="0" title="A" label="kept by the user"/>
      </outline>

      """
    let edits = try ModelRename.edits(in: model, entity: "Item", property: "title", to: "label")
    let renamed = ModelLoader.load(
      SourceText(bytes: try #require(TextEdit.apply(edits, to: model.source.bytes))))
    let step = ModelHistory(
      versions: [ModelVersion(name: "M", model: model), ModelVersion(name: "M", model: renamed)], current: 1)
    var plan = MigrationPlan(history: step, from: 0, to: 1, settings: MigrationSettings())
    plan.recordsVersion = false
    let (_, outcome) = MigrationTests.stream(document, plan)
    let refusal = outcome.refusal(allowDataLoss: false) ?? ""
    #expect(refusal.contains("would be renamed 'label', a name its object already has"), "\(refusal)")
  }

  static let nodes = """
      <entity name="Node" representedClassName="Node" isAbstract="YES" syncable="YES">
        <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="children" optional="YES" toMany="YES" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
        <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Node" inverseName="children" inverseEntity="Node"/>
        <relationship name="links" optional="YES" toMany="YES" destinationEntity="Node"/>
      </entity>
      <entity name="Item" representedClassName="Item" parentEntity="Node" syncable="YES"/>
      <entity name="Root" representedClassName="Root" parentEntity="Node" syncable="YES"/>
    """

  /// A bundle whose version 2 has no `Note` entity.
  static let noteDropped = history(
    "W",
    [
      head + nodes + "<entity name=\"Note\" parentEntity=\"Node\" syncable=\"YES\"/></model>\n",
      head + nodes + "</model>\n",
    ])

  /// Version 2 has no `Note`: dropping one renumbers its siblings. Siblings numbered with a
  /// duplicate (OL401 turned off) have no order the new numbers could keep: refused, even with
  /// `--allow-data-loss`. Numbered 0..n-1 they are renumbered as before.
  @Test func renumberingSiblingsNotNumberedInSequenceIsRefused() {
    let broken = """
      <outline version="1" model="W.xcdatamodeld" modelVersion="W" entity="Root">
        <!-- outline-disable OL401 -->
        <Item order="1" title="A"/>
        <Note order="0" title="N"/>
        <Item order="1" title="B"/>
        <Item order="0" title="C"/>
      </outline>

      """
    let (_, refused) = Self.migrated(broken, Self.noteDropped, allowDataLoss: true)
    let refusal = refused.refusal(allowDataLoss: true) ?? ""
    #expect(refusal.contains("not numbered 0..n-1"), "\(refusal)")
    let fine = """
      <outline version="1" model="W.xcdatamodeld" modelVersion="W" entity="Root">
        <Item order="2" title="A"/>
        <Note order="0" title="N"/>
        <Item order="1" title="B"/>
      </outline>

      """
    let (migrated, outcome) = Self.migrated(fine, Self.noteDropped, allowDataLoss: true)
    #expect(outcome.refusal(allowDataLoss: true) == nil, "\(outcome)")
    #expect(
      migrated.contains("order=\"1\" title=\"A\"") && migrated.contains("order=\"0\" title=\"B\""),
      "\(migrated)")
  }

  /// An id defined twice (OL500 turned off), on a dropped object and on a kept one: the
  /// references name the kept one and stay.
  @Test func referencesToAnIdTheKeptObjectAlsoHasStay() {
    let document = """
      <outline version="1" model="W.xcdatamodeld" modelVersion="W" entity="Root">
        <!-- outline-disable OL500 -->
        <Item xml:id="x" order="0" title="keep"/>
        <Note xml:id="x" order="1" title="gone"/>
        <Item order="2" title="ref" links="x"/>
      </outline>

      """
    let (migrated, outcome) = Self.migrated(document, Self.noteDropped, allowDataLoss: true)
    #expect(outcome.refusal(allowDataLoss: true) == nil, "\(outcome)")
    #expect(migrated.contains("links=\"x\""), "\(migrated)")
    #expect(!migrated.contains("gone"))
  }
}
