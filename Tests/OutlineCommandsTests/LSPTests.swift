import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

let lspDocument = """
  <?xml version="1.0" encoding="UTF-8"?>
  <outline version="1" title="Weekend">
    <!-- a
         comment -->
    <Item title="Groceries 😀" order="0" xml:id="g">
      <Item title="Milk" order="0"/>
      <Item title="Eggs" order="1"/>
    </Item>
    <Item title="Work" order="1"/>
  </outline>

  """

@Suite(.serialized) struct LSPLifecycleTests {
  @Test func lifecycleAndErrorCodes() throws {
    let client = try LSPClient()
    let early = client.request("textDocument/hover", [:])
    #expect(early?["error"]?["code"] == .int(-32002))
    let initialized = client.initialize()
    let capabilities = initialized?["result"]?["capabilities"]
    #expect(capabilities?["positionEncoding"] == "utf-16")
    #expect(capabilities?["textDocumentSync"]?["change"] == .int(2))
    for provider in [
      "foldingRangeProvider", "documentSymbolProvider", "hoverProvider", "definitionProvider",
      "referencesProvider", "documentFormattingProvider",
    ] {
      #expect(capabilities?[provider] == .bool(true), "\(provider)")
    }
    #expect(client.request("outline/nothing")?["error"]?["code"] == .int(-32601))
    #expect(
      client.request("textDocument/hover", ["textDocument": ["uri": "file:///nope.outline"]])?["error"]?[
        "code"] == .int(-32602))
    client.open("file:///t.outline", lspDocument)
    _ = client.diagnostics("file:///t.outline")
    #expect(
      client.request("textDocument/hover", ["textDocument": ["uri": "file:///t.outline"], "position": "x"])?[
        "error"]?["code"] == .int(-32602))
    client.notify("unknown/notification", [:])
    #expect(client.request("shutdown")?["result"] == .null)
    client.notify("exit", .null)
    #expect(client.close() == 0)
  }

  /// A client that sends a request, `shutdown` and `exit` without waiting
  /// (or whose input simply ends) still gets every reply, `shutdown`'s last.
  @Test func requestsBeforeShutdownAndExitAreAnswered() throws {
    let uri = "file:///tmp/hurry.outline"
    let client = try LSPClient.withOpenDocument(uri, lspDocument)
    client.send([
      "jsonrpc": "2.0", "id": 7, "method": "textDocument/documentSymbol",
      "params": ["textDocument": ["uri": .string(uri)]],
    ])
    client.send(["jsonrpc": "2.0", "id": 8, "method": "shutdown"])
    client.notify("exit", .null)
    #expect(client.close() == 0)
    #expect(client.wait(timeout: 5) { $0["id"] == 7 }?["result"]?.arrayValue?.isEmpty == false)
    #expect(client.wait(timeout: 5) { $0["id"] == 8 }?["result"] == .null)
  }

  @Test func exitWithoutShutdownIsOne() throws {
    let client = try LSPClient()
    _ = client.initialize()
    client.notify("exit", .null)
    #expect(client.close() == 1)
  }

  @Test func garbageFramesAreAnsweredOrLoggedAndTheServerKeepsServing() throws {
    let client = try LSPClient()
    _ = client.initialize()
    client.sendRaw(Array("Content-Length: 7\r\n\r\n{nope!}".utf8))
    #expect(client.wait { $0["error"]?["code"] == .int(-32700) } != nil)
    client.sendRaw(Array("Content-Length: 2\r\n\r\n[]".utf8))
    #expect(client.wait { $0["error"]?["code"] == .int(-32600) } != nil)
    client.sendRaw(Array("Content-Length: 4\r\n\r\n\"hi\"".utf8))
    #expect(client.wait { $0["error"]?["code"] == .int(-32600) } != nil)
    client.sendRaw(Array("Content-Type: x\r\n\r\n".utf8))
    client.sendRaw(Array("Content-Length: -5\r\n\r\n".utf8))
    client.sendRaw(Array("Content-Length: 1099511627776\r\n\r\n".utf8))
    client.sendRaw(Array("Content-Length: 3\r\nContent-Length: 4\r\n\r\n".utf8))
    // A line without a colon is skipped like an unknown header; the same length twice is one.
    client.sendRaw(Array("X-Trace\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\n[]".utf8))
    #expect(client.wait { $0["error"]?["code"] == .int(-32600) } != nil)
    // Still serving, in order.
    #expect(client.request("shutdown")?["result"] == .null)
    client.notify("exit", .null)
    #expect(client.close() == 0)
  }
}

@Suite(.serialized) struct LSPFeatureTests {
  static let uri = "file:///tmp/lsp-test.outline"

  func session(_ text: String = lspDocument, encodings: [String] = []) throws -> LSPClient {
    let client = try LSPClient()
    _ = client.initialize(encodings: encodings)
    client.open(Self.uri, text)
    return client
  }

