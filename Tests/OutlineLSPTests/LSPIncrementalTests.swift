import Foundation
import OutlineJSON
import Testing

/// Keystrokes in a title in process, as an editor sends them: each version's
/// published diagnostics equal those of a server that opens the same text,
/// whether the server carried the previous analysis over or analyzed afresh.
@Suite(.serialized) struct LSPIncrementalTests {
  static let uri = "file:///tmp/outline-incremental/doc.outline"

  static let text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item title="Groceries" order="0">
        <Item title="Milk" order="0"/>
        <Item title="Eggs" order="0"/>
      </Item>
      <Item title="Work" order="1">
        <Item title="Plan &amp; ship" order="0"/>
      </Item>
      <Item title="Garden" order="2"/>
    </outline>

    """

  @Test func typingInTitlesPublishesWhatAFreshOpenWould() async throws {
    let client = ServerClient()
    _ = await client.initialize()
    client.open(Self.uri, Self.text)
    #expect(
      await client.diagnostics(Self.uri, version: 1)?["diagnostics"]?.arrayValue?.map { $0["code"] } == [
        "OL401"
      ])
    var lines = Self.text.components(separatedBy: "\n")
    // (line, character, removed length, text): typing in "Garden" and "Plan &amp; ship" (away from
    // the duplicate; once inside the reference), in "Eggs" (next to it), a character that is not
    // plain ASCII, and a quote that breaks the document, then removed.
    let keystrokes: [(Int, Int, Int, String)] = [
      (9, 21, 0, "s"), (9, 22, 0, "!"), (9, 22, 1, ""), (7, 29, 0, "X"), (7, 29, 1, "Y"), (7, 23, 0, "x"),
      (7, 23, 1, ""), (4, 21, 0, "s"), (6, 15, 0, "é"), (9, 15, 0, "\""), (9, 15, 1, ""),
    ]
    for (index, (line, character, removed, typed)) in keystrokes.enumerated() {
      let version = index + 2
      client.notify(
        "textDocument/didChange",
        [
          "textDocument": ["uri": .string(Self.uri), "version": .int(version)],
          "contentChanges": [
            [
              "range": [
                "start": ["line": .int(line), "character": .int(character)],
                "end": ["line": .int(line), "character": .int(character + removed)],
              ],
              "text": .string(typed),
            ]
          ],
        ])
      var characters = Array(lines[line].utf16)
      characters.replaceSubrange(character..<character + removed, with: Array(typed.utf16))
      lines[line] = String(decoding: characters, as: UTF16.self)
      let published = await client.diagnostics(Self.uri, version: version)?["diagnostics"]
      let fresh = ServerClient()
      _ = await fresh.initialize()
      fresh.open(Self.uri, lines.joined(separator: "\n"))
      #expect(published != nil)
      #expect(
        published == (await fresh.diagnostics(Self.uri, version: 1)?["diagnostics"]), "keystroke \(index)")
      await fresh.close()
    }
    // The tree moved with the text: the symbols carry the titles as typed.
    let symbols =
      await client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])?[
        "result"]?
      .arrayValue ?? []
    #expect(symbols.map(\.["name"]) == ["Groceries", "éWork", "Gardens"])
    #expect(symbols[1]["children"]?.arrayValue?.first?["name"] == "Plan & sYhip")
    #expect(await client.request("shutdown")?["result"] == .null)
    #expect(await client.close() == 0)
  }
}
