import Foundation
import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineWorkspace
import Testing

/// A document that records no version and fits the target with no errors is for the target
/// (issue 32, item 7): its migration records the target and changes nothing else.
@Suite struct TrivialMigrationTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures/versions")

  static func history() throws -> ModelHistory {
    try ModelLocator.history(path: fixtures.appendingPathComponent("Tasks.xcdatamodeld").path)
  }

  /// Fits 'Tasks 3' and 'Tasks 4' (the current one) with no errors, and no other version.
  static let fitsThreeAndFour = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" model="Tasks.xcdatamodeld" owner="r">
      <Task order="0" title="x" owner="o"/>
    </outline>

    """

  static func infer(_ text: String, _ history: ModelHistory) -> VersionInference.Result {
    VersionInference.infer(history: history) { parser in
      Array(text.utf8).withUnsafeBufferPointer { parser.feed($0) }
    }
  }

  @Test func anUnrecordedDocumentFittingTheTargetIsForTheTarget() throws {
    let history = try Self.history()
    let three = try #require(history.index(named: "Tasks 3"))
    let inference = Self.infer(Self.fitsThreeAndFour, history)
    #expect(inference.version == history.current)
    #expect(inference.errors[three] == 0)
    // Without a target the inference's choice stands; with one the document fits, the target.
    let plain = Migration.sourceVersion(rootAttributes: [:], history: history) { inference }
    #expect(plain.index == history.current && plain.inferred)
    let trivial = Migration.sourceVersion(rootAttributes: [:], history: history, target: three) { inference }
    #expect(trivial.index == three && trivial.inferred)
    // A version the document does not fit is not taken: the inference's choice is.
    let first = try #require(history.index(named: "Tasks"))
    let refused = Migration.sourceVersion(rootAttributes: [:], history: history, target: first) { inference }
    #expect(refused.index == history.current)
    // A recorded version is taken as it is, fitting the target or not.
    let recorded = Migration.sourceVersion(
      rootAttributes: ["modelVersion": "Tasks 4"], history: history, target: three
    ) { inference }
    #expect(recorded.index == history.current && !recorded.inferred)
  }

  @Test func theTrivialMigrationRecordsTheTargetAndChangesNothingElse() throws {
    let history = try Self.history()
    let three = try #require(history.index(named: "Tasks 3"))
    var plan = MigrationPlan(history: history, from: three, to: three, settings: MigrationSettings())
    plan.recordsVersion = true
    var written: [UInt8] = []
    let outcome = Migration.run(plan: plan) { feed in
      Array(Self.fitsThreeAndFour.utf8).withByteView { feed($0) }
    } write: {
      written += $0
    }
    #expect(outcome.refusal(allowDataLoss: false) == nil)
    #expect(outcome.dropped.isEmpty && outcome.errors.isEmpty)
    #expect(
      String(decoding: written, as: UTF8.self)
        == Self.fitsThreeAndFour.replacingOccurrences(
          of: "model=\"Tasks.xcdatamodeld\"", with: "model=\"Tasks.xcdatamodeld\" modelVersion=\"Tasks 3\""))
  }
}