  @Test func positionEncodingsCountAstralCharacters() throws {
    let text = "<outline>\n  <Item title=\"😀😀\" order=\"5\"/>\n</outline>\n"
    let utf16 = try session(text)
    let d16 = utf16.diagnostics(Self.uri)?["diagnostics"]?.arrayValue?.first
    #expect(d16?["code"] == "OL402")
    // `  <Item title="😀😀" order="` : 2 + 13 + 2*2 + 9 = 28 UTF-16 units.
    #expect(d16?["range"]?["start"]?["character"] == .int(28))
    let utf8 = try session(text, encodings: ["utf-8", "utf-16"])
    let d8 = utf8.diagnostics(Self.uri)?["diagnostics"]?.arrayValue?.first
    #expect(d8?["range"]?["start"]?["character"] == .int(32))
  }

  /// A UTF-8 client's change at a column inside a character is made at its start: the
  /// document stays UTF-8, so formatting it afterwards keeps every item (with the character
  /// cut, the carried-over analysis saw no error and the formatter stopped at the cut).
  @Test func aChangeInsideACharacterNeverCutsIt() throws {
    let text = "<outline title=\"W\">\n  <Item title=\"G😀\" order=\"0\"/>\n</outline>\n"
    let client = try session(text, encodings: ["utf-8"])
    #expect(client.diagnostics(Self.uri, version: 1)?["diagnostics"] == [])
    // `  <Item title="G` is 16 bytes: column 17 is the emoji's second byte.
    let inside: JSONValue = ["line": 1, "character": 17]
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [["range": ["start": inside, "end": inside], "text": "Z"]],
      ])
    #expect(client.diagnostics(Self.uri, version: 2)?["diagnostics"] == [])
    let edits =
      client.request(
        "textDocument/formatting",
        ["textDocument": ["uri": .string(Self.uri)], "options": ["tabSize": 2, "insertSpaces": true]])?[
        "result"]?.arrayValue ?? []
    let edited = text.replacingOccurrences(of: "G😀", with: "GZ😀")
    #expect(
      applyLSPEdits(edits, to: edited, unit: .utf8)
        == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline title=\"W\">\n  <Item order=\"0\" title=\"GZ😀\"/>\n</outline>\n"
    )
  }

  @Test func incrementalEditsBreakThenFixTheOrderInvariant() throws {
    let client = try session()
    #expect(client.diagnostics(Self.uri, version: 1)?["diagnostics"] == [])
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
    let broken = client.diagnostics(Self.uri, version: 2)?["diagnostics"]?.arrayValue ?? []
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
    #expect(client.diagnostics(Self.uri, version: 3)?["diagnostics"] == [])
    // Pull diagnostics agree.
    let pulled = client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(Self.uri)]])
    #expect(pulled?["result"]?["items"] == [])
  }

  /// A tree of 80,000 items is written in two halves at once: the result is
  /// the whole tree, every item once, in order, nested as in the document.
  @Test func largeTreesKeepEverySymbolInOrder() throws {
    let text = GeneratedOutline.twoLevels(parents: 400, children: 199)
    let client = try LSPClient.withOpenDocument(Self.uri, text)
    let symbols =
      client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])?["result"]?
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
    _ = client.close()
  }

  @Test func deepChainGetsSymbolsAndFolds() throws {
    let depth = 20_000
    let text =
      "<outline>\n" + (0..<depth).map { "<Item order=\"0\" title=\"\($0)\">\n" }.joined()
      + String(repeating: "</Item>\n", count: depth) + "</outline>\n"
    let client = try session(text)
    #expect(client.diagnostics(Self.uri)?["diagnostics"] == [])
    let folds = client.request("textDocument/foldingRange", ["textDocument": ["uri": .string(Self.uri)]])
    #expect(folds?["result"]?.arrayValue?.count == depth + 1)
    // Symbols nest 20,000 deep: the client keeps that reply as text.
    let symbols = client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])
    let raw = symbols?["raw"]?.stringValue ?? ""
    #expect(raw.components(separatedBy: "\"selectionRange\"").count - 1 == depth)
  }

  @Test func cancelledRequestsGetOneReply() throws {
    let client = try session()
    let id = client.nextRequestID()
    client.send([
      "jsonrpc": "2.0", "id": .int(id), "method": "textDocument/documentSymbol",
      "params": ["textDocument": ["uri": .string(Self.uri)]],
    ])
    client.notify("$/cancelRequest", ["id": .int(id)])
    let reply = client.wait { $0["id"] == .int(id) }
    #expect(reply?["result"] != nil || reply?["error"]?["code"] == .int(-32800))
    #expect(client.wait(timeout: 1) { $0["id"] == .int(id) } == nil)
  }
}

