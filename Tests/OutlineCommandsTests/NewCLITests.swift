import Foundation
import TestSupport
import Testing

/// `outline new`: a starting outline that lints clean, for the default model and every corpus model.
@Suite struct NewCLITests {
  @Test func defaultModelPrintsOneItemThatLintsClean() throws {
    let folder = try CLI.temporaryFolder()
    let made = try CLI.run("outline", ["new"], in: folder)
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.contains(#"<Item order="0" title="Untitled"/>"#))
    #expect(!made.stdout.contains("model="))
    try CLI.write(["start.outline": made.stdout], in: folder)
    let lint = try CLI.run("outline-lint", ["start.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")
  }

  @Test func modelPathIsRelativeToTheOutputAndExistingFilesAreKept() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "models/Tasks.xcdatamodel/contents": """
        <?xml version="1.0" encoding="UTF-8"?>
        <model>
          <entity name="List">
            <attribute name="name" attributeType="String"/>
            <relationship name="tasks" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="list" inverseEntity="Task"/>
          </entity>
          <entity name="Task">
            <attribute name="order" attributeType="Integer 32"/>
            <attribute name="due" attributeType="Date"/>
            <attribute name="done" attributeType="Boolean" defaultValueString="NO"/>
            <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="tasks" inverseEntity="List"/>
          </entity>
        </model>
        """
      ], in: folder)
    let made = try CLI.run(
      "outline", ["new", "--model", "models/Tasks.xcdatamodel", "-o", "docs/plan.outline"], in: folder)
    #expect(made.status == 2, "the folder docs/ does not exist yet")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("docs"), withIntermediateDirectories: true)
    let written = try CLI.run(
      "outline", ["new", "--model", "models/Tasks.xcdatamodel", "-o", "docs/plan.outline"], in: folder)
    #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
    let text = try String(contentsOf: folder.appendingPathComponent("docs/plan.outline"), encoding: .utf8)
    #expect(text.contains(#"model="../models/Tasks.xcdatamodel" name="""#), "\(text)")
    #expect(text.contains(#"<Task order="0" due="2024-01-01T00:00:00Z" done="NO"/>"#), "\(text)")
    let lint = try CLI.run("outline-lint", ["docs/plan.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")

    // An existing file is never replaced without --force.
    try CLI.write(["docs/plan.outline": "mine"], in: folder)
    let refused = try CLI.run(
      "outline", ["new", "--model", "models/Tasks.xcdatamodel", "-o", "docs/plan.outline"], in: folder)
    #expect(refused.status == 2)
    #expect(
      refused.stderr
        == "outline: 'docs/plan.outline' already exists; nothing was written (--force replaces it)\n")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("docs/plan.outline"), encoding: .utf8) == "mine")
    let forced = try CLI.run(
      "outline", ["new", "--model", "models/Tasks.xcdatamodel", "-o", "docs/plan.outline", "--force"],
      in: folder)
    #expect(forced.status == 0)
    #expect(
      try String(contentsOf: folder.appendingPathComponent("docs/plan.outline"), encoding: .utf8) == text)

    // Without -o the path is written as given.
    let printed = try CLI.run("outline", ["new", "--model", "models/Tasks.xcdatamodel"], in: folder)
    #expect(printed.stdout.contains(#"model="models/Tasks.xcdatamodel""#))
    let missing = try CLI.run("outline", ["new", "--model", "nowhere.xcdatamodel"], in: folder)
    #expect(missing.status == 2 && missing.stderr.contains("nowhere.xcdatamodel"))
  }

  /// Models for which no outline can lint clean, and why (the command says so and exits 1).
  static let unsatisfiable = [
    // Status.reblogFrom and Status.replyFrom are required to-many containments
    // that could both hold a Status (OM212): every Status needs children that
    // no position can take.
    "mastodon__mastodon-ios__CoreData-9.xcdatamodel.xml"
  ]

  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func everyCorpusModelGetsAnOutlineThatLintsClean() throws {
    let folder = try CLI.temporaryFolder()
    // The models live outside this project: the configuration allows them, as a user's would.
    try CLI.write(
      [".outline.json": "{\"modelRoots\": [\"\(Corpus.folder("xcdatamodel").path)\"]}"], in: folder)
    var checked = 0
    var refused: [String] = []
    for (index, model) in Corpus.models().enumerated() {
      let output = "new-\(index).outline"
      let made = try CLI.run("outline", ["new", "--model", model, "-o", output], in: folder)
      if made.status == 1 && made.stderr.contains("error") && made.stderr.contains("outline model check") {
        continue  // The model has OM errors.
      }
      if made.status == 1 && made.stderr.contains("will not lint clean") {
        refused.append(URL(fileURLWithPath: model).lastPathComponent)
        continue
      }
      #expect(made.status == 0, "\(model): \(made.stderr)")
      let lint = try CLI.run("outline-lint", [output], in: folder)
      #expect(lint.status == 0, "\(model):\n\(lint.stdout)")
      checked += 1
    }
    #expect(refused == Self.unsatisfiable)
    #expect(checked >= 40, "only \(checked) models checked")
  }
}
