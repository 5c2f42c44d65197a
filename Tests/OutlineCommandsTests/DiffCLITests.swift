import Foundation
import TestSupport
import Testing

/// `outline diff`: the structural diff through the binary, directly and as git's external diff driver.
@Suite struct DiffCLITests {
  static let old = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="Weekend">
      <Item order="0" title="Groceries">
        <Item xml:id="milk" order="0" title="Milk"/>
        <Item order="1" title="Eggs"/>
        <Item order="2" title="Tea"/>
      </Item>
      <Item order="1" title="Work">
        <Item order="0" title="Mail"/>
      </Item>
      <Item order="2" title="Home"/>
    </outline>

    """

  /// Milk renamed, Eggs removed, Bread added, Home moved into Work; the orders renumbered.
  static let new = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="Weekend">
      <Item order="0" title="Groceries">
        <Item xml:id="milk" order="0" title="Oat milk"/>
        <Item order="1" title="Tea"/>
        <Item order="2" title="Bread"/>
      </Item>
      <Item order="1" title="Work">
        <Item order="0" title="Mail"/>
        <Item order="1" title="Home"/>
      </Item>
    </outline>

    """

  static let expected = [
    #"changed "Oat milk" 4:5 -> 4:5: title "Milk" -> "Oat milk""#,
    #"removed "Eggs" 5:5 -> -: from "Groceries" at #2"#,
    #"added "Bread" - -> 6:5: under "Groceries" at #3"#,
    #"moved "Home" 11:3 -> 10:5: from "Weekend" #3 to "Work" #2"#,
  ]

