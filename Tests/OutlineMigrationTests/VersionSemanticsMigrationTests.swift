import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

/// Core Data's meaning kept across versions by the migration engine, in process: a changed
/// default keeps the values of objects that leave the attribute out, a relationship made
/// ordered keeps the children's order, references to dropped objects go with them, `--set`
/// values reach sub-entities and nothing else, and of two entities sharing a renaming
/// identifier the first is taken. (`outline migrate` itself, and what it writes or refuses to
/// write, goes through the binary in ModelVersionSemanticsCLITests and VersionsCLITests.)
@Suite struct VersionSemanticsMigrationTests {
  static func model(_ entities: String) -> String { ModelFixtures.model(entities) }

  static func item(priority: String) -> String { ModelFixtures.item(priority: priority) }

  /// The versions `name`, `name 2`... of the model texts, the last the current one.
  static func history(_ name: String, _ versions: [String]) -> ModelHistory {
    MigrationSafetyTests.history(name, versions)
  }

  /// `document` migrated from the first version of `history` to its last.
  static func migrated(
    _ document: String, _ history: ModelHistory, settings: MigrationSettings = MigrationSettings()
  ) -> (String, MigrationOutcome) {
    let plan = MigrationPlan(history: history, from: 0, to: history.versions.count - 1, settings: settings)
    return MigrationTests.stream(document, plan)
  }

