import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

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
