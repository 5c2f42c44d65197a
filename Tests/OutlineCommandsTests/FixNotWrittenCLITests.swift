import Foundation
import TestSupport
import Testing

/// `--fix` on a file it may not write: the file was checked, so its diagnostics are reported
/// once, in every format, and the run says the fix (not the check) failed; exit 2.
@Suite struct FixNotWrittenCLITests {
  static let broken = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item order="0" title="a"/>
      <Item order="0" title="b"/>
    </outline>

    """

  /// A folder holding `fix.outline` (OL401, fixable) made read-only (0444).
  func readOnlyFile() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["fix.outline": Self.broken], in: folder)
    chmod(folder.appendingPathComponent("fix.outline").path, 0o444)
    return folder
  }

  @Test func theSummarySaysTheFixWasNotWritten() throws {
    let folder = try readOnlyFile()
    let run = try CLI.run("outline-lint", ["--fix", "fix.outline"], in: folder)
    #expect(run.status == 2, "\(run)")
    #expect(run.stderr == "outline-lint: 'fix.outline' is read-only; not changed\n")
    #expect(run.stdout.components(separatedBy: "error[OL401]").count == 2, "\(run.stdout)")
    #expect(
      run.stdout.hasSuffix("\n1 error, 0 warnings in 1 file; 1 fix could not be written\n"), "\(run.stdout)")
    #expect(!run.stdout.contains("could not be checked"))
    #expect(
      try String(contentsOf: folder.appendingPathComponent("fix.outline"), encoding: .utf8) == Self.broken)
  }

  @Test func jsonListsTheFileOnce() throws {
    let folder = try readOnlyFile()
    let run = try CLI.run("outline", ["lint", "--fix", "--format", "json", "fix.outline"], in: folder)
    #expect(run.status == 2, "\(run)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let files = try #require(document["files"] as? [[String: Any]])
    #expect(files.count == 1, "\(files)")
    #expect(files[0]["path"] as? String == "fix.outline")
    #expect(files[0]["error"] as? String == "'fix.outline' is read-only; not changed")
    let diagnostics = try #require(files[0]["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["code"] as? String } == ["OL401"])
    let summary = try #require(document["summary"] as? [String: Int])
    #expect(summary["files"] == 1 && summary["unchecked"] == 0 && summary["unfixed"] == 1, "\(summary)")
  }

  @Test func sarifReportsTheResultsAndOneNotification() throws {
    let folder = try readOnlyFile()
    let run = try CLI.run("outline-lint", ["--fix", "--format", "sarif", "fix.outline"], in: folder)
    #expect(run.status == 2, "\(run)")
    let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let sarif = try #require((log["runs"] as? [[String: Any]])?.first)
    #expect((sarif["results"] as? [[String: Any]])?.map { $0["ruleId"] as? String } == ["OL401"])
    let invocation = try #require((sarif["invocations"] as? [[String: Any]])?.first)
    #expect(invocation["executionSuccessful"] as? Bool == false)
    let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
    #expect(notifications.count == 1)
    #expect(
      (notifications[0]["message"] as? [String: Any])?["text"] as? String
        == "'fix.outline' is read-only; not changed")
  }
}
