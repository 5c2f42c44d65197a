import Foundation
import OutlineJSON
import Testing

/// Markup edits inside an item in process, as an editor sends them (an item
/// typed a character at a time, a line deleted, items pasted): each
/// version's published diagnostics equal those of a server that opens the
/// same text, and the symbols follow the new items.
@Suite(.serialized) struct LSPMarkupEditTests {
  static let uri = "file:///tmp/outline-markup-edit/doc.outline"

  static let text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item title="Groceries" order="0">
        <Item title="Milk" order="0" xml:id="milk"/>
        <Item title="Eggs" order="1"/>
      </Item>
      <Item title="Work" order="1"/>
    </outline>

    """

  @Test func markupEditsPublishWhatAFreshOpenWould() async throws {
    let client = ServerClient()
    _ = await client.initialize()
    client.open(Self.uri, Self.text)
    #expect(await client.diagnostics(Self.uri, version: 1)?["diagnostics"]?.arrayValue == [])
    var lines = Self.text.components(separatedBy: "\n")
    // (line, character, end line, end character, text): "Bread" typed before Eggs a character at a
    // time (not well formed until its last), Milk's line deleted, two items pasted, one taking Milk's id.
    let typed = "<Item title=\"Bread\" order=\"2\"/>\n    "
    var edits: [(Int, Int, Int, Int, String)] = typed.enumerated().map { offset, character in
      offset < typed.count - 5 ? (4, 4 + offset, 4, 4 + offset, String(character)) : (4, 0, 4, 0, "")
    }
    edits.removeAll { $0.4.isEmpty }
    edits.append((4, 4 + typed.count - 5, 4, 4 + typed.count - 5, "\n    "))
    edits += [
      (3, 0, 4, 0, ""),
      (
        4, 4, 4, 4,
        "<Item title=\"Tea\" order=\"3\"/>\n    <Item title=\"Jam\" order=\"4\" xml:id=\"milk\"/>\n    "
      ),
    ]
    for (index, (line, character, endLine, endCharacter, text)) in edits.enumerated() {
      let version = index + 2
      client.notify(
        "textDocument/didChange",
        [
          "textDocument": ["uri": .string(Self.uri), "version": .int(version)],
          "contentChanges": [
            [
              "range": [
                "start": ["line": .int(line), "character": .int(character)],
                "end": ["line": .int(endLine), "character": .int(endCharacter)],
              ],
              "text": .string(text),
            ]
          ],
        ])
      let joined = lines.joined(separator: "\n")
      var scalars = Array(joined.utf16)
      func offset(_ line: Int, _ character: Int) -> Int {
        lines[0..<line].reduce(0) { $0 + $1.utf16.count + 1 } + character
      }
      scalars.replaceSubrange(
        offset(line, character)..<offset(endLine, endCharacter), with: Array(text.utf16))
      lines = String(decoding: scalars, as: UTF16.self).components(separatedBy: "\n")
      let published = await client.diagnostics(Self.uri, version: version)?["diagnostics"]
      let fresh = ServerClient()
      _ = await fresh.initialize()
      fresh.open(Self.uri, lines.joined(separator: "\n"))
      #expect(published != nil)
      #expect(published == (await fresh.diagnostics(Self.uri, version: 1)?["diagnostics"]), "edit \(index)")
      await fresh.close()
    }
    // Bread (2), Tea (3), Jam (4) and Eggs (1) under Groceries, in that order: no child 0; Jam took
    // Milk's id, free since Milk's line was deleted.
    let symbols =
      await client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])?[
        "result"]?
      .arrayValue ?? []
    #expect(
      symbols.first?["children"]?.arrayValue?.map(\.["name"]) == ["Bread", "Tea", "Jam", "Eggs"],
      "\(lines.joined(separator: "\n"))")
    #expect(await client.request("shutdown")?["result"] == .null)
    #expect(await client.close() == 0)
  }

  /// A deletion inside an item that takes a comment with it, longer than the text before the
  /// comment: the server goes on (it read the comment's old place out of bounds: a debug build
  /// stopped) and publishes what a fresh open would.
  @Test func deletingACommentInsideAnItem() async throws {
    let text =
      "<outline><Item order=\"0\"><Item order=\"0\"/><!-- c --><Item order=\"1\" title=\"a long long long long long title\"/></Item></outline>\n"
    let client = ServerClient()
    _ = await client.initialize()
    client.open(Self.uri, text)
    _ = await client.diagnostics(Self.uri, version: 1)
    let from = (text.range(of: "<Item order=\"0\"/>")!.lowerBound.utf16Offset(in: text))
    let to = (text.range(of: "</Item></outline>")!.lowerBound.utf16Offset(in: text))
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [
          [
            "range": [
              "start": ["line": 0, "character": .int(from)], "end": ["line": 0, "character": .int(to)],
            ],
            "text": "",
          ]
        ],
      ])
    let published = await client.diagnostics(Self.uri, version: 2)?["diagnostics"]
    let fresh = ServerClient()
    _ = await fresh.initialize()
    let deleted =
      text.range(of: "<Item order=\"0\"/>")!.lowerBound..<text.range(of: "</Item></outline>")!.lowerBound
    fresh.open(Self.uri, text.replacingCharacters(in: deleted, with: ""))
    #expect(published != nil)
    #expect(published == (await fresh.diagnostics(Self.uri, version: 1)?["diagnostics"]))
    await fresh.close()
    #expect(await client.request("shutdown")?["result"] == .null)
    #expect(await client.close() == 0)
  }
}
