import Foundation
import OutlineJSON
import Testing

/// the server's published diagnostics are its pulled ones.
@Suite struct LSPPublishedDiagnosticsTests {
  @Test(arguments: [[], ["utf-8", "utf-16"]])
  func publishedDiagnosticsAreThePulledOnes(encodings: [String]) async throws {
    let uri = "file:///tmp/lsp-published-diagnostics.outline"
    // Duplicate orders (a related location each), items without an order,
    // siblings out of order (OL403, tagged), astral characters, escapes,
    // unknown attributes, and a long line.
    let items = (0..<200).map { index -> String in
      let order = index % 10 < 7 ? " order=\"\(index % 3 == 0 ? 200 - index : index % 5)\"" : ""
      return "<Item title=\"😀 \\ &quot;\(index)&quot;\"\(order) x\(index % 4)=\"v\"/>"
    }
    let text =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n"
      + items.prefix(100).joined(separator: "\n") + "\n" + items.suffix(100).joined()
      + "\n<Item title=\"p\"><Item title=\"b\" order=\"1\"/><Item title=\"a\" order=\"0\"/></Item>\n</outline>\n"
    let client = ServerClient()
    _ = await client.initialize(encodings: encodings)
    client.open(uri, text)
    let published = await client.diagnostics(uri, version: 1)?["diagnostics"]
    let pulled = await client.request("textDocument/diagnostic", ["textDocument": ["uri": .string(uri)]])
    let diagnostics = published?.arrayValue ?? []
    #expect(diagnostics.count > 300)
    #expect(diagnostics.contains { $0["relatedInformation"] != nil })
    #expect(diagnostics.contains { $0["tags"] == [] })
    #expect(pulled?["result"]?["items"] == published)
    #expect(await client.request("shutdown")?["result"] == .null)
    client.notify("exit", .null)
    #expect(await client.close() == 0)
  }
}