  /// The errors of `text` against the current version of `history`, as `outline-lint` finds them.
  static func lintErrors(_ text: String, _ history: ModelHistory) -> [Diagnostic] {
    let model = history.versions[history.current].model
    return OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(model)).diagnostics.filter {
      $0.severity == .error
    }
  }

  /// `prio` defaults to 1, then to 5, then has no default (and is optional): objects that left
  /// it out had 1, and are written with it; objects that wrote it keep theirs. The diff names
  /// the change.
  @Test(arguments: [
    "<attribute name=\"prio\" attributeType=\"Integer 16\" defaultValueString=\"5\"/>",
    "<attribute name=\"prio\" optional=\"YES\" attributeType=\"Integer 16\"/>",
  ])
  func changedDefaultKeepsTheValue(newer: String) {
    let history = Self.history(
      "P",
      [
        Self.model(
          Self.item(
            priority: "<attribute name=\"prio\" attributeType=\"Integer 16\" defaultValueString=\"1\"/>")),
        Self.model(Self.item(priority: newer)),
      ])
    let changes = ModelDiff.changes(along: history.versions.map(\.model))
    #expect(
      changes.contains {
        $0.kind.rawValue == "default-changed"
          && $0.detail.hasPrefix("attribute 'Item.prio' default changed from '1' to ")
      }, "\(changes)")
    #expect(ModelDiff.isMigratable(changes))
    let (migrated, outcome) = Self.migrated(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <outline version="1" model="P.xcdatamodeld" modelVersion="P">
        <Item title="left out" order="0"/>
        <Item title="written" order="1" prio="3"/>
      </outline>

      """, history)
    #expect(outcome.refusal(allowDataLoss: false) == nil, "\(outcome)")
    #expect(migrated.contains("<Item title=\"left out\" order=\"0\" prio=\"1\"/>"), "\(migrated)")
    #expect(migrated.contains("<Item title=\"written\" order=\"1\" prio=\"3\"/>"), "\(migrated)")
    #expect(Self.lintErrors(migrated, history).isEmpty)
  }

  /// `children` becomes ordered (document order tells the order): children numbered out of
  /// document order would change order, so the migration refuses; in order, they migrate. Back
  /// the other way, children of an ordered relationship are numbered by their document order.
  @Test func orderingChangesKeepTheChildrensOrder() {
    let unordered = Self.item(priority: "")
    let ordered = unordered.replacingOccurrences(
      of: "name=\"children\" optional=\"YES\" toMany=\"YES\"",
      with: "name=\"children\" optional=\"YES\" toMany=\"YES\" ordered=\"YES\"")
    #expect(ordered != unordered)
    let becomesOrdered = Self.history("O", [Self.model(unordered), Self.model(ordered)])
    let swapped = """
      <outline version="1" model="O.xcdatamodeld" modelVersion="O">
        <Item title="p" order="0">
          <Item title="second" order="1"/>
          <Item title="first" order="0"/>
        </Item>
      </outline>

      """
    let refusal = Self.migrated(swapped, becomesOrdered).1.refusal(allowDataLoss: false) ?? ""
    #expect(refusal.contains("the children of Item 'p' are numbered out of document order"), "\(refusal)")
    let inOrder = swapped.replacingOccurrences(
      of: "<Item title=\"second\" order=\"1\"/>\n    <Item title=\"first\" order=\"0\"/>",
      with: "<Item title=\"first\" order=\"0\"/>\n    <Item title=\"second\" order=\"1\"/>")
    #expect(Self.migrated(inOrder, becomesOrdered).1.refusal(allowDataLoss: false) == nil)

    let becomesUnordered = Self.history("U", [Self.model(ordered), Self.model(unordered)])
    let (numbered, outcome) = Self.migrated(
      """
      <outline version="1" model="U.xcdatamodeld" modelVersion="U">
        <Item title="p" order="0">
          <Item title="first"/>
          <Item title="second" order="0"/>
        </Item>
      </outline>

      """, becomesUnordered)
    #expect(outcome.refusal(allowDataLoss: false) == nil, "\(outcome)")
    #expect(numbered.contains("<Item title=\"first\" order=\"0\"/>"), "\(numbered)")
    #expect(numbered.contains("<Item title=\"second\" order=\"1\"/>"), "\(numbered)")
    #expect(Self.lintErrors(numbered, becomesUnordered).isEmpty)
  }

  /// An entity removed while other objects name its objects: with data loss allowed the
  /// objects go and so do the ids naming them (Core Data nullifies a relationship to a deleted
  /// object), each listed at its place; a to-one left with none loses its attribute. Without,
  /// the migration refuses and says how to allow it.
  @Test func referencesToDroppedObjectsGoWithThem() {
    func version(_ extra: String) -> String {
      Self.model(
        """
        <entity name="Item">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
            <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
            <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
            <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
            <relationship name="main" optional="YES" maxCount="1" destinationEntity="Tag" inverseName="mainOf" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
            <relationship name="mainOf" optional="YES" toMany="YES" destinationEntity="Item" inverseName="main" inverseEntity="Item"/>
        </entity>
        \(extra)
        """)
    }
    let document = """
      <outline version="1" model="X.xcdatamodeld" modelVersion="X">
        <Item order="0" tags="t1 s1" main="s1"/>
        <Tag xml:id="t1"/>
        <Special xml:id="s1"/>
      </outline>

      """
    let history = Self.history(
      "X", [version("<entity name=\"Special\" parentEntity=\"Tag\"/>"), version("")])
    let refused = Self.migrated(document, history).1.refusal(allowDataLoss: false) ?? ""
    #expect(refused.contains("--allow-data-loss"), "\(refused)")
    let (migrated, outcome) = Self.migrated(
      document, history, settings: MigrationSettings(allowDataLoss: true))
    #expect(outcome.refusal(allowDataLoss: true) == nil, "\(outcome)")
    let source = SourceText(document)
    let listed = outcome.dropped.map { dropped in
      let position = source.position(of: dropped.offset, unit: .scalar)
      return "\(position.line + 1):\(position.column + 1): dropped \(dropped.what)"
    }
    #expect(listed.contains("2:28: dropped Item.tags: id 's1' (its object is dropped)"), "\(listed)")
    #expect(
      listed.contains { $0.hasSuffix("dropped Item.main: id 's1' (its object is dropped)") }, "\(listed)")
    #expect(migrated.contains("<Item order=\"0\" tags=\"t1\"/>"), "\(migrated)")
    #expect(!migrated.contains("s1"), "\(migrated)")
    #expect(Self.lintErrors(migrated, history).isEmpty)
  }

  /// `--set` gives values to what the migration needs them for: a new required attribute, on
  /// the entity named and the entities inheriting from it; a name the target does not have is
  /// found (the command refuses it); an attribute that is not new keeps its values. A document
  /// already at the target, with a lint error of its own, is not the migration's business.
  @Test func setCoversSubEntitiesAndNothingElse() {
    let base = """
      <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>
      <attribute name="size" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
      """
    let history = Self.history(
      "M",
      [
        Self.model(base + "</entity>\n<entity name=\"Sub\" parentEntity=\"Item\"/>"),
        Self.model(
          base
            + "<attribute name=\"kind\" attributeType=\"String\"/></entity>\n<entity name=\"Sub\" parentEntity=\"Item\"/>"
        ),
      ])
    let target = history.versions[1].model
    let typo = MigrationSettings(values: ["Item.kind": "x", "Item.knd": "z"])
    #expect(MigrationPlan.unknownSettings(typo, in: target) == ["Item.knd"])
    let settings = MigrationSettings(values: ["Item.kind": "x", "Item.size": "9"])
    #expect(MigrationPlan.unknownSettings(settings, in: target).isEmpty)
    let (migrated, outcome) = Self.migrated(
      "<outline model=\"M.xcdatamodeld\" modelVersion=\"M\" entity=\"Item\" title=\"r\">\n  <Item title=\"a\"/>\n  <Sub title=\"b\"/>\n</outline>\n",
      history, settings: settings)
    #expect(outcome.refusal(allowDataLoss: false) == nil, "\(outcome)")
    #expect(
      migrated.contains("<Item title=\"a\" kind=\"x\"/>")
        && migrated.contains("<Sub title=\"b\" kind=\"x\"/>"),
      "\(migrated)")
    #expect(!migrated.contains("size="), "\(migrated)")
    // Already at 'M 2', with a lint error of its own (an Item without 'kind'): nothing to migrate.
    let current =
      "<outline model=\"M.xcdatamodeld\" modelVersion=\"M 2\" entity=\"Item\" title=\"r\" kind=\"k\">\n  <Item title=\"a\"/>\n</outline>\n"
    #expect(!Self.lintErrors(current, history).isEmpty)
    let plan = MigrationPlan(history: history, from: 1, to: 1, settings: MigrationSettings())
    let (same, nothing) = MigrationTests.stream(current, plan)
    #expect(nothing.changesNothing, "\(nothing)")
    #expect(same == current)
  }

  /// Two entities with one `renamingIdentifier`: the model warns (OM215, at the second), and a
  /// migration takes the first in the model for the older entity.
  @Test func aSharedRenamingIdentifierIsWarnedOfAndTheFirstIsTaken() {
    let newer = Self.model(
      """
      <entity name="Color" renamingIdentifier="Tag"><attribute name="label" optional="YES" attributeType="String"/></entity>
      <entity name="Topic" renamingIdentifier="Tag"><attribute name="label" optional="YES" attributeType="String"/></entity>
      """)
    let warnings = ModelLoader.load(SourceText(newer)).diagnostics.map {
      "\($0.severity)[\($0.code)]: \($0.message)"
    }
    #expect(
      warnings.contains {
        $0.hasPrefix("warning[OM215]: Entity 'Topic' has renamingIdentifier 'Tag', as 'Color' has")
      },
      "\(warnings)")
    let history = Self.history(
      "S",
      [
        Self.model(
          "<entity name=\"Tag\"><attribute name=\"label\" optional=\"YES\" attributeType=\"String\"/></entity>"
        ),
        newer,
      ])
    let (migrated, outcome) = Self.migrated(
      "<outline version=\"1\" model=\"S.xcdatamodeld\" modelVersion=\"S\">\n  <Tag label=\"a\"/>\n</outline>\n",
      history)
    #expect(outcome.refusal(allowDataLoss: false) == nil, "\(outcome)")
    #expect(migrated.contains("<Color label=\"a\"/>"), "\(migrated)")
  }
}
