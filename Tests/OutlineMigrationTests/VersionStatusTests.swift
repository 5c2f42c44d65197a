import Foundation
import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineWorkspace
import Testing

/// Which version a document is for: recorded on the root, or inferred.
@Suite struct VersionStatusTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures/versions")

  static func history() throws -> ModelHistory {
    try ModelLocator.history(path: fixtures.appendingPathComponent("Tasks.xcdatamodeld").path)
  }

  static func document() throws -> String {
    try String(contentsOf: fixtures.appendingPathComponent("v1.outline"), encoding: .utf8)
  }

  @Test func aRecordedVersionIsTakenAsItIs() throws {
    let source = SourceText(try Self.document())
    let status = try #require(DocumentVersionStatus.of(source, history: try Self.history()))
    #expect(status.versionName == "Tasks" && status.isRecorded && status.migrationPending)
    #expect(status.currentName == "Tasks 4")
    let range = status.range
    #expect(String(decoding: source.bytes[range.start..<range.end], as: UTF8.self) == "Tasks")
  }

  @Test func anAbsentVersionIsTheOneWithNoErrorsElseTheFewest() throws {
    let history = try Self.history()
    let plain = try Self.document().replacingOccurrences(of: " modelVersion=\"Tasks\"", with: "")
    let status = try #require(DocumentVersionStatus.of(SourceText(plain), history: history))
    #expect(status.versionName == "Tasks" && !status.isRecorded)
    // Renamed to Tasks 2's names, the document fits Tasks 2 only.
    let second =
      plain.replacingOccurrences(of: "<Tag ", with: "<Label ").replacingOccurrences(
        of: "note=", with: "details="
      )
      .replacingOccurrences(of: "tags=", with: "labels=")
    #expect(DocumentVersionStatus.of(SourceText(second), history: history)?.versionName == "Tasks 2")
  }
}
