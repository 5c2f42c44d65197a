import Foundation
import TestSupport
import Testing

/// `outline migrate` on documents in the JSON form, and OL108 for them, through the binaries.
@Suite struct MigrateJSONFormCLITests {
  /// The JSON form of `Tests/Fixtures/versions/v1.outline`, written for the bundle's first version.
  static let v1 = """
    {"@outline":1,"@model":"Tasks.xcdatamodeld","@modelVersion":"Tasks","@entity":"Task","title":"Home","@objects":[
    {"@entity":"Tag","@id":"t1","name":"home"},
    {"@entity":"Tag","@id":"t2","name":"work"},
    {"@entity":"Archive","label":"old"}
    ],"children":[
    {"@entity":"Task","order":0,"title":"Groceries","note":"by Friday","done":true,"tags":["t1","t2"],"children":[
    {"@entity":"Task","order":0,"title":"Milk","tags":["t1"]}
    ]},
    {"@entity":"Task","order":1,"title":"Call"}
    ]}

    """

  /// The same document at `Tasks 4`, as `migrate --allow-data-loss --set Task.owner=me` writes it.
  static let v4 = """
    {"@outline":1,"@model":"Tasks.xcdatamodeld","@modelVersion":"Tasks 4","@entity":"Task","title":"Home","owner":"me","@objects":[
    {"@entity":"Label","@id":"t1","name":"home"},
    {"@entity":"Label","@id":"t2","name":"work"}
    ],"children":[
    {"@entity":"Task","order":0,"title":"Groceries","summary":"by Friday","owner":"me","label":"t1","children":[
    {"@entity":"Task","order":0,"title":"Milk","owner":"me","label":"t1"}
    ]},
    {"@entity":"Task","order":1,"title":"Call","owner":"me"}
    ]}

    """

  static func project(_ files: [String: String]) throws -> URL {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.copyItem(
      at: VersionsFixture.fixtures.appendingPathComponent("Tasks.xcdatamodeld"),
      to: folder.appendingPathComponent("Tasks.xcdatamodeld"))
    try CLI.write(files, in: folder)
    return folder
  }

  @Test func aJSONDocumentMovesAlongTheChainOnlyWhenNothingIsLost() throws {
    let folder = try Self.project(["tasks.json": Self.v1])
    let check = try CLI.run("outline", ["migrate", "--check", "tasks.json"], in: folder)
    #expect(check.status == 1)
    #expect(check.stderr.contains("Task.owner (4 objects); give them with --set Entity.attribute=value"))
    let lossy = try CLI.run("outline", ["migrate", "tasks.json", "--set", "Task.owner=me"], in: folder)
    #expect(lossy.status == 1)
    // Each loss at its JSON value, with its path.
    #expect(
      lossy.stdout.contains("tasks.json:4:1: dropped Archive object (at $.@objects[2])"), "\(lossy.stdout)")
    // The path counts the children's array from 0, after the three free objects of `@objects`.
    #expect(lossy.stdout.contains("tasks.json:6:75: dropped Task.done=\"true\" (at $.children[0].done)"))
    #expect(lossy.stdout.contains("dropped Task.tags: ids t2 (to-one keeps 't1')"))
    #expect(lossy.stderr.contains("run with --allow-data-loss"))
    #expect(try VersionsFixture.read(folder, "tasks.json") == Self.v1)
    let pending = try CLI.run(
      "outline", ["migrate", "--check", "--allow-data-loss", "--set", "Task.owner=me", "tasks.json"],
      in: folder)
    #expect(pending.status == 1)
    #expect(pending.stdout.contains("tasks.json: migration pending from 'Tasks' to 'Tasks 4'"))
    #expect(try VersionsFixture.read(folder, "tasks.json") == Self.v1)

    let run = try CLI.run(
      "outline", ["migrate", "tasks.json", "--allow-data-loss", "--set", "Task.owner=me"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("tasks.json: migrated from 'Tasks' to 'Tasks 4'"))
    #expect(try VersionsFixture.read(folder, "tasks.json") == Self.v4)
    #expect(try CLI.run("outline-lint", ["tasks.json"], in: folder).status == 0)
    // A second run changes nothing.
    let again = try CLI.run("outline", ["migrate", "tasks.json"], in: folder)
    #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty, "\(again.stderr)")
    #expect(try VersionsFixture.read(folder, "tasks.json") == Self.v4)
    #expect(try CLI.run("outline", ["migrate", "--check", "tasks.json"], in: folder).status == 0)
  }

