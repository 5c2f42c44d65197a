import Foundation
import TestSupport
import Testing

/// Model versions through the binaries: lint --verbose, fmt, model diff, migrate, model rename.
@Suite struct VersionsCLITests {
  @Test func lintVerboseSaysTheRecordedOrInferredVersion() throws {
    let folder = try VersionsFixture.project()
    let unrecorded = try VersionsFixture.read(folder, "v1.outline").replacingOccurrences(
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
    let folder = try VersionsFixture.project()
    try CLI.write(
      [
        "new.outline":
          "<outline model=\"Tasks.xcdatamodeld\" version=\"1\" owner=\"me\"><Task owner=\"me\" order=\"0\"/></outline>\n",
        "old.outline": try VersionsFixture.read(folder, "v1.outline"),
      ], in: folder)
    let run = try CLI.run("outline", ["fmt", "new.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let text = try VersionsFixture.read(folder, "new.outline")
    #expect(
      text.contains(
        "<outline version=\"1\" model=\"Tasks.xcdatamodeld\" modelVersion=\"Tasks 4\" owner=\"me\">"))
    let again = try CLI.run("outline", ["fmt", "--check", "new.outline"], in: folder)
    #expect(again.status == 0 && again.stdout.isEmpty)
    // An older document keeps the version it records.
    _ = try CLI.run("outline", ["fmt", "old.outline"], in: folder)
    #expect(try VersionsFixture.read(folder, "old.outline").contains("modelVersion=\"Tasks\""))
    let lint = try CLI.run("outline", ["lint", "new.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")
  }

  @Test func modelDiffSaysWhatChangedAndWhetherCoreDataCanInferIt() throws {
    let folder = try VersionsFixture.project()
    let step = try CLI.run(
      "outline", ["model", "diff", "Tasks.xcdatamodeld", "--from", "Tasks", "--to", "Tasks 2"], in: folder)
    #expect(step.status == 0, "\(step.stderr)")
    #expect(step.stdout.contains("entity-renamed: entity 'Tag' renamed to 'Label' [inferred; data kept]"))
    #expect(
      step.stdout.contains(
        "attribute-renamed: attribute 'Task.note' renamed to 'details' [inferred; data kept]"))
    #expect(step.stdout.contains("4 changes; lightweight migration can infer them"))
    // Two versions of one bundle by path: renames follow the identifiers across the versions between.
    let chain = try CLI.run(
      "outline",
      ["model", "diff", "Tasks.xcdatamodeld/Tasks.xcdatamodel", "Tasks.xcdatamodeld/Tasks 3.xcdatamodel"],
      in: folder)
    #expect(chain.status == 1)
    #expect(chain.stdout.contains("attribute 'Task.note' renamed to 'summary' [inferred; data kept]"))
    #expect(
      chain.stdout.contains("attribute-removed: attribute 'Task.done' removed [inferred; data dropped]"))
    #expect(
      chain.stdout.contains(
        "attribute 'Task.owner' added (required, no default) [NOT inferable; data needs-default]"))
    #expect(
      chain.stdout.contains(
        "relationship 'Task.label' changed from to-many to to-one [NOT inferable; data dropped]"))
    #expect(chain.stdout.contains("entity-removed: entity 'Archive' removed [inferred; data dropped]"))
    let last = try CLI.run(
      "outline", ["model", "diff", "Tasks.xcdatamodeld", "--from", "Tasks 3", "--format", "json"], in: folder)
    #expect(last.status == 1)
    #expect(
      last.stdout.contains("\"kind\" : \"attribute-retyped\"")
        || last.stdout.contains("\"kind\": \"attribute-retyped\""))
    #expect(last.stdout.contains("\"migratable\": false") || last.stdout.contains("\"migratable\" : false"))
    #expect(last.stdout.contains("constraint-changed") && last.stdout.contains("ordering-changed"))
    #expect(last.stdout.contains("\"versionHashes\"") && last.stdout.contains("\"Label\""))
    let github = try CLI.run(
      "outline",
      ["model", "diff", "Tasks.xcdatamodeld", "--from", "Tasks 2", "--to", "Tasks 3", "--format", "github"],
      in: folder)
    #expect(
      github.stdout.contains(
        "::error file=Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents,title=model diff cardinality-changed::")
    )
    let unknown = try CLI.run(
      "outline", ["model", "diff", "Tasks.xcdatamodeld", "--from", "Tasks 9"], in: folder)
    #expect(
      unknown.status == 2 && unknown.stderr.hasPrefix("outline: ") && unknown.stderr.contains("'Tasks 9'"))
  }

  @Test func modelDiffAgainstGitHeadAndFrozenVersions() throws {
    let folder = try VersionsFixture.project()
    guard (try? CLI.program("git", ["--version"]))?.status == 0 else {
      print("git is not installed: skipping the model diff test against HEAD")
      return
    }
    for arguments in [
      ["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "models"],
    ] {
      #expect(try CLI.program("git", arguments, in: folder).status == 0)
    }
    let current = folder.appendingPathComponent("Tasks.xcdatamodeld/Tasks 4.xcdatamodel/contents")
    let text = try String(contentsOf: current, encoding: .utf8)
    try Data(
      text.replacingOccurrences(
        of: "<attribute name=\"owner\" attributeType",
        with: "<attribute name=\"owner\" optional=\"YES\" attributeType"
      ).utf8
    ).write(to: current)
    let head = try CLI.run("outline", ["model", "diff", "Tasks.xcdatamodeld"], in: folder)
    #expect(head.status == 0, "\(head.stderr)")
    #expect(head.stdout.hasPrefix("Tasks 4 (HEAD) -> Tasks 4\n"))
    #expect(head.stdout.contains("made-optional: attribute 'Task.owner' made optional"))
    #expect(
      try CLI.run("outline", ["model", "diff", "--frozen", "Tasks.xcdatamodeld"], in: folder).status == 0)
    let released = folder.appendingPathComponent("Tasks.xcdatamodeld/Tasks 2.xcdatamodel/contents")
    let old = try String(contentsOf: released, encoding: .utf8)
    try Data(old.replacingOccurrences(of: "name=\"done\" optional=\"YES\"", with: "name=\"done\"").utf8)
      .write(to: released)
    let frozen = try CLI.run("outline", ["model", "diff", "--frozen", "Tasks.xcdatamodeld"], in: folder)
    #expect(frozen.status == 1)
    #expect(
      frozen.stdout.contains("frozen: released version 'Tasks 2' of 'Tasks.xcdatamodeld' differs from HEAD"))
  }

  @Test func migrateMovesADocumentAlongTheChainOnlyWhenNothingIsLost() throws {
    let folder = try VersionsFixture.project()
    let original = try VersionsFixture.read(folder, "v1.outline")
    let check = try CLI.run("outline", ["migrate", "--check", "v1.outline"], in: folder)
    #expect(check.status == 1)
    #expect(check.stderr.contains("Task.owner (4 objects); give them with --set Entity.attribute=value"))
    let lossy = try CLI.run("outline", ["migrate", "v1.outline", "--set", "Task.owner=me"], in: folder)
    #expect(lossy.status == 1)
    #expect(lossy.stdout.contains("v1.outline:6:54: dropped Task.done=\"YES\""))
    #expect(lossy.stdout.contains("v1.outline:5:3: dropped Archive object"))
    #expect(lossy.stderr.contains("run with --allow-data-loss"))
    #expect(try VersionsFixture.read(folder, "v1.outline") == original)
    let pending = try CLI.run(
      "outline", ["migrate", "--check", "--allow-data-loss", "--set", "Task.owner=me", "v1.outline"],
      in: folder)
    #expect(
      pending.status == 1
        && pending.stdout.contains("v1.outline: migration pending from 'Tasks' to 'Tasks 4'"))
    #expect(try VersionsFixture.read(folder, "v1.outline") == original)
    let run = try CLI.run(
      "outline", ["migrate", "v1.outline", "--allow-data-loss", "--set", "Task.owner=me"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("v1.outline: migrated from 'Tasks' to 'Tasks 4'"))
    let migrated = try VersionsFixture.read(folder, "v1.outline")
    #expect(migrated.contains("modelVersion=\"Tasks 4\""))
    #expect(
      migrated.contains(
        "<Task title=\"Groceries\" order=\"0\" summary=\"by Friday\" label=\"t1\" owner=\"me\">"))
    #expect(try CLI.run("outline", ["lint", "v1.outline"], in: folder).status == 0)
    // A second run changes nothing.
    let again = try CLI.run("outline", ["migrate", "v1.outline"], in: folder)
    #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty)
    #expect(try VersionsFixture.read(folder, "v1.outline") == migrated)
    #expect(try CLI.run("outline", ["migrate", "--check", "v1.outline"], in: folder).status == 0)
  }

  @Test func migrateStopsAtAVersionAndRefusesAResultThatWouldNotValidate() throws {
    let folder = try VersionsFixture.project()
    let second = try CLI.run("outline", ["migrate", "v1.outline", "--to", "Tasks 2"], in: folder)
    #expect(second.status == 0, "\(second.stderr)")
    let text = try VersionsFixture.read(folder, "v1.outline")
    #expect(text.contains("modelVersion=\"Tasks 2\"") && text.contains("details=\"by Friday\""))
    #expect(text.contains("labels=\"t1 t2\"") && text.contains("<Archive label=\"old\"/>"))
    // Two labels named alike break the uniqueness constraint of Tasks 4: nothing is written.
    let clash = text.replacingOccurrences(of: "name=\"work\"", with: "name=\"home\"")
    try CLI.write(["clash.outline": clash], in: folder)
    let refused = try CLI.run(
      "outline", ["migrate", "clash.outline", "--allow-data-loss", "--set", "Task.owner=me"], in: folder)
    #expect(refused.status == 1)
    #expect(
      refused.stderr.contains(
        "clash.outline: not migrated from 'Tasks 2' to 'Tasks 4': the migrated document would have"))
    #expect(try VersionsFixture.read(folder, "clash.outline") == clash)
    let unknown = try CLI.run("outline", ["migrate", "v1.outline", "--to", "Tasks 7"], in: folder)
    #expect(unknown.status == 2 && unknown.stderr.contains("no version 'Tasks 7'"))
    let back = try CLI.run("outline", ["migrate", "v1.outline", "--to", "Tasks"], in: folder)
    #expect(back.status == 1 && back.stderr.contains("migrate does not go back"))
    let usage = try CLI.run("outline", ["migrate", "v1.outline", "--set", "owner"], in: folder)
    #expect(usage.status == 2)
  }

  @Test func migrateInfersTheVersionOfADocumentThatRecordsNone() throws {
    let folder = try VersionsFixture.project()
    let plain = try VersionsFixture.read(folder, "v1.outline").replacingOccurrences(
      of: " modelVersion=\"Tasks\"", with: ""
    )
    .replacingOccurrences(of: "<Archive label=\"old\"/>", with: "").replacingOccurrences(
      of: " done=\"YES\"", with: ""
    )
    .replacingOccurrences(of: "tags=\"t1 t2\"", with: "tags=\"t1\"")
    try CLI.write(["plain.outline": plain], in: folder)
    let run = try CLI.run("outline", ["migrate", "plain.outline", "--set", "Task.owner=me"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("plain.outline: migrated from 'Tasks' (inferred) to 'Tasks 4'"))
    #expect(try CLI.run("outline", ["lint", "plain.outline"], in: folder).status == 0)
  }

  @Test func modelRenameRenamesInTheModelAndInEveryOutline() throws {
    let folder = try VersionsFixture.project()
    let document = """
      <outline model="Tasks.xcdatamodeld" version="1" owner="me">
        <Label xml:id="l" name="x"/>
        <Task owner="me" order="0" summary="s" label="l"/>
      </outline>

      """
    try CLI.write(
      ["a.outline": document, "old.outline": try VersionsFixture.read(folder, "v1.outline")], in: folder)
    let old = try VersionsFixture.read(folder, "old.outline")
    let run = try CLI.run(
      "outline", ["model", "rename", "Tasks.xcdatamodeld", "Task.summary", "details", "."], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try VersionsFixture.read(folder, "a.outline")
        == document.replacingOccurrences(of: "summary=", with: "details="))
    // A document for an older version is left for migrate.
    #expect(try VersionsFixture.read(folder, "old.outline") == old)
    let model = try VersionsFixture.read(folder, "Tasks.xcdatamodeld/Tasks 4.xcdatamodel/contents")
    #expect(
      model.contains(
        "<attribute name=\"details\" optional=\"YES\" attributeType=\"String\" renamingIdentifier=\"note\"/>")
    )
    let relationship = try CLI.run(
      "outline", ["model", "rename", "Tasks.xcdatamodeld", "Task.label", "tag", ".", "--new-version"],
      in: folder)
    #expect(relationship.status == 0, "\(relationship.stderr)")
    let renamed = try VersionsFixture.read(folder, "a.outline")
    #expect(renamed.contains("modelVersion=\"Tasks 5\"") && renamed.contains("tag=\"l\""))
    let fifth = try VersionsFixture.read(folder, "Tasks.xcdatamodeld/Tasks 5.xcdatamodel/contents")
    #expect(fifth.contains("name=\"tag\"") && fifth.contains("inverseName=\"tag\""))
    #expect(
      try VersionsFixture.read(folder, "Tasks.xcdatamodeld/.xccurrentversion").contains(
        "<string>Tasks 5.xcdatamodel</string>"))
    #expect(try CLI.run("outline", ["lint", "a.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["model", "check", "Tasks.xcdatamodeld"], in: folder).status == 0)
    // Core Data and migrate follow the identifier: Tasks 4 -> Tasks 5 is a rename, nothing else.
    let diff = try CLI.run(
      "outline", ["model", "diff", "Tasks.xcdatamodeld", "--from", "Tasks 4"], in: folder)
    #expect(diff.status == 0 && diff.stdout.contains("relationship 'Task.label' renamed to 'tag'"))
    let clash = try CLI.run(
      "outline", ["model", "rename", "Tasks.xcdatamodeld", "Task.owner", "title"], in: folder)
    #expect(clash.status == 1 && clash.stderr.contains("'Task' already has a property named 'title'"))
    let missing = try CLI.run(
      "outline", ["model", "rename", "Tasks.xcdatamodeld", "Task.nothing", "x"], in: folder)
    #expect(missing.status == 1 && missing.stderr.contains("has no attribute or relationship 'nothing'"))
  }

  /// For each corpus bundle: a skeleton outline for its first version (`outline new`), migrated to the current one.
  @Test func corpusSkeletonsMigrateFromTheFirstVersionToTheCurrentOne() throws {
    guard Corpus.available else {
      print(Corpus.absent)
      return
    }
    for name in Corpus.names(in: "xcdatamodel", suffix: ".xcdatamodeld") {
      let folder = try CLI.temporaryFolder()
      try FileManager.default.copyItem(
        at: Corpus.folder("xcdatamodel").appendingPathComponent(name), to: folder.appendingPathComponent(name)
      )
      let versions = try FileManager.default.contentsOfDirectory(
        atPath: folder.appendingPathComponent(name).path
      )
      .filter { $0.hasSuffix(".xcdatamodel") }
      let first = try #require(versions.min { $0.count < $1.count || ($0.count == $1.count && $0 < $1) })
      let made = try CLI.run(
        "outline", ["new", "--model", "\(name)/\(first)", "-o", "doc.outline"], in: folder)
      guard made.status == 0 else { continue }
      // `new` records the version it was made for; named by the bundle, the document is for it.
      let written = try VersionsFixture.read(folder, "doc.outline")
      #expect(
        written.contains("modelVersion=\"\(first.dropLast(".xcdatamodel".count))\""), "\(name): \(written)")
      let skeleton = written.replacingOccurrences(of: "model=\"\(name)/\(first)\"", with: "model=\"\(name)\"")
      try CLI.write(["doc.outline": skeleton], in: folder)
      var arguments = ["migrate", "doc.outline", "--allow-data-loss"]
      var run = try CLI.run("outline", arguments, in: folder)
      if run.status == 1, let start = run.stderr.range(of: "no default: "),
        let end = run.stderr.range(of: "; give")
      {
        // New required attributes without a default: give each a value (1 fits most types), as a user would.
        for missing in run.stderr[start.upperBound..<end.lowerBound].components(separatedBy: ", ") {
          arguments += ["--set", "\(missing.components(separatedBy: " (")[0])=1"]
        }
        run = try CLI.run("outline", arguments, in: folder)
      }
      #expect(run.status == 0, "\(name): \(run.stderr)")
      #expect(try CLI.run("outline", ["lint", "doc.outline"], in: folder).status == 0, "\(name)")
      let again = try CLI.run("outline", ["migrate", "--check", "doc.outline"], in: folder)
      #expect(again.status == 0, "\(name): \(again.stdout)")
    }
  }

  @Test func migrateLeavesDocumentsOfOneVersionModelsAndBrokenFilesAlone() throws {
    let folder = try VersionsFixture.project()
    let plain = "<outline><Item title=\"a\" order=\"0\"/></outline>\n"
    let broken =
      "<outline model=\"Tasks.xcdatamodeld\" modelVersion=\"Tasks\"><Task title=\"a\" order=\"0\"></outline>\n"
    try CLI.write(["plain.outline": plain, "broken.outline": broken], in: folder)
    let run = try CLI.run("outline", ["migrate", "plain.outline"], in: folder)
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    #expect(try VersionsFixture.read(folder, "plain.outline") == plain)
    let refused = try CLI.run("outline", ["migrate", "broken.outline"], in: folder)
    #expect(
      refused.status == 1
        && refused.stderr.contains(
          "broken.outline: not migrated from 'Tasks' to 'Tasks 4': it does not parse")
    )
    #expect(try VersionsFixture.read(folder, "broken.outline") == broken)
    let missing = try CLI.run("outline", ["migrate", "absent.outline"], in: folder)
    #expect(missing.status == 2 && missing.stderr.hasPrefix("outline: "))
  }
}
