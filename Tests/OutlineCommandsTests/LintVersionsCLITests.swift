import Foundation
import TestSupport
import Testing

/// OL108 through `outline lint`: a document for an older version of its bundle, recorded or inferred.
@Suite struct LintVersionsCLITests {
  static let third = """
    <outline version="1" model="Tasks.xcdatamodeld" modelVersion="Tasks 3" title="Home" owner="me">
      <Task title="A" order="0" owner="me" summary="s"/>
    </outline>

    """

  @Test func anOlderVersionIsOL108OnTheRootAndRulesApplyToIt() throws {
    let folder = try VersionsFixture.project()
    let current = Self.third.replacingOccurrences(of: "Tasks 3", with: "Tasks 4")
    try CLI.write(["third.outline": Self.third, "current.outline": current], in: folder)
    let run = try CLI.run("outline", ["lint", "third.outline", "current.outline", "v1.outline"], in: folder)
    #expect(run.status == 1)
    #expect(
      run.stdout.contains(
        "third.outline:1:63: information[OL108]: This document is for model version 'Tasks 3'; the current version is 'Tasks 4'\n"
      ), "\(run.stdout)")
    #expect(
      run.stdout.contains(
        "v1.outline:2:63: information[OL108]: This document is for model version 'Tasks'; the current version is 'Tasks 4'; it cannot be migrated as it is: new required values have no default: Task.owner (4 objects)"
      ))
    #expect(!run.stdout.contains("current.outline"))
    // Information only: a document with nothing else to say passes.
    let alone = try CLI.run("outline", ["lint", "third.outline"], in: folder)
    #expect(alone.status == 0 && alone.stdout.contains("OL108"))
    // Migrated, it has nothing to say.
    #expect(try CLI.run("outline", ["migrate", "third.outline"], in: folder).status == 0)
    let migrated = try CLI.run("outline", ["lint", "third.outline"], in: folder)
    #expect(migrated.status == 0 && !migrated.stdout.contains("OL108"), "\(migrated.stdout)")
    try CLI.write(
      ["again.outline": Self.third, ".outline.json": "{\"rules\": {\"OL108\": \"off\"}}"], in: folder)
    let off = try CLI.run("outline", ["lint", "again.outline"], in: folder)
    #expect(off.status == 0 && !off.stdout.contains("OL108"), "\(off.stdout)")
  }
}