@Suite(.serialized) struct LSPWorkspaceTests {
  @Test func modelChangesRevalidateOpenDocuments() throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model><entity name="Tag"><attribute name="name" attributeType="String"/></entity></model>
      """
    try CLI.write(["M.xcdatamodel/contents": model], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, "<outline model=\"M.xcdatamodel\"><Tag name=\"a\" colour=\"red\"/></outline>\n")
    #expect(client.diagnostics(uri)?["diagnostics"]?.arrayValue?.map { $0["code"] } == ["OL203"])
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
    #expect(client.diagnostics(uri)?["diagnostics"] == [])
  }

}

@Suite(.serialized) struct LSPUnderAttackTests {
  @Test func wrongParamsOutOfRangeEditsAndAFloodOfChanges() throws {
    let uri = "file:///tmp/attack.outline"
    let client = try LSPClient.withOpenDocument(uri, lspDocument)
    // Wrong param types.
    #expect(
      client.request("textDocument/hover", ["textDocument": ["uri": 42], "position": ["line": "a"]])?[
        "error"]?["code"] == .int(-32602))
    #expect(
      client.request("textDocument/codeAction", ["textDocument": ["uri": .string(uri)], "range": "nope"])?[
        "error"]?["code"] == .int(-32602))
    #expect(
      client.request(
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
    #expect(client.diagnostics(uri, version: 2) != nil)
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
    for id in ids { #expect(client.wait(timeout: 30) { $0["id"] == .int(id) } != nil, "no reply to \(id)") }
    #expect(client.diagnostics(uri, version: 300)?["diagnostics"] == [])
    let hover = client.request(
      "textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": ["line": 8, "character": 4]])
    #expect(hover?["result"]?["contents"]?["value"]?.stringValue?.contains("Work 300") == true)
    #expect(client.request("shutdown")?["result"] == .null)
  }
}

/// A long editing session: 10,000 random edits (inserts of markup, quotes,
/// non-ASCII and astral characters, deletions, some at positions inside a
/// surrogate pair or past the end), with requests and cancellations mixed
/// in. The server answers throughout, and its resident memory does not
/// grow over the last 5,000 edits.
@Suite(.serialized, .enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped))) struct LSPSoakTests
{
  /// The server's resident set size in bytes (Linux /proc).
  static func residentBytes(_ pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
  }

  @Test func tenThousandRandomEditsKeepMemoryFlat() throws {
    let uri = "file:///tmp/soak.outline"
    let client = try LSPClient.withOpenDocument(uri, lspDocument)
    var random = SeededGenerator(seed: 0x5EED)
    let snippets = [
      "<Item order=\"3\" title=\"x\"/>", "\"", "<", ">", "&amp;", "é", "😀", "\n", " order=\"9\"", "</Item>",
      "<!-- c -->", "xml:id=\"a\"",
    ]
    var text = lspDocument
    var samples: [Int] = []
    for version in 2...10_001 {
      let source = SourceText(text)
      let lineCount = source.lines.lineCount
      func position() -> JSONValue {
        let line = Int.random(in: 0...(lineCount + 1), using: &random)
        return ["line": .int(line), "character": .int(Int.random(in: 0...60, using: &random))]
      }
      var change: JSONValue
      if version % 500 == 0 || text.utf8.count > 4 * lspDocument.utf8.count {
        text = lspDocument
        change = ["text": .string(text)]
      } else {
        let start = position()
        let insert = Bool.random(using: &random)
        let newText = insert ? snippets.randomElement(using: &random)! : ""
        var end = start
        if !insert {
          end = [
            "line": start["line"]!,
            "character": .int(start["character"]!.intValue! + Int.random(in: 1...5, using: &random)),
          ]
        }
        change = ["range": ["start": start, "end": end], "text": .string(newText)]
        text = applyLSPEdits(
          [["range": ["start": start, "end": end], "newText": .string(newText)]], to: text)
      }
      client.notify(
        "textDocument/didChange",
        ["textDocument": ["uri": .string(uri), "version": .int(version)], "contentChanges": [change]])
      if version % 7 == 0 {
        let id = client.nextRequestID()
        let method = [
          "textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/hover",
          "textDocument/codeAction", "textDocument/completion",
        ][version % 5]
        client.send([
          "jsonrpc": "2.0", "id": .int(id), "method": .string(method),
          "params": [
            "textDocument": ["uri": .string(uri)], "position": position(),
            "range": ["start": position(), "end": position()], "context": ["diagnostics": []],
          ],
        ])
        if version % 3 == 0 { client.notify("$/cancelRequest", ["id": .int(id)]) }
        #expect(
          client.wait(timeout: 30) { $0["id"] == .int(id) } != nil, "no reply to \(method) at \(version)")
      }
      if version % 1000 == 1 {
        #expect(client.diagnostics(uri, version: version) != nil, "no diagnostics for version \(version)")
        samples.append(Self.residentBytes(client.process.processIdentifier))
      }
    }
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(uri), "version": 10_002],
        "contentChanges": [["text": .string(lspDocument)]],
      ])
    #expect(client.diagnostics(uri, version: 10_002)?["diagnostics"] == [])
    // Samples after 1, 1001, ..., 10001 edits. Allocators (and AddressSanitizer's)
    // settle over the first half; over the second half, 5,000 edits, memory
    // must not grow: a leak of 1 KB an edit would add 5 MB.
    let settled = samples[5]
    let peak = samples[5...].max()!
    #expect(
      peak - settled < 4 << 20,
      "resident memory grew from \(settled >> 20) MB to \(peak >> 20) MB: \(samples.map { $0 >> 20 })")
    print("soak: resident MB after every 1000 edits: \(samples.map { $0 >> 20 })")
    #expect(client.request("shutdown")?["result"] == .null)
  }
}
