import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// A broken `.outline.json` (OC100) through the real server: its problems are published for the
/// configuration (open or not) at the places `outline-lint` reports them, each open outline it
/// governs gets one error at its start pointing at the first, `workspace/diagnostic` reports it
/// once, and all of it is withdrawn when the file is fixed.
@Suite(.serialized) struct LSPConfigurationDiagnosticsTests {
  /// Two problems on the second line, after astral and accented characters.
  static let broken =
    "{\"rules\": {\"OL403\": \"off\"},\n  \"exclude\": [\"😀é/**\"], \"rulez\": {}, \"maxSize\": true}\n"
  static let fixed = "{\"rules\": {\"OL403\": \"off\"},\n  \"exclude\": [\"😀é/**\"]}\n"
  static let outline = "<outline>\n  <Item title=\"a\" order=\"0\"/>\n</outline>\n"

  static func folder() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write([".outline.json": broken, "notes/t.outline": outline], in: folder)
    return folder
  }

  /// What `outline-lint --format json` says of the configuration: code, message and UTF-8 offsets.
  static func lintsProblems(in folder: URL) throws -> [[String]] {
    let output = try CLI.run("outline-lint", ["--format", "json", "notes/t.outline"], in: folder)
    let report = try JSONValue.parse(Array(output.stdout.utf8))
    let file = report["files"]?.arrayValue?.first { $0["path"]?.stringValue == ".outline.json" }
    return (file?["diagnostics"]?.arrayValue ?? []).map { diagnostic in
      [
        diagnostic["code"]?.stringValue ?? "", diagnostic["message"]?.stringValue ?? "",
        "\(diagnostic["range"]?["start"]?["offset"]?.intValue ?? -1)",
        "\(diagnostic["range"]?["end"]?["offset"]?.intValue ?? -1)",
      ]
    }
  }

  /// The same of LSP diagnostics in `text`, their positions in `unit` turned back into offsets.
  static func problems(_ diagnostics: JSONValue?, in text: String, unit: ColumnUnit) -> [[String]] {
    let source = SourceText(text)
    func offset(_ position: JSONValue?) -> String {
      let line = position?["line"]?.intValue ?? -1
      let character = position?["character"]?.intValue ?? -1
      return "\(source.offset(of: SourcePosition(line: line, column: character), unit: unit))"
    }
    return (diagnostics?.arrayValue ?? []).map { diagnostic in
      [
        diagnostic["code"]?.stringValue ?? "", diagnostic["message"]?.stringValue ?? "",
        offset(diagnostic["range"]?["start"]), offset(diagnostic["range"]?["end"]),
      ]
    }
  }

  static func codes(_ params: JSONValue?) -> [String] {
    params?["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
  }

  /// Watchers registered (UTF-8 positions): the configuration is published from disk without
  /// being open, the outline points at it, the workspace report has it once; a watched fix
  /// withdraws both.
  @Test func aBrokenConfigurationIsPublishedAndWithdrawnWhenFixed() throws {
    let folder = try Self.folder()
    let expected = try Self.lintsProblems(in: folder)
    #expect(expected.count == 2)
    let client = try LSPClient.initialized(
      root: folder,
      capabilities: [
        "general": ["positionEncodings": ["utf-8"]],
        "workspace": [
          "didChangeWatchedFiles": ["dynamicRegistration": true], "diagnostics": ["refreshSupport": true],
        ],
      ])
    defer { _ = client.close() }
    #expect(client.wait(timeout: 10) { $0["method"] == "client/registerCapability" } != nil)
    let uri = folder.appendingPathComponent("notes/t.outline").absoluteString
    let configurationURI = folder.appendingPathComponent(".outline.json").absoluteString
    client.open(uri, Self.outline)

    let published = client.diagnostics(uri)
    #expect(Self.codes(published) == ["OC100"])
    let pointer = published?["diagnostics"]?.arrayValue?.first
    #expect(
      pointer?["range"] == ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]])
    #expect(
      pointer?["message"]?.stringValue?.hasPrefix("Its configuration '../.outline.json' has 2 problems")
        == true)
    let related = pointer?["relatedInformation"]?.arrayValue?.first
    #expect(related?["location"]?["uri"]?.stringValue == configurationURI)
    // The related location is the first problem's place, as outline-lint reports it.
    let relatedProblem: JSONValue = [
      "code": "OC100", "message": related?["message"] ?? .null,
      "range": related?["location"]?["range"] ?? .null,
    ]
    #expect(Self.problems([relatedProblem], in: Self.broken, unit: .utf8) == Array(expected.prefix(1)))

    // The configuration, not open, gets its problems where outline-lint reports them.
    let own = client.diagnostics(configurationURI)
    #expect(Self.problems(own?["diagnostics"], in: Self.broken, unit: .utf8) == expected)

    // The workspace report has it once, with the outline.
    let report = client.request("workspace/diagnostic", ["previousResultIds": []], timeout: 30)
    let items = report?["result"]?["items"]?.arrayValue ?? []
    #expect(items.compactMap { $0["uri"]?.stringValue } == [configurationURI, uri])
    #expect(Self.problems(items.first?["items"], in: Self.broken, unit: .utf8) == expected)
    #expect(Self.codes(["diagnostics": items.last?["items"] ?? []]) == ["OC100"])

    // Fixed on disk, and the client says so: the pointer and the problems go.
    try CLI.write([".outline.json": Self.fixed], in: folder)
    client.notify(
      "workspace/didChangeWatchedFiles", ["changes": [["uri": .string(configurationURI), "type": 2]]])
    #expect(client.diagnostics(configurationURI)?["diagnostics"] == [])
    #expect(Self.codes(client.diagnostics(uri)) == [])
    let after = client.request("workspace/diagnostic", ["previousResultIds": []], timeout: 30)
    #expect(after?["result"]?["items"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } == [uri])
  }

  /// No watchers (UTF-16 positions): the configuration opened in the editor gets its problems
  /// from its text, a change fixing it clears them, and the outline's pointer goes once the fix
  /// is saved (seen by the modification times on the next request).
  @Test func anOpenConfigurationFollowsItsTextAndTheOutlineItsFile() throws {
    let folder = try Self.folder()
    let expected = try Self.lintsProblems(in: folder)
    let client = try LSPClient()
    defer { _ = client.close() }
    _ = client.initialize()
    let uri = folder.appendingPathComponent("notes/t.outline").absoluteString
    let configurationURI = folder.appendingPathComponent(".outline.json").absoluteString
    client.open(uri, Self.outline)
    #expect(Self.codes(client.diagnostics(uri)) == ["OC100"])
    #expect(
      Self.problems(client.diagnostics(configurationURI)?["diagnostics"], in: Self.broken, unit: .utf16)
        == expected)

    client.open(configurationURI, Self.broken, version: 1)
    let opened = client.diagnostics(configurationURI, version: 1)
    #expect(Self.problems(opened?["diagnostics"], in: Self.broken, unit: .utf16) == expected)
    let pulled = client.request(
      "textDocument/diagnostic", ["textDocument": ["uri": .string(configurationURI)]], timeout: 30)
    #expect(Self.problems(pulled?["result"]?["items"], in: Self.broken, unit: .utf16) == expected)

    // Typing the fix: the configuration's own diagnostics follow the text.
    let line = Self.broken.components(separatedBy: "\n")[1]
    let cut = line.components(separatedBy: ", \"rulez\"")[0].utf16.count
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(configurationURI), "version": 2],
        "contentChanges": [
          [
            "range": [
              "start": ["line": 1, "character": .int(cut)],
              "end": ["line": 1, "character": .int(line.utf16.count - 1)],
            ],
            "text": "",
          ]
        ],
      ])
    #expect(client.diagnostics(configurationURI, version: 2)?["diagnostics"] == [])

    // Saved: the next request sees the file changed, and the outline's pointer goes.
    try CLI.write([".outline.json": Self.fixed], in: folder)
    _ = client.request(
      "textDocument/hover",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 4]], timeout: 30)
    #expect(Self.codes(client.diagnostics(uri)) == [])
    client.notify("textDocument/didClose", ["textDocument": ["uri": .string(configurationURI)]])
    #expect(client.diagnostics(configurationURI)?["diagnostics"] == [])
  }
}
