import Foundation
import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineWorkspace
import Testing

/// The migration engine: plans along a chain of versions, the streaming rewrite, its edits.
@Suite struct MigrationTests {
  static func model(_ entities: String) -> Model {
    ModelLoader.load(SourceText("<?xml version=\"1.0\"?>\n<model>\n\(entities)\n</model>\n"))
  }

  static func history(_ versions: String...) -> ModelHistory {
    ModelHistory(
      versions: versions.enumerated().map {
        ModelVersion(name: "V\($0.offset + 1)", model: model($0.element))
      },
      current: versions.count - 1)
  }

  static let containment = """
    <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>\
    <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
    """

  /// Streams `text` through the migration in chunks of `chunk` bytes; the output and the outcome.
  static func stream(_ text: String, _ plan: MigrationPlan, chunk: Int = 7) -> (String, MigrationOutcome) {
    var output: [UInt8] = []
    let bytes = Array(text.utf8)
    let outcome = Migration.run(plan: plan) { feed in
      bytes.withByteView { all in
        var start = 0
        while start < all.count {
          let end = min(all.count, start + chunk)
          feed(all.extracting(start..<end))
          start = end
        }
      }
    } write: {
      output += $0
    }
    return (String(decoding: output, as: UTF8.self), outcome)
  }

  @Test func aNewOrderAttributeIsNumberedPerSiblingGroup() throws {
    let history = Self.history(
      "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>\(Self.containment)</entity>",
      "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"order\" attributeType=\"Integer 64\" defaultValueString=\"0\"/>\(Self.containment)</entity>"
    )
    let plan = MigrationPlan(history: history, from: 0, to: 1, settings: MigrationSettings())
    let document = """
      <outline>
        <Item title="a"><Item title="a1"/><Item title="a2"></Item></Item>
        <Item title="b"/>
      </outline>
      """
    let (output, outcome) = Self.stream(document, plan)
    #expect(outcome.refusal(allowDataLoss: false) == nil)
    #expect(
      output == """
        <outline modelVersion="V2">
          <Item title="a" order="0"><Item title="a1" order="0"/><Item title="a2" order="1"></Item></Item>
          <Item title="b" order="1"/>
        </outline>
        """)
    // Running it again changes nothing.
    let status = try #require(DocumentVersionStatus.of(SourceText(output), history: history))
    #expect(!status.migrationPending && status.isRecorded)
    let again = status.migration(of: SourceText(output))
    #expect(again.edits.isEmpty && !again.outcome.changed)
  }

  @Test func theStreamAndTheEditsAgreeOnTheFourVersionChain() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/versions")
    let history = try ModelLocator.history(path: folder.appendingPathComponent("Tasks.xcdatamodeld").path)
    let text = try String(contentsOf: folder.appendingPathComponent("v1.outline"), encoding: .utf8)
    let settings = MigrationSettings(values: ["Task.owner": "me"], allowDataLoss: true)
    let status = try #require(DocumentVersionStatus.of(SourceText(text), history: history))
    let (edits, outcome) = status.migration(of: SourceText(text), settings: settings)
    #expect(outcome.refusal(allowDataLoss: true) == nil, "\(outcome.errors)")
    let edited = String(decoding: TextEdit.apply(edits, to: Array(text.utf8))!, as: UTF8.self)
    let plan = MigrationPlan(history: history, from: 0, to: 3, settings: settings)
    for chunk in [1, 5, 64, 1 << 20] {
      #expect(Self.stream(text, plan, chunk: chunk).0 == edited)
    }
    #expect(edited.contains("<Label xml:id=\"t1\" name=\"home\"/>"))
    #expect(edited.contains("summary=\"by Friday\" label=\"t1\" owner=\"me\""))
    #expect(!edited.contains("Archive") && !edited.contains("done="))
    #expect(
      outcome.dropped.map(\.what) == [
        "Archive object", "Task.done=\"YES\"", "Task.tags: ids t2 (to-one keeps 't1')",
      ])
    // Without the data loss allowed, or without the owner, nothing is edited.
    #expect(
      status.migration(of: SourceText(text), settings: MigrationSettings(values: ["Task.owner": "me"])).edits
        .isEmpty)
    let missing = status.migration(of: SourceText(text), settings: MigrationSettings(allowDataLoss: true))
    #expect(missing.edits.isEmpty && missing.outcome.missing == ["Task.owner": 4])
    // One step at a time gives the same document.
    var stepwise = text
    for target in 1...3 {
      let current = try #require(DocumentVersionStatus.of(SourceText(stepwise), history: history))
      let step = current.migration(of: SourceText(stepwise), to: target, settings: settings)
      #expect(step.outcome.refusal(allowDataLoss: true) == nil, "step to \(target): \(step.outcome.errors)")
      stepwise = String(decoding: TextEdit.apply(step.edits, to: Array(stepwise.utf8))!, as: UTF8.self)
    }
    #expect(stepwise == edited)
  }

  @Test func anAttributeMadeRequiredNeedsAValueWhereItIsMissing() {
    let history = Self.history(
      "<entity name=\"Item\"><attribute name=\"code\" optional=\"YES\" attributeType=\"String\"/>\(Self.containment)</entity>",
      "<entity name=\"Item\"><attribute name=\"code\" attributeType=\"String\"/>\(Self.containment)</entity>")
    let document = "<outline code=\"r\"><Item code=\"a\"/><Item/></outline>"
    let refused = Self.stream(
      document, MigrationPlan(history: history, from: 0, to: 1, settings: MigrationSettings()))
    #expect(refused.1.missing == ["Item.code": 1])
    let plan = MigrationPlan(
      history: history, from: 0, to: 1, settings: MigrationSettings(values: ["Item.code": "none"]))
    let (output, outcome) = Self.stream(document, plan)
    #expect(outcome.refusal(allowDataLoss: false) == nil)
    #expect(
      output == "<outline modelVersion=\"V2\" code=\"r\"><Item code=\"a\"/><Item code=\"none\"/></outline>")
  }

  @Test func aDeepChainMigratesWithoutRecursion() {
    let history = Self.history(
      "<entity name=\"Item\"><attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>\(Self.containment)</entity>",
      "<entity name=\"Item\"><attribute name=\"text\" optional=\"YES\" attributeType=\"String\" renamingIdentifier=\"note\"/>\(Self.containment)</entity>"
    )
    let depth = 100_000
    let document =
      "<outline modelVersion=\"V1\">" + String(repeating: "<Item note=\"x\">", count: depth)
      + String(repeating: "</Item>", count: depth) + "</outline>"
    let plan = MigrationPlan(history: history, from: 0, to: 1, settings: MigrationSettings())
    let (output, outcome) = Self.stream(document, plan, chunk: 1 << 16)
    #expect(outcome.refusal(allowDataLoss: false) == nil)
    #expect(output.hasPrefix("<outline modelVersion=\"V2\"><Item text=\"x\"><Item text=\"x\">"))
    #expect(output.utf8.count == document.utf8.count)
  }
}
