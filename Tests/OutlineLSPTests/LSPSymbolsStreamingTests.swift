import Foundation
import OutlineJSON
import TestSupport
import Testing

/// the server streams documentSymbol when the client passes a
/// partialResultToken: `$/progress` batches, then an empty reply; the
/// batches joined are what the same request without a token returns.
@Suite struct LSPSymbolsStreamingTests {
  @Test func partialResultsJoinToTheWholeResult() async throws {
    let uri = "file:///tmp/streamed.outline"
    let client = await ServerClient.withOpenDocument(
      uri, GeneratedOutline.twoLevels(parents: 3000, children: 1))
    defer { client.endInput() }
    let whole = await client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(uri)]])
    let expected = whole?["result"]?.arrayValue ?? []
    #expect(expected.count == 3000)
    let streamed = await client.request(
      "textDocument/documentSymbol", ["textDocument": ["uri": .string(uri)], "partialResultToken": "s1"])
    #expect(streamed?["result"] == [])
    // The batches were written before the reply, so they have all arrived.
    var batches: [[JSONValue]] = []
    while let progress = await client.take(
      within: 0.5, { $0["method"] == "$/progress" && $0["params"]?["token"] == "s1" })
    {
      batches.append(progress["params"]?["value"]?.arrayValue ?? [])
    }
    #expect(batches.count == 3)
    #expect(batches.flatMap { $0 } == expected)
  }
}
