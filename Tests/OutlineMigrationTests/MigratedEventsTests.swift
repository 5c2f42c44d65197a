import Foundation
import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineValidation
import OutlineWorkspace
import Testing

/// The migrated text is validated from the migrator's events, not parsed again: its errors
/// are those of the text written, validated afresh.
@Suite struct MigratedEventsTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/versions")

  /// The errors (code and message) of the streamed migration, and of its written text validated on its own.
  static func errors(_ text: String, to target: Int, settings: MigrationSettings) throws -> (
    streamed: [String], written: [String]
  ) {
    let history = try ModelLocator.history(path: folder.appendingPathComponent("Tasks.xcdatamodeld").path)
    let plan = MigrationPlan(history: history, from: 0, to: target, settings: settings)
    let (output, outcome) = MigrationTests.stream(text, plan, chunk: 13)
    let written = OutlineValidator.validate(
      SourceText(output), modelProvider: fixedModel(history.versions[target].model), buildTree: false)
    func lines(_ diagnostics: [Diagnostic]) -> [String] {
      diagnostics.filter { $0.severity == .error }.map { "\($0.code.rawValue) \($0.message)" }
    }
    return (lines(outcome.errors), lines(written.diagnostics))
  }

  @Test func theMigratedTextsErrorsAreThoseOfTheTextWritten() throws {
    let v1 = try String(contentsOf: Self.folder.appendingPathComponent("v1.outline"), encoding: .utf8)
    // Text in an object, a comment that silences a rule, a processing instruction, two labels alike
    // (Tasks 4 makes names unique), a renamed element's end tag and a dropped element with children.
    let busy =
      v1
      .replacingOccurrences(of: "name=\"work\"", with: "name=\"home\"")
      .replacingOccurrences(
        of: "<Task title=\"Call\" order=\"1\"/>", with: "<Task title=\"Call\" order=\"1\">stray</Task>"
      )
      .replacingOccurrences(
        of: "<Archive label=\"old\"/>", with: "<?note kept?><Archive label=\"old\"><!-- gone --></Archive>"
      )
      .replacingOccurrences(
        of: "<Tag xml:id=\"t1\" name=\"home\"/>",
        with:
          "<!-- outline-disable-next-line OL203 -->\n  <Tag xml:id=\"t1\" name=\"home\" extra=\"x\"></Tag>")
    let settings = MigrationSettings(values: ["Task.owner": "me"], allowDataLoss: true)
    for target in 1...3 {
      let (streamed, written) = try Self.errors(busy, to: target, settings: settings)
      #expect(streamed == written, "to version \(target + 1)")
      if target == 3 { #expect(!streamed.isEmpty) }
    }
    let (streamed, written) = try Self.errors(v1, to: 3, settings: settings)
    #expect(streamed.isEmpty && written.isEmpty)
  }
}
