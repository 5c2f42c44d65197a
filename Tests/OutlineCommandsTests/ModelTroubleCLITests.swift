import Foundation
import TestSupport
import Testing

/// A model that `--model` or `.outline.json` names and that cannot be read is trouble of the
/// run, exit 2, in every command that reads outlines (CLI.md's exit status table), not a pass
/// (`fmt --check` passed) or a document error (exit 1). A rule for a code that is no document's
/// is a configuration problem.
@Suite struct ModelTroubleCLITests {
  static let document = "<outline version=\"1\"><Item order=\"0\" title=\"a\"/></outline>\n"

  @Test(arguments: [
    ["fmt", "--check", "--model", "nope.xcdatamodel", "a.outline"],
    ["fmt", "--model", "nope.xcdatamodel", "a.outline"],
    ["convert", "--model", "nope.xcdatamodel", "a.outline", "-o", "a.json"],
    ["export", "--model", "nope.xcdatamodel", "a.outline", "-o", "a.opml"],
    ["render", "--html", "--model", "nope.xcdatamodel", "a.outline", "-o", "a.html"],
  ])
  func anUnreadableModelNamedOnTheCommandLineIsExit2(arguments: [String]) throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.document], in: folder)
    let run = try CLI.run("outline", arguments, in: folder)
    #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("'nope.xcdatamodel' does not exist"), "\(run.stderr)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8) == Self.document)
    for output in ["a.json", "a.opml", "a.html"] {
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(output).path))
    }
  }

  @Test(arguments: [["fmt", "--check", "a.outline"], ["convert", "a.outline", "-o", "a.json"]])
  func anUnreadableModelTheConfigurationNamesIsExit2(arguments: [String]) throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["a.outline": Self.document, ".outline.json": #"{"model": "missing.xcdatamodel"}"#], in: folder)
    let run = try CLI.run("outline", arguments, in: folder)
    #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
  }

  /// A model the configuration names outside the project (OL106) is refused as one it names
  /// that cannot be read is: the run's trouble, exit 2, in every command, saying why; nothing
  /// written. The document's own `model` attribute pointing out stays its error (exit 1).
  @Test(arguments: [
    ["outline-lint", "proj/a.outline"], ["outline", "lint", "proj/a.outline"],
    ["outline", "lint", "--fix", "proj/a.outline"], ["outline", "fmt", "--check", "proj/a.outline"],
    ["outline", "fmt", "proj/a.outline"], ["outline", "convert", "proj/a.outline", "-o", "proj/a.json"],
    ["outline", "convert", "proj/b.outline.json", "-o", "proj/b.outline"],
    ["outline", "export", "proj/a.outline", "-o", "proj/a.opml"],
    ["outline", "render", "--html", "proj/a.outline", "-o", "proj/a.html"],
    ["outline", "migrate", "proj/a.outline"], ["outline-lint", "proj/b.outline.json"],
  ])
  func aModelTheConfigurationNamesOutsideTheProjectIsExit2(arguments: [String]) throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model><entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/>\
      <attribute name="title" optional="YES" attributeType="String"/></entity></model>
      """
    try CLI.write(
      [
        "models/M.xcdatamodel/contents": model, "proj/a.outline": Self.document,
        "proj/b.outline.json": #"{"children":[{"@entity":"Item","order":0}]}"#,
        "proj/.outline.json": #"{"model": "../models/M.xcdatamodel"}"#,
      ], in: folder)
    let run = try CLI.run(arguments[0], Array(arguments.dropFirst()), in: folder)
    #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
    #expect(
      (run.stdout + run.stderr).contains("The model '../models/M.xcdatamodel' is outside the project"),
      "\(arguments): \(run.stdout)\(run.stderr)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("proj/a.outline"), encoding: .utf8)
        == Self.document)
    for output in ["proj/a.json", "proj/b.outline", "proj/a.opml", "proj/a.html"] {
      #expect(
        !FileManager.default.fileExists(atPath: folder.appendingPathComponent(output).path), "\(output)")
    }
  }

  @Test func newNamesTheCheckOfAModelWithErrorsAsTheShellReadsIt() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "My Model.xcdatamodel/contents":
          "<?xml version=\"1.0\"?>\n<model><entity name=\"A\"/><entity name=\"A\"/></model>\n"
      ], in: folder)
    let run = try CLI.run("outline", ["new", "--model", "My Model.xcdatamodel"], in: folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("`outline model check 'My Model.xcdatamodel'`"), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
  }

  /// Standard input is read once: naming `-` twice is a usage error, not an empty second
  /// document (OL100).
  @Test(arguments: [["outline-lint", "-", "-"], ["outline", "fmt", "-", "-"]])
  func standardInputNamedTwiceIsAUsageError(command: [String]) throws {
    let folder = try CLI.temporaryFolder()
    let run = try CLI.run(command[0], Array(command.dropFirst()), in: folder, input: Self.document)
    #expect(
      run.status == 2 && run.stderr.contains("Standard input (-) can be named once"),
      "\(run.stdout)\(run.stderr)")
    #expect(!run.stdout.contains("OL100"))
  }

  /// `.outline.json` named on the command line is checked as the configuration it is: its own
  /// problems once (OC100), never read as an outline (OL100 "Start tag expected").
  @Test(arguments: [".outline.json", "./.outline.json", "sub/.outline.json"])
  func aConfigurationNamedIsCheckedAsOne(path: String) throws {
    let folder = try CLI.temporaryFolder()
    let config = path == "sub/.outline.json" ? "sub/.outline.json" : ".outline.json"
    try CLI.write([config: #"{"rules": {"OL999": "off"}}"#, "sub/a.outline": Self.document], in: folder)
    let bad = try CLI.run("outline-lint", [path], in: folder)
    #expect(bad.status == 2 && bad.stdout.contains("Unknown rule code 'OL999'"), "\(bad.stdout)")
    #expect(!bad.stdout.contains("OL100"), "\(bad.stdout)")
    try CLI.write([config: #"{"rules": {"OL403": "off"}}"#], in: folder)
    let fine = try CLI.run("outline-lint", [path], in: folder)
    #expect(fine.status == 0 && !fine.stdout.contains("OL100"), "\(fine.stdout)")
    // Checked, so counted and listed: a clean configuration is one file with nothing to say.
    #expect(fine.stdout.contains("0 errors, 0 warnings in 1 file"), "\(fine.stdout)")
    let json = try CLI.run("outline-lint", ["--format", "json", path], in: folder)
    #expect(json.stdout.contains(#""files" : 1"#) || json.stdout.contains(#""files": 1"#), "\(json.stdout)")
    #expect(json.stdout.contains(#""diagnostics": []"#), "\(json.stdout)")
  }
}
