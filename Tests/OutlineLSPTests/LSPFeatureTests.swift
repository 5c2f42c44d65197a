import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@Suite(.serialized) struct LSPFeatureTests {
  static let uri = "file:///tmp/lsp-test.outline"

  func session(_ text: String = lspDocument, encodings: [String] = []) async -> ServerClient {
    let client = ServerClient()
    _ = await client.initialize(encodings: encodings)
    client.open(Self.uri, text)
    return client
  }

  @Test func positionEncodingsCountAstralCharacters() async throws {
    let text = "<outline>\n  <Item title=\"😀😀\" order=\"5\"/>\n</outline>\n"
    let utf16 = await session(text)
    let d16 = await utf16.diagnostics(Self.uri)?["diagnostics"]?.arrayValue?.first
    #expect(d16?["code"] == "OL402")
    // `  <Item title="😀😀" order="` : 2 + 13 + 2*2 + 9 = 28 UTF-16 units.
    #expect(d16?["range"]?["start"]?["character"] == .int(28))
    let utf8 = await session(text, encodings: ["utf-8", "utf-16"])
    let d8 = await utf8.diagnostics(Self.uri)?["diagnostics"]?.arrayValue?.first
    #expect(d8?["range"]?["start"]?["character"] == .int(32))
  }

  /// A UTF-8 client's change at a column inside a character is made at its start: the
  /// document stays UTF-8, so formatting it afterwards keeps every item (with the character
  /// cut, the carried-over analysis saw no error and the formatter stopped at the cut).
  @Test func aChangeInsideACharacterNeverCutsIt() async throws {
    let text = "<outline title=\"W\">\n  <Item title=\"G😀\" order=\"0\"/>\n</outline>\n"
    let client = await session(text, encodings: ["utf-8"])
    #expect(await client.diagnostics(Self.uri, version: 1)?["diagnostics"] == [])
    // `  <Item title="G` is 16 bytes: column 17 is the emoji's second byte.
    let inside: JSONValue = ["line": 1, "character": 17]
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [["range": ["start": inside, "end": inside], "text": "Z"]],
      ])
    #expect(await client.diagnostics(Self.uri, version: 2)?["diagnostics"] == [])
    let edits =
      await client.request(
        "textDocument/formatting",
        ["textDocument": ["uri": .string(Self.uri)], "options": ["tabSize": 2, "insertSpaces": true]])?[
        "result"]?.arrayValue ?? []
    let edited = text.replacingOccurrences(of: "G😀", with: "GZ😀")
    #expect(
      applyLSPEdits(edits, to: edited, unit: .utf8)
        == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline title=\"W\">\n  <Item order=\"0\" title=\"GZ😀\"/>\n</outline>\n"
    )
  }

  @Test func incrementalEditsBreakThenFixTheOrderInvariant() async throws {
    let client = await session()
    #expect(await client.diagnostics(Self.uri, version: 1)?["diagnostics"] == [])
    // Line 6 `    <Item title="Eggs" order="1"/>`: change 1 -> 0 (duplicate).
    let position: JSONValue = ["line": 6, "character": 30]
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [
          ["range": ["start": position, "end": ["line": 6, "character": 31]], "text": "0"]
        ],
      ])
    let broken = await client.diagnostics(Self.uri, version: 2)?["diagnostics"]?.arrayValue ?? []
    #expect(broken.map { $0["code"] } == ["OL401"])
    #expect(broken.first?["relatedInformation"]?.arrayValue?.count == 1)
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 3],
        "contentChanges": [
          ["range": ["start": position, "end": ["line": 6, "character": 31]], "text": "1"]
        ],
      ])
    #expect(await client.diagnostics(Self.uri, version: 3)?["diagnostics"] == [])
    // Pull diagnostics agree.
    let pulled = await client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(Self.uri)]])
    #expect(pulled?["result"]?["items"] == [])
  }

  /// A tree of 80,000 items is written in two halves at once: the result is
  /// the whole tree, every item once, in order, nested as in the document.
  @Test func largeTreesKeepEverySymbolInOrder() async throws {
    let text = GeneratedOutline.twoLevels(parents: 400, children: 199)
    let client = await ServerClient.withOpenDocument(Self.uri, text)
    let symbols =
      await client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])?[
        "result"]?
      .arrayValue ?? []
    #expect(symbols.count == 400)
    #expect(symbols.map(\.["name"]) == (0..<400).map { .string("p\($0)") })
    for (parent, symbol) in symbols.enumerated() {
      let children = symbol["children"]?.arrayValue ?? []
      guard children.count == 199 else {
        Issue.record("parent \(parent) has \(children.count) children")
        break
      }
      #expect(children.last?["detail"] == "Item #198")
      #expect(children.last?["children"] == nil)
      #expect(children.first?["range"]?["start"]?["line"] == .int(2 + parent * 201))
    }
    await client.close()
  }

  @Test func deepChainGetsSymbolsAndFolds() async throws {
    let depth = 20_000
    let text =
      "<outline>\n" + (0..<depth).map { "<Item order=\"0\" title=\"\($0)\">\n" }.joined()
      + String(repeating: "</Item>\n", count: depth) + "</outline>\n"
    let client = await session(text)
    #expect(await client.diagnostics(Self.uri)?["diagnostics"] == [])
    let folds = await client.request(
      "textDocument/foldingRange", ["textDocument": ["uri": .string(Self.uri)]])
    #expect(folds?["result"]?.arrayValue?.count == depth + 1)
    // Symbols nest 20,000 deep: the client keeps that reply as text.
    let symbols = await client.request(
      "textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])
    let raw = symbols?["raw"]?.stringValue ?? ""
    #expect(raw.components(separatedBy: "\"selectionRange\"").count - 1 == depth)
  }

  @Test func cancelledRequestsGetOneReply() async throws {
    let client = await session()
    let id = client.nextRequestID()
    client.send([
      "jsonrpc": "2.0", "id": .int(id), "method": "textDocument/documentSymbol",
      "params": ["textDocument": ["uri": .string(Self.uri)]],
    ])
    client.notify("$/cancelRequest", ["id": .int(id)])
    let reply = await client.wait { $0["id"] == .int(id) }
    #expect(reply?["result"] != nil || reply?["error"]?["code"] == .int(-32800))
    await client.expectNothing(for: 1) { $0["id"] == .int(id) }
  }
}

