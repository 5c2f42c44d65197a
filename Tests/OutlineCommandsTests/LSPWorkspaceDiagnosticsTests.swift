import Foundation
import OutlineJSON
import TestSupport
import Testing

/// `workspace/diagnostic` over a folder reports what `outline-lint` reports
/// for it, closed files included, streamed as partial results.
@Suite(.serialized) struct LSPWorkspaceDiagnosticsTests {
  static let files = [
    "a.outline":
      "<outline>\n  <Item title=\"a\" order=\"0\"/>\n  <Item title=\"b\" order=\"0\"/>\n</outline>\n",
    "b.outline": "<outline>\n  <Item title=\"fine\" order=\"0\"/>\n</outline>\n",
    "deep/c.outline": "<outline>\n  <Item title=\"c\" order=\"x\" colour=\"red\"/>\n</outline>\n",
    "deep/broken.outline": "<outline>\n  <Item title=\"d\n",
    "skipped/e.outline": "<outline><Item order=\"x\"/></outline>\n",
    ".outline.json": "{\"exclude\": [\"skipped/**\"], \"rules\": {\"OL203\": \"off\"}}",
    "notes.txt": "<outline><Item order=\"x\"/></outline>\n",
  ]

  /// `path code line:column message` for each diagnostic of `outline-lint --format json`.
  static func lint(_ folder: URL) throws -> [String] {
    let run = try CLI.run("outline-lint", ["--format", "json", folder.path])
    let report = try JSONValue.parse(Array(run.stdout.utf8))
    var lines: [String] = []
    for file in report["files"]?.arrayValue ?? [] {
      let path = URL(fileURLWithPath: file["path"]?.stringValue ?? "").standardizedFileURL.path
      for diagnostic in file["diagnostics"]?.arrayValue ?? [] {
        let start = diagnostic["range"]?["start"]
        lines.append(
          "\(path) \(diagnostic["code"]?.stringValue ?? "") \(start?["line"]?.intValue ?? 0):\(start?["column"]?.intValue ?? 0) \(diagnostic["message"]?.stringValue ?? "")"
        )
      }
    }
    return lines.sorted()
  }

  static func lines(_ reports: [JSONValue]) -> [String] {
    var lines: [String] = []
    for report in reports {
      let path = URL(string: report["uri"]?.stringValue ?? "")?.standardizedFileURL.path ?? ""
      for diagnostic in report["items"]?.arrayValue ?? [] {
        let start = diagnostic["range"]?["start"]
        lines.append(
          "\(path) \(diagnostic["code"]?.stringValue ?? "") \((start?["line"]?.intValue ?? 0) + 1):\((start?["character"]?.intValue ?? 0) + 1) \(diagnostic["message"]?.stringValue ?? "")"
        )
      }
    }
    return lines.sorted()
  }

  @Test func theWorkspaceReportIsOutlineLintsReport() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(Self.files, in: folder)
    let expected = try Self.lint(folder)
    #expect(expected.map { $0.split(separator: " ")[1] }.sorted() == ["OL100", "OL300", "OL401"])
    #expect(!expected.contains { $0.contains("skipped") || $0.contains("notes") })

    let client = try LSPClient()
    _ = client.request(
      "initialize",
      ["processId": .null, "rootUri": .string(folder.absoluteString), "capabilities": [:]], timeout: 30)
    client.notify("initialized", [:])
    let reply = client.request("workspace/diagnostic", ["previousResultIds": []], timeout: 30)
    let reports = reply?["result"]?["items"]?.arrayValue ?? []
    #expect(Self.lines(reports) == expected)
    // Four outlines, each reported once, closed files with a null version.
    #expect(reports.count == 4)
    #expect(reports.allSatisfy { $0["version"] == .null && $0["kind"] == "full" && $0["resultId"] != nil })

    // Asked again with the result ids: every file is unchanged.
    let previous = JSONValue.array(
      reports.map { ["uri": $0["uri"] ?? .null, "value": $0["resultId"] ?? .null] })
    let again = client.request("workspace/diagnostic", ["previousResultIds": previous], timeout: 30)
    #expect(
      again?["result"]?["items"]?.arrayValue?.map { $0["kind"] } == Array(repeating: "unchanged", count: 4))

    // An open document is reported as the editor has it, with its version.
    let b = folder.appendingPathComponent("b.outline").absoluteString
    client.open(b, "<outline>\n  <Item title=\"fine\" order=\"3\"/>\n</outline>\n", version: 7)
    _ = client.diagnostics(b)
    let withOpen = client.request("workspace/diagnostic", ["previousResultIds": previous], timeout: 30)
    let open = withOpen?["result"]?["items"]?.arrayValue?.first { $0["uri"] == .string(b) }
    #expect(open?["version"] == .int(7))
    #expect(open?["items"]?.arrayValue?.map { $0["code"] } == ["OL402"])

    // Partial results: the reports arrive in `$/progress`, the reply is empty.
    let partial = client.request(
      "workspace/diagnostic", ["previousResultIds": [], "partialResultToken": "p1"], timeout: 30)
    #expect(partial?["result"]?["items"] == [])
    var streamed: [JSONValue] = []
    while let progress = client.wait(
      timeout: 2, { $0["method"] == "$/progress" && $0["params"]?["token"] == "p1" })
    {
      streamed += progress["params"]?["value"]?["items"]?.arrayValue ?? []
    }
    #expect(streamed.count == 4)
  }
}
