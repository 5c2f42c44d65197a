import Foundation
import OutlineCore
import OutlineJSON
import Testing

@testable import OutlineCommands

/// How the output formats tell a path that could not be checked from a file that was
/// checked but whose fix could not be written.
@Suite struct LintRunFormatTests {
  static let source = SourceText("<outline version=\"1\"><Item order=\"0\"/><Item order=\"0\"/></outline>\n")

  /// One checked file whose fix could not be written, and one missing path.
  static let run = LintRun(
    reports: [
      FileReport(
        path: "fix.outline", source: source,
        diagnostics: [Diagnostic(.duplicateOrder, "Order 0 is used twice", at: TextRange(start: 50, end: 51))]
      )
    ],
    problems: [
      RunProblem(path: "fix.outline", message: "'fix.outline' is read-only; not changed", checked: true),
      RunProblem(path: "gone.outline", message: "'gone.outline' does not exist"),
    ])

  @Test func theTextSummaryCountsEachApart() {
    #expect(
      TextFormat.summary(Self.run)
        == "1 error, 0 warnings in 1 file; 1 path could not be checked; 1 fix could not be written")
    var unfixedOnly = Self.run
    unfixedOnly.problems.removeLast()
    #expect(TextFormat.summary(unfixedOnly) == "1 error, 0 warnings in 1 file; 1 fix could not be written")
  }

  @Test func jsonListsACheckedFileOnceWithItsError() throws {
    let bytes = JSONFormat.bytes(Self.run)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    let files = try #require(document["files"] as? [[String: Any]])
    #expect(files.map { $0["path"] as? String } == ["fix.outline", "gone.outline"])
    #expect(files[0]["error"] as? String == "'fix.outline' is read-only; not changed")
    #expect((files[0]["diagnostics"] as? [Any])?.count == 1)
    #expect(files[1]["error"] as? String == "'gone.outline' does not exist")
    #expect((files[1]["diagnostics"] as? [Any])?.isEmpty == true)
    let summary = try #require(document["summary"] as? [String: Int])
    #expect(summary["files"] == 1 && summary["unchecked"] == 1 && summary["unfixed"] == 1)
  }

  @Test func jsonNamesTheRunsTool() throws {
    for tool in ["outline-lint", "outline model check"] {
      let bytes = JSONFormat.bytes(LintRun(reports: [], tool: tool))
      let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
      #expect(document["tool"] as? String == tool)
    }
    #expect(LintRun(reports: []).tool == "outline-lint")
  }

  /// Files a, c and e checked; b (a name that is not UTF-8) and d could not be: every format
  /// lists them where they stand among the files, and SARIF's `uri` is b's own bytes.
  static let interleaved = LintRun(
    reports: ["a.outline", "c.outline", "e.outline"].map {
      FileReport(
        path: $0, source: source,
        diagnostics: [Diagnostic(.duplicateOrder, "Order 0 is used twice", at: TextRange(start: 50, end: 51))]
      )
    },
    problems: [
      RunProblem(
        path: "b\\xFF.outline",
        message: "cannot read 'b\\xFF.outline': file names that are not UTF-8 are not supported",
        bytes: Array("b".utf8) + [0xFF] + Array(".outline".utf8), position: 1),
      RunProblem(path: "d.outline", message: "'d.outline' does not exist", position: 2),
    ])

  @Test func everyFormatListsProblemsWhereTheyStand() throws {
    let bytes = JSONFormat.bytes(Self.interleaved)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    let files = try #require(document["files"] as? [[String: Any]])
    #expect(
      files.map { $0["path"] as? String } == [
        "a.outline", "b\\xFF.outline", "c.outline", "d.outline", "e.outline",
      ])
    let github = GitHubFormat.render(Self.interleaved).split(separator: "\n").map {
      $0.split(separator: ",").first.map(String.init) ?? ""
    }
    #expect(
      github == [
        "::error file=a.outline", "::error file=b\\xFF.outline", "::error file=c.outline",
        "::error file=d.outline", "::error file=e.outline",
      ])
    let sarif = try JSONValue.parse(SARIFFormat.bytes(Self.interleaved, workingFolder: Array("/w".utf8)))
    let invocation = sarif["runs"]?.arrayValue?.first?["invocations"]?.arrayValue?.first
    let notifications = invocation?["toolExecutionNotifications"]?.arrayValue ?? []
    #expect(
      notifications.map {
        $0["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue
      } == ["b%FF.outline", "d.outline"])
    // Without positions (a model check's problems): after the files.
    let unplaced = LintRun(reports: Self.interleaved.reports, problems: [RunProblem(path: "x", message: "m")])
    let listed = unplaced.listing(of: unplaced.problems).map { entry -> String in
      switch entry {
      case .report(let index): unplaced.reports[index].path
      case .problem(let problem): problem.path
      }
    }
    #expect(listed == ["a.outline", "c.outline", "e.outline", "x"])
  }

  /// SARIF's driver and GitHub's titles name the command that made the run, and the model
  /// check's SARIF run has a category of its own, so its upload never replaces the lint's.
  @Test func sarifAndGitHubNameTheCommand() throws {
    for (tool, category) in [("outline-lint", nil), ("outline model check", "outline-model-check/")] {
      var run = Self.run
      run.tool = tool
      let sarifRun = try JSONValue.parse(SARIFFormat.bytes(run, workingFolder: Array("/w".utf8)))["runs"]?
        .arrayValue?.first
      #expect(sarifRun?["tool"]?["driver"]?["name"]?.stringValue == tool)
      #expect(sarifRun?["automationDetails"]?["id"]?.stringValue == category)
      #expect(GitHubFormat.render(run).contains("::error file=gone.outline,title=\(tool)::"))
    }
  }
}
