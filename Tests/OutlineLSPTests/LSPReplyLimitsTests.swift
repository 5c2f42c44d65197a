import Foundation
import OutlineJSON
import TestSupport
import Testing

/// the server in process: a 100,000-deep document and a title of megabytes get replies that
/// every client's JSON decoder reads (LanguageServer.md, "Bounded replies"): no message nests
/// deeper than 100 levels, no label is longer than 200 characters and no string longer than 8,192.
@Suite(.serialized) struct LSPReplyLimitsTests {
  static let jsonDepth = 100
  static let labelCharacters = 200
  static let textCharacters = 8192

  /// The message's text: as it came when it nested too deep for the client to parse it, else
  /// written back. It must decode at the documented depth; returns its shape.
  static func check(_ message: JSONValue?, _ what: String) throws -> JSONShape {
    let message = try #require(message, "\(what): no reply")
    let bytes = message["raw"]?.stringValue.map { Array($0.utf8) } ?? message.serializedBytes()
    let shape = JSONShape(bytes)
    // Decoded by a decoder that refuses deeper nesting (a reply of symbols of 100,000 items is
    // only measured: decoding it in a debug build takes minutes).
    if bytes.count < 1 << 20 {
      #expect(throws: Never.self, "\(what)") { try JSONValue.parse(bytes, maximumDepth: jsonDepth) }
    }
    #expect(shape.depth <= jsonDepth, "\(what): \(shape)")
    #expect(shape.longestString <= textCharacters, "\(what): \(shape)")
    return shape
  }

  @Test func aDeepDocumentGetsRepliesEveryDecoderReads() async throws {
    let depth = 100_000
    let uri = "file:///tmp/deep.outline"
    var text = "<outline>\n"
    text.reserveCapacity(depth * 40)
    for level in 0..<depth { text += "<Item order=\"0\" title=\"t\(level)\">\n" }
    text += String(repeating: "</Item>\n", count: depth) + "</outline>\n"
    let client = await ServerClient.withOpenDocument(uri, text)
    defer { client.endInput() }
    let document: JSONValue = ["textDocument": ["uri": .string(uri)]]
    let symbols = await client.request("textDocument/documentSymbol", document)
    _ = try Self.check(symbols, "documentSymbol")
    let raw = symbols?["raw"]?.stringValue ?? symbols?.serialized() ?? ""
    // Every item is there.
    #expect(raw.components(separatedBy: "\"selectionRange\"").count - 1 == depth)
    // Streamed: each batch too.
    let streamed = await client.request(
      "textDocument/documentSymbol",
      ["textDocument": ["uri": .string(uri)], "partialResultToken": "deep"])
    #expect(streamed?["result"] == [])
    var batches = 0
    while let progress = await client.take(
      within: 1,
      {
        $0["method"] == "$/progress" && $0["params"]?["token"] == "deep"
          || $0["raw"]?.stringValue?.contains("\"$/progress\"") == true
      })
    {
      _ = try Self.check(progress, "a $/progress batch of symbols")
      batches += 1
    }
    #expect(batches == 1)
    // The deepest item: its selection ranges, its hover.
    let line = depth
    let position: JSONValue = ["line": .int(line), "character": 2]
    let selection = await client.request(
      "textDocument/selectionRange",
      ["textDocument": ["uri": .string(uri)], "positions": [position]])
    _ = try Self.check(selection, "selectionRange")
    let hover = await client.request(
      "textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": position])
    _ = try Self.check(hover, "hover")
    let markdown = hover?["result"]?["contents"]?["value"]?.stringValue ?? ""
    #expect(markdown.contains("in: t0 › t1 › … › t\(depth - 7)"))
    _ = try Self.check(await client.request("textDocument/foldingRange", document), "foldingRange")
  }

  @Test func aTitleOfMegabytesIsCutInEveryLabel() async throws {
    let uri = "file:///tmp/long.outline"
    let title = String(repeating: "Groceries and more ", count: 200_000)
    let name = "Item" + String(repeating: "x", count: 100_000)
    let text = """
      <outline>
        <Item order="0" title="\(title)">
          <Item order="0" title="Milk"/>
        </Item>
        <\(name) order="1">
        </
      """
    let client = await ServerClient.withOpenDocument(uri, text)
    defer { client.endInput() }
    let document: JSONValue = ["textDocument": ["uri": .string(uri)]]
    let symbols = await client.request("textDocument/documentSymbol", document)
    #expect(try Self.check(symbols, "documentSymbol").longestString <= Self.labelCharacters + 3)
    let label = String(title.prefix(Self.labelCharacters)) + "..."
    #expect(symbols?["result"]?.arrayValue?.first?["name"]?.stringValue == label)
    let folds = await client.request("textDocument/foldingRange", document)
    #expect(try Self.check(folds, "foldingRange").longestString <= Self.labelCharacters + 20)
    let position: JSONValue = ["line": 1, "character": 4]
    let at: JSONValue = ["textDocument": ["uri": .string(uri)], "position": position]
    _ = try Self.check(await client.request("textDocument/hover", at), "hover")
    _ = try Self.check(
      await client.request(
        "textDocument/codeAction",
        [
          "textDocument": ["uri": .string(uri)], "range": ["start": position, "end": position],
          "context": ["diagnostics": []],
        ]), "codeAction")
    _ = try Self.check(await client.request("textDocument/codeLens", document), "codeLens")
    // After `</`: the end tag of the long element, its label cut, its edit whole.
    let closing = await client.request(
      "textDocument/completion",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 5, "character": 4]])
    let item = closing?["result"]?["items"]?.arrayValue?.first
    #expect(item?["label"]?.stringValue == "</" + String(name.prefix(Self.labelCharacters - 2)) + "...")
    #expect(item?["textEdit"]?["newText"]?.stringValue == "</\(name)>")
  }
}