  @Test func aJSONDocumentStopsAtAVersionAndItsVersionIsInferred() throws {
    // No @modelVersion, nothing only the first version has, and its title after its children.
    let plain = """
      {"@outline":1,"@model":"Tasks.xcdatamodeld","@entity":"Task","children":[
      {"@entity":"Task","order":0,"title":"Groceries","note":"by Friday"}
      ],"title":"Home"}

      """
    let folder = try Self.project(["tasks.json": Self.v1, "plain.json": plain])
    let second = try CLI.run("outline", ["migrate", "tasks.json", "--to", "Tasks 2"], in: folder)
    #expect(second.status == 0, "\(second.stderr)")
    let text = try VersionsFixture.read(folder, "tasks.json")
    #expect(text.hasPrefix("{\"@outline\":1,\"@model\":\"Tasks.xcdatamodeld\",\"@modelVersion\":\"Tasks 2\""))
    #expect(
      text.contains("\"details\":\"by Friday\"")
        && text.contains("{\"@entity\":\"Archive\",\"label\":\"old\"}"))

    let inferred = try CLI.run("outline", ["migrate", "plain.json", "--set", "Task.owner=me"], in: folder)
    #expect(inferred.status == 0, "\(inferred.stderr)")
    #expect(inferred.stderr.contains("plain.json: migrated from 'Tasks' (inferred) to 'Tasks 4'"))
    #expect(
      try VersionsFixture.read(folder, "plain.json") == """
        {"@outline":1,"@model":"Tasks.xcdatamodeld","@modelVersion":"Tasks 4","@entity":"Task","title":"Home","owner":"me","children":[
        {"@entity":"Task","order":0,"title":"Groceries","summary":"by Friday","owner":"me"}
        ]}

        """)
  }

  @Test func aJSONDocumentThatDoesNotReadAsItsVersionIsRefused() throws {
    let broken = Self.v1.replacingOccurrences(of: "\"done\":true", with: "\"done\":\"soon\"")
    let folder = try Self.project(["broken.json": broken])
    let run = try CLI.run(
      "outline", ["migrate", "broken.json", "--allow-data-loss", "--set", "Task.owner=me"], in: folder)
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "broken.json: not migrated from 'Tasks' to 'Tasks 4': it does not read as the JSON form of its version"
      ))
    #expect(try VersionsFixture.read(folder, "broken.json") == broken)
  }

  @Test func lintGivesAJSONDocumentForAnOlderVersionOL108AtItsVersion() throws {
    let unrecorded = Self.v1.replacingOccurrences(of: "\"@modelVersion\":\"Tasks\",", with: "")
    let folder = try Self.project(["tasks.json": Self.v1, "plain.json": unrecorded, "new.json": Self.v4])
    for binary in ["outline-lint", "outline"] {
      let files = ["tasks.json", "plain.json", "new.json"]
      let run = try CLI.run(binary, binary == "outline" ? ["lint"] + files : files, in: folder)
      #expect(run.status == 1)
      // At the @modelVersion value, else at the root's opening brace.
      #expect(
        run.stdout.contains(
          "tasks.json:1:61: information[OL108]: This document is for model version 'Tasks'; the current version is 'Tasks 4'; it cannot be migrated as it is: new required values have no default: Task.owner (4 objects)"
        ), "\(run.stdout)")
      #expect(
        run.stdout.contains("plain.json:1:1: information[OL108]: This document is for model version 'Tasks'"))
      #expect(!run.stdout.contains("new.json"))
    }
  }

  @Test func aLossIsPositionedInScalarsOnALineLongerThanAChunk() throws {
    // 1.5 MiB of two-byte characters before the dropped value: its line spans two chunks of the read.
    let long = String(repeating: "é", count: 800_000)
    let text = try VersionsFixture.read(VersionsFixture.fixtures, "v1.outline").replacingOccurrences(
      of: "<Task title=\"Groceries\"", with: "<Task title=\"\(long)\"")
    let folder = try Self.project(["long.outline": text])
    let run = try CLI.run("outline", ["migrate", "--check", "--allow-data-loss", "long.outline"], in: folder)
    #expect(
      run.stdout.contains("long.outline:6:\(54 - 9 + 800_000): dropped Task.done=\"YES\""),
      "\(run.stdout.prefix(300))")
    #expect(run.stdout.contains("long.outline:5:3: dropped Archive object"))
  }
}