@Suite(.serialized) struct LSPWorkspaceTests {
  @Test func modelChangesRevalidateOpenDocuments() async throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model><entity name="Tag"><attribute name="name" attributeType="String"/></entity></model>
      """
    try CLI.write(["M.xcdatamodel/contents": model], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = ServerClient()
    _ = await client.initialize()
    client.open(uri, "<outline model=\"M.xcdatamodel\"><Tag name=\"a\" colour=\"red\"/></outline>\n")
    #expect(await client.diagnostics(uri)?["diagnostics"]?.arrayValue?.map { $0["code"] } == ["OL203"])
    // The model gains the attribute: the open document is checked again.
    try CLI.write(
      [
        "M.xcdatamodel/contents": model.replacingOccurrences(
          of: "<attribute name=\"name\" attributeType=\"String\"/>",
          with:
            "<attribute name=\"name\" attributeType=\"String\"/><attribute name=\"colour\" optional=\"YES\" attributeType=\"String\"/>"
        )
      ],
      in: folder)
    client.notify(
      "workspace/didChangeWatchedFiles",
      [
        "changes": [
          ["uri": .string(folder.appendingPathComponent("M.xcdatamodel/contents").absoluteString), "type": 2]
        ]
      ])
    #expect(await client.diagnostics(uri)?["diagnostics"] == [])
  }

}

@Suite(.serialized) struct LSPUnderAttackTests {
  @Test func wrongParamsOutOfRangeEditsAndAFloodOfChanges() async throws {
    let uri = "file:///tmp/attack.outline"
    let client = await ServerClient.withOpenDocument(uri, lspDocument)
    // Wrong param types.
    #expect(
      await client.request("textDocument/hover", ["textDocument": ["uri": 42], "position": ["line": "a"]])?[
        "error"]?["code"] == .int(-32602))
    #expect(
      await client.request(
        "textDocument/codeAction", ["textDocument": ["uri": .string(uri)], "range": "nope"])?[
          "error"]?["code"] == .int(-32602))
    #expect(
      await client.request(
        "textDocument/rename",
        ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 0]])?["error"]?["code"]
        == .int(-32602))
    // An edit far outside the document is clamped to its end, not a crash.
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(uri), "version": 2],
        "contentChanges": [
          [
            "range": ["start": ["line": 9999, "character": 9999], "end": ["line": 99999, "character": 0]],
            "text": "<!-- tail -->\n",
          ]
        ],
      ])
    #expect(await client.diagnostics(uri, version: 2) != nil)
    // A flood of changes, each cancelled request answered once, the last version wins.
    var ids: [Int] = []
    for version in 3...300 {
      client.notify(
        "textDocument/didChange",
        [
          "textDocument": ["uri": .string(uri), "version": .int(version)],
          "contentChanges": [
            ["text": .string(lspDocument.replacingOccurrences(of: "Work", with: "Work \(version)"))]
          ],
        ])
      let id = client.nextRequestID()
      ids.append(id)
      client.send([
        "jsonrpc": "2.0", "id": .int(id), "method": "textDocument/documentSymbol",
        "params": ["textDocument": ["uri": .string(uri)]],
      ])
      client.notify("$/cancelRequest", ["id": .int(id)])
    }
    for id in ids { #expect(await client.wait { $0["id"] == .int(id) } != nil, "no reply to \(id)") }
    #expect(await client.diagnostics(uri, version: 300)?["diagnostics"] == [])
    let hover = await client.request(
      "textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": ["line": 8, "character": 4]])
    #expect(hover?["result"]?["contents"]?["value"]?.stringValue?.contains("Work 300") == true)
    #expect(await client.request("shutdown")?["result"] == .null)
  }
}
