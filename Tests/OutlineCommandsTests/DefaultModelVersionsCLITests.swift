import Foundation
import TestSupport
import Testing

/// The shipped default model is embedded and has one version: a folder in the working
/// directory named like its display path (`schema/Outline.xcdatamodeld`) is never read as its versions.
@Suite struct DefaultModelVersionsCLITests {
  @Test func aFolderNamedLikeTheDefaultModelIsNotItsHistory() throws {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("schema"), withIntermediateDirectories: true)
    // Four versions, none of them the default model.
    try FileManager.default.copyItem(
      at: VersionsFixture.fixtures.appendingPathComponent("Tasks.xcdatamodeld"),
      to: folder.appendingPathComponent("schema/Outline.xcdatamodeld"))
    try CLI.write(
      ["a.outline": "<outline version=\"1\">\n  <Item order=\"0\" title=\"a\"/>\n</outline>\n"], in: folder)
    let lint = try CLI.run("outline-lint", ["--verbose", "a.outline"], in: folder)
    #expect(lint.status == 0)
    #expect(!lint.stdout.contains("OL108") && !lint.stdout.contains("Tasks"), "\(lint.stdout)")
    let migrate = try CLI.run("outline", ["migrate", "--check", "a.outline"], in: folder)
    #expect(
      !migrate.stdout.contains("Tasks") && !migrate.stderr.contains("Tasks"),
      "\(migrate.stdout)\(migrate.stderr)")
  }
}
