import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// The editing features in process, through the real the server: what
/// is advertised, and one request of each kind as a client sends it.
@Suite struct LSPEditorFeaturesTests {
  static let uri = "file:///tmp/outline-editor-features/list.outline"
  static let text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline>
      <Item title="Café ☕" order="0">
        <Item title="😀" order="0"/>
      </Item>
      <Item title="b" order="1"/>
    </outline>

    """

  static func position(_ line: Int, _ character: Int) -> JSONValue {
    ["line": .int(line), "character": .int(character)]
  }

  static var document: JSONValue { ["uri": .string(uri)] }

  @Test func capabilitiesNameTheLegendAndTriggers() async throws {
    let client = ServerClient()
    let capabilities = await client.initialize()?["result"]?["capabilities"]
    for provider in [
      "selectionRangeProvider", "linkedEditingRangeProvider", "documentHighlightProvider",
      "documentRangeFormattingProvider",
    ] {
      #expect(capabilities?[provider] == .bool(true), "\(provider)")
    }
    #expect(capabilities?["codeLensProvider"]?["resolveProvider"] == .bool(true))
    #expect(capabilities?["completionProvider"]?["triggerCharacters"]?.arrayValue?.contains("/") == true)
    #expect(capabilities?["inlayHintProvider"] != nil)
    #expect(capabilities?["documentOnTypeFormattingProvider"]?["firstTriggerCharacter"] == .string(">"))
    let tokens = capabilities?["semanticTokensProvider"]
    #expect(tokens?["full"] == .bool(true) && tokens?["range"] == .bool(true))
    #expect(tokens?["legend"]?["tokenTypes"]?.arrayValue?.first == .string("type"))
    #expect(tokens?["legend"]?["tokenModifiers"]?.arrayValue?.count == 3)
    _ = await client.request("shutdown")
    client.notify("exit", [:])
    #expect(await client.close() == 0)
  }

  @Test func requestsOverStdioInUTF8() async throws {
    let client = ServerClient()
    _ = await client.initialize(encodings: ["utf-8"])
    client.open(Self.uri, Self.text)
    _ = await client.diagnostics(Self.uri, version: 1)
    // Semantic tokens: five numbers a token, columns in bytes (`"Café ☕"` is 11 bytes with its quotes).
    let data =
      await client.request("textDocument/semanticTokens/full", ["textDocument": Self.document])?["result"]?[
        "data"]?.arrayValue?.compactMap(\.intValue) ?? []
    #expect(data.count % 5 == 0 && data.count > 30)
    let lengths = stride(from: 2, to: data.count, by: 5).map { data[$0] }
    #expect(lengths.contains(11))
    // Code lens, then its resolution.
    let lenses =
      await client.request("textDocument/codeLens", ["textDocument": Self.document])?["result"]?.arrayValue
      ?? []
    #expect(lenses.count == 3)
    let unresolved = try #require(lenses.first { $0["command"] == nil })
    let resolved = await client.request("codeLens/resolve", unresolved)?["result"]
    #expect(resolved?["command"]?["title"]?.stringValue == "Delete removes 2 objects")
    // Inlay hints.
    let hints =
      await client.request(
        "textDocument/inlayHint",
        ["textDocument": Self.document, "range": ["start": Self.position(0, 0), "end": Self.position(9, 0)]])?[
        "result"]?.arrayValue ?? []
    #expect(hints.compactMap { $0["label"]?.stringValue } == ["1", "1.1", "2"])
    // Linked editing from the end tag's name.
    let linked = await client.request(
      "textDocument/linkedEditingRange", ["textDocument": Self.document, "position": Self.position(4, 5)])?[
        "result"]
    #expect(linked?["ranges"]?.arrayValue?.map { $0["start"]?["line"]?.intValue } == [2, 4])
    // A request for a closed document is an error, never a dead server.
    let closed = await client.request(
      "textDocument/selectionRange",
      ["textDocument": ["uri": "file:///nowhere.outline"], "positions": [Self.position(0, 0)]])
    #expect(closed?["error"]?["code"]?.intValue == -32602)
    _ = await client.request("shutdown")
    client.notify("exit", [:])
    #expect(await client.close() == 0)
  }

  @Test func typingACloseTagAndFormattingIt() async throws {
    let client = await ServerClient.withOpenDocument(Self.uri, Self.text)
    // Type `</` on a new line inside the first item, indented too far.
    var text = Self.text.replacingOccurrences(
      of: "  </Item>\n  <Item title=\"b\"", with: "      </\n  </Item>\n  <Item title=\"b\"")
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2], "contentChanges": [["text": .string(text)]],
      ])
    let completion = await client.request(
      "textDocument/completion", ["textDocument": Self.document, "position": Self.position(4, 8)])?["result"]
    let item = try #require(completion?["items"]?.arrayValue?.first)
    #expect(item["label"]?.stringValue == "</Item>")
    text = applyLSPEdits([try #require(item["textEdit"])], to: text)
    #expect(text.contains("\n      </Item>\n  </Item>\n"))
    // The server formats the tag just closed when `>` is typed: here the end tag it completed.
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 3], "contentChanges": [["text": .string(text)]],
      ])
    let typed =
      await client.request(
        "textDocument/onTypeFormatting",
        [
          "textDocument": Self.document, "position": Self.position(4, 13), "ch": ">",
          "options": ["tabSize": 2, "insertSpaces": true],
        ])?["result"]?.arrayValue ?? []
    #expect(applyLSPEdits(typed, to: text).contains("\n  </Item>\n  </Item>\n"))
  }

  /// Typing `<` and `</` inside a comment and a CDATA section, as the trigger characters
  /// ask for completion there: nothing is offered (no element, and no end tag that would
  /// close an element from inside a comment).
  @Test func nothingIsCompletedInsideACommentOrCDATA() async throws {
    let client = await ServerClient.withOpenDocument(Self.uri, Self.text)
    let text = Self.text.replacingOccurrences(
      of: "  <Item title=\"b\" order=\"1\"/>",
      with: "  <!-- < </ -->\n  <Item title=\"b\" order=\"1\"><![CDATA[ < </ ]]></Item>")
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2], "contentChanges": [["text": .string(text)]],
      ])
    for (line, character) in [(5, 8), (5, 11), (6, 39), (6, 42)] {
      let completion = await client.request(
        "textDocument/completion",
        ["textDocument": Self.document, "position": Self.position(line, character)])?["result"]
      #expect(completion?["items"] == [], "\(line):\(character)")
    }
  }
}