  @Test func reportsEachChangeOnceWithBothPositionsAndExitsAsDiffDoes() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["old.outline": Self.old, "new.outline": Self.new], in: folder)
    let run = try CLI.run("outline", ["diff", "old.outline", "new.outline"], in: folder)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.split(separator: "\n").map(String.init) == Self.expected)
    let same = try CLI.run("outline", ["diff", "old.outline", "old.outline"], in: folder)
    #expect(same.status == 0 && same.stdout.isEmpty && same.stderr.isEmpty)

    let json = try CLI.run("outline", ["diff", "--format", "json", "old.outline", "new.outline"], in: folder)
    #expect(json.status == 1)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let changes = object?["changes"] as? [[String: Any]] ?? []
    #expect(object?["old"] as? String == "old.outline" && object?["new"] as? String == "new.outline")
    #expect(changes.map { $0["kind"] as? String } == ["changed", "removed", "added", "moved"])
    #expect(changes[0]["attribute"] as? String == "title" && changes[0]["oldValue"] as? String == "Milk")
    #expect(changes[0]["newValue"] as? String == "Oat milk" && changes[0]["label"] as? String == "Oat milk")
    #expect((changes[1]["old"] as? [String: Int]) == ["line": 5, "column": 5] && changes[1]["new"] is NSNull)
    #expect(changes[2]["parent"] as? String == "Groceries" && changes[2]["items"] as? Int == 1)
    #expect(changes[3]["oldParent"] as? String == "Weekend" && changes[3]["newParent"] as? String == "Work")
    #expect(changes[3]["oldPlace"] as? Int == 3 && changes[3]["newPlace"] as? Int == 2)
  }

  @Test func comparesTheJSONFormWithXMLAndPointsIntoTheJSON() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["old.outline": Self.old, "new.outline": Self.new], in: folder)
    let convert = try CLI.run("outline", ["convert", "old.outline", "-o", "old.json"], in: folder)
    #expect(convert.status == 0, "\(convert.stderr)")
    let run = try CLI.run("outline", ["diff", "old.json", "new.outline"], in: folder)
    #expect(run.status == 1, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4 && lines[2] == Self.expected[2])
    // Eggs is the object on the fourth line of the JSON form.
    let json = try String(contentsOf: folder.appendingPathComponent("old.json"), encoding: .utf8)
    let eggs = json.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
      $0.contains("Eggs")
    }
    #expect(lines[1].hasPrefix("removed \"Eggs\" \(eggs.map { $0 + 1 } ?? 0):1 -> -:"), "\(lines[1])")
    let both = try CLI.run("outline", ["diff", "old.json", "old.json"], in: folder)
    #expect(both.status == 0 && both.stdout.isEmpty)
  }

  @Test func refusesWhatDoesNotParseWithItsPlace() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "old.outline": Self.old, "bad.outline": "<outline>\n  <Item order=\"0\" title=\"a\">\n</outline>\n",
        "bad.json": "{\"@outline\": 1, \"children\": [\n  {\"title\": }\n]}\n",
      ], in: folder)
    let bad = try CLI.run("outline", ["diff", "old.outline", "bad.outline"], in: folder)
    #expect(bad.status == 2 && bad.stdout.isEmpty)
    #expect(bad.stderr.hasPrefix("outline: 'bad.outline':3:"), "\(bad.stderr)")
    let json = try CLI.run("outline", ["diff", "bad.json", "old.outline"], in: folder)
    #expect(json.status == 2 && json.stderr.hasPrefix("outline: 'bad.json':2:"), "\(json.stderr)")
    let missing = try CLI.run("outline", ["diff", "old.outline", "gone.outline"], in: folder)
    #expect(missing.status == 2 && missing.stderr.contains("gone.outline"))
    let usage = try CLI.run("outline", ["diff", "--git", "old.outline", "old.outline"], in: folder)
    #expect(usage.status == 2 && usage.stderr.contains("seven arguments"))
  }

  @Test func gitShowsTheStructuralDiffThroughTheDriver() throws {
    guard (try? CLI.program("git", ["--version"]))?.status == 0 else {
      print("git is not installed: skipping the git diff driver test")
      return
    }
    let folder = try CLI.temporaryFolder()
    let environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder.path,
      "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
      "GIT_COMMITTER_NAME": "t",
      "GIT_COMMITTER_EMAIL": "t@t", "GIT_PAGER": "cat",
    ]
    func git(_ arguments: [String]) throws -> CLI.Output {
      let run = try CLI.program("git", arguments, environment: environment, in: folder)
      #expect(run.status == 0, "git \(arguments): \(run.stderr)")
      return run
    }
    // The project of examples/tags in a folder: the model is found from the file's real path.
    let tags = CLI.repository.appendingPathComponent("examples/tags")
    try FileManager.default.copyItem(
      at: tags.appendingPathComponent("Tasks.xcdatamodeld"),
      to: folder.appendingPathComponent("plans/Tasks.xcdatamodeld").creatingFolder())
    let sprint = try String(contentsOf: tags.appendingPathComponent("sprint.outline"), encoding: .utf8)
    // Exactly the lines Git.md gives, the binary named by its path.
    try CLI.write([".gitattributes": "*.outline diff=outline\n", "plans/sprint.outline": sprint], in: folder)
    _ = try git(["init", "-q"])
    let outline = CLI.products.appendingPathComponent("outline").path
    _ = try git(["config", "diff.outline.command", "\(outline) diff --git"])
    _ = try git(["add", "."])
    _ = try git(["commit", "-qm", "sprint"])
    let edited =
      sprint
      .replacingOccurrences(of: "title=\"Fix flaky CI\"", with: "title=\"Fix the flaky CI\"")
      .replacingOccurrences(of: "tags=\"urgent backend\"", with: "tags=\"urgent\"")
    try CLI.write(["plans/sprint.outline": edited, "plans/extra.outline": Self.old], in: folder)

    let diff = try git(["diff"])
    #expect(
      diff.stdout.hasPrefix("diff --outline a/plans/sprint.outline b/plans/sprint.outline\n"),
      "\(diff.stdout)")
    #expect(
      diff.stdout.contains(
        #"changed "Ship login" 6:3 -> 6:3: tags "urgent backend" -> "urgent" (removed backend)"#))
    #expect(
      diff.stdout.contains(
        #"changed "Fix the flaky CI" 10:3 -> 10:3: title "Fix flaky CI" -> "Fix the flaky CI""#))
    #expect(!diff.stdout.contains("order"), "no order line: \(diff.stdout)")

    _ = try git(["add", "."])
    _ = try git(["commit", "-qm", "edit"])
    let log = try git(["log", "-p", "--ext-diff", "-1"])
    #expect(
      log.stdout.contains("(removed backend)") && log.stdout.contains("diff --outline a/plans/extra.outline"))
    // A new file: git passes /dev/null for its old side.
    #expect(log.stdout.contains(#"added "Weekend" - -> 2:1: the root (8 items)"#), "\(log.stdout)")
    let plain = try git(["log", "-p", "-1"])
    #expect(!plain.stdout.contains("diff --outline"), "git log runs the driver only with --ext-diff")
  }
}

extension URL {
  /// This URL, with its parent folder made.
  fileprivate func creatingFolder() throws -> URL {
    try FileManager.default.createDirectory(
      at: deletingLastPathComponent(), withIntermediateDirectories: true)
    return self
  }
}
