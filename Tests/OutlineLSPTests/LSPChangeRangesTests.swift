import Foundation
import OutlineJSON
import TestSupport
import Testing

/// `didChange` ranges that are not valid ranges, through the real server: each is applied by the
/// rule an editor's text follows (positions clamped into the text, a reversed range read as the
/// range between its positions), so the server's text stays the editor's, as a fresh open of
/// that text shows; a change that cannot be read is said, never silently dropped.
@Suite(.serialized) struct LSPChangeRangesTests {
  static let uri = "file:///tmp/outline-change-ranges/doc.outline"
  static let text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item title="Groceries é😀" order="0">
        <Item title="Milk" order="0"/>
      </Item>
      <Item title="Work" order="1"/>
    </outline>

    """

  /// The editor's side: `change` applied to `text` in UTF-16 units, by LSP's rule (a character
  /// past its line's end is the line's end, a line past the last the text's end), a range whose
  /// end comes first being the range between its positions.
  static func apply(_ change: (Int, Int, Int, Int, String), to text: String) -> String {
    var units = Array(text.utf16)
    var starts = [0]
    for (index, unit) in units.enumerated() where unit == 10 { starts.append(index + 1) }
    func offset(_ line: Int, _ character: Int) -> Int {
      guard line < starts.count else { return units.count }
      let lineEnd = line + 1 < starts.count ? starts[line + 1] - 1 : units.count
      return min(starts[line] + character, lineEnd)
    }
    var (startLine, startCharacter, endLine, endCharacter, typed) = change
    if (endLine, endCharacter) < (startLine, startCharacter) {
      (startLine, startCharacter, endLine, endCharacter) = (endLine, endCharacter, startLine, startCharacter)
    }
    units.replaceSubrange(
      offset(startLine, startCharacter)..<offset(endLine, endCharacter), with: Array(typed.utf16))
    return String(decoding: units, as: UTF16.self)
  }

  static func changeJSON(_ change: (Int, Int, Int, Int, String)) -> JSONValue {
    [
      "range": [
        "start": ["line": .int(change.0), "character": .int(change.1)],
        "end": ["line": .int(change.2), "character": .int(change.3)],
      ],
      "text": .string(change.4),
    ]
  }

  static func formatting(_ client: ServerClient, _ uri: String) async -> JSONValue? {
    await client.request(
      "textDocument/formatting",
      ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 2, "insertSpaces": true]])
  }

  /// What a server that opens `text` afresh publishes and formats it to.
  static func fresh(_ text: String) async throws -> (diagnostics: JSONValue?, formatted: String) {
    let client = ServerClient()
    defer { client.endInput() }
    _ = await client.initialize()
    client.open(uri, text, version: 2)
    let diagnostics = await client.diagnostics(uri, version: 2)?["diagnostics"]
    let edits = await formatting(client, uri)?["result"]?.arrayValue ?? []
    return (diagnostics, applyLSPEdits(edits, to: text))
  }

  @Test func invalidRangesApplyAsTheEditorsTextAndALostChangeIsSaid() async throws {
    let client = ServerClient()
    defer { client.endInput() }
    _ = await client.initialize()
    client.open(Self.uri, Self.text)
    _ = await client.diagnostics(Self.uri, version: 1)
    // One notification mixing valid and invalid ranges (line, character, end line, end character, text).
    let changes: [(Int, Int, Int, Int, String)] = [
      // Valid: a child with a duplicate order (OL401).
      (3, 34, 3, 34, "\n    <Item title=\"Eggs\" order=\"0\"/>"),
      // Reversed: "Groceries" renamed, end given first.
      (2, 24, 2, 15, "Market"),
      // A character past its line's end: line 1's end, so lines 1 and 2 join.
      (1, 200, 2, 2, " "),
      // A start past the last line, an end on an earlier one: from that end (the root's end tag's
      // end) to the text's end, the last line end replaced.
      (99, 0, 6, 10, "\n<!-- end -->\n"),
    ]
    var editor = Self.text
    for change in changes { editor = Self.apply(change, to: editor) }
    #expect(editor.contains("<outline version=\"1\"> <Item title=\"Market é😀\""))
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": .array(changes.map(Self.changeJSON)),
      ])
    let published = await client.diagnostics(Self.uri, version: 2)?["diagnostics"]
    let logged = await client.wait { $0["method"] == "window/logMessage" }
    #expect(logged?["params"]?["type"] == 2)
    #expect(
      logged?["params"]?["message"]?.stringValue?.contains("2 change(s) with a range ending before") == true)
    let formatted = applyLSPEdits(
      await Self.formatting(client, Self.uri)?["result"]?.arrayValue ?? [], to: editor)
    let fresh = try await Self.fresh(editor)
    #expect(published == fresh.diagnostics)
    #expect(published?.arrayValue?.compactMap { $0["code"]?.stringValue } == ["OL401"])
    #expect(formatted == fresh.formatted)
    #expect(formatted.hasSuffix("</outline>\n<!-- end -->\n"))

    // A change that cannot be read: said in a warning, the diagnostics withdrawn, requests refused.
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 3],
        "contentChanges": [
          Self.changeJSON((0, 0, 0, 0, "<!-- a -->")),
          [
            "range": ["start": ["line": "one", "character": 0], "end": ["line": 0, "character": 0]],
            "text": "x",
          ],
        ],
      ])
    let warning = await client.wait { $0["method"] == "window/showMessage" }
    #expect(warning?["params"]?["type"] == 2)
    #expect(
      warning?["params"]?["message"]?.stringValue?.contains("lost the text of doc.outline at version 3")
        == true)
    #expect(await client.diagnostics(Self.uri, version: 3)?["diagnostics"] == [])
    #expect(await Self.formatting(client, Self.uri)?["error"]?["code"] == -32801)
    let pulled = await client.request(
      "textDocument/diagnostic", ["textDocument": ["uri": .string(Self.uri)]])
    #expect(pulled?["result"]?["items"] == [])

    // The whole text again: back in sync, as a fresh open of it.
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 4],
        "contentChanges": [["text": .string(editor)]],
      ])
    #expect(await client.diagnostics(Self.uri, version: 4)?["diagnostics"] == fresh.diagnostics)
    #expect(
      applyLSPEdits(await Self.formatting(client, Self.uri)?["result"]?.arrayValue ?? [], to: editor)
        == fresh.formatted)
  }
}
