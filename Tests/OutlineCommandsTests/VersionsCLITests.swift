import Foundation
import Testing

/// Model versions through the binaries: lint --verbose, fmt, model diff, migrate, model rename.
@Suite struct VersionsCLITests {
  static let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures/versions")

  /// A folder holding the four-version `Tasks.xcdatamodeld` and the version-1 document `v1.outline`.
  static func project() throws -> URL {
    let folder = try CLI.temporaryFolder()
    for name in ["Tasks.xcdatamodeld", "v1.outline"] {
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    return folder
  }

  static func read(_ folder: URL, _ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  @Test func lintVerboseSaysTheRecordedOrInferredVersion() throws {
    let folder = try Self.project()
    let unrecorded = try Self.read(folder, "v1.outline").replacingOccurrences(
      of: " modelVersion=\"Tasks\"", with: "")
    try CLI.write(["plain.outline": unrecorded], in: folder)
    let run = try CLI.run("outline", ["lint", "--verbose", "v1.outline", "plain.outline"], in: folder)
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "v1.outline: written for model version 'Tasks'; a migration to 'Tasks 4' is pending"))
    #expect(
      run.stderr.contains("plain.outline: no modelVersion recorded; fits model version 'Tasks' (no errors)"))
    let quiet = try CLI.run("outline", ["lint", "plain.outline"], in: folder)
    #expect(!quiet.stderr.contains("fits model version"))
  }

  @Test func fmtRecordsTheVersionADocumentFitsAndKeepsIt() throws {
    let folder = try Self.project()
    try CLI.write(
      [
        "new.outline":
          "<outline model=\"Tasks.xcdatamodeld\" version=\"1\" owner=\"me\"><Task owner=\"me\" order=\"0\"/></outline>\n",
        "old.outline": try Self.read(folder, "v1.outline"),
      ], in: folder)
    let run = try CLI.run("outline", ["fmt", "new.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let text = try Self.read(folder, "new.outline")
    #expect(
      text.contains(
        "<outline version=\"1\" model=\"Tasks.xcdatamodeld\" modelVersion=\"Tasks 4\" owner=\"me\">"))
    let again = try CLI.run("outline", ["fmt", "--check", "new.outline"], in: folder)
    #expect(again.status == 0 && again.stdout.isEmpty)
    // An older document keeps the version it records.
    _ = try CLI.run("outline", ["fmt", "old.outline"], in: folder)
    #expect(try Self.read(folder, "old.outline").contains("modelVersion=\"Tasks\""))
    let lint = try CLI.run("outline", ["lint", "new.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")
  }
}
