import Foundation
import OutlineJSON
import TestSupport
import Testing

/// From an outline to its model and back.
@Suite(.serialized) struct LSPModelNavigationTests {
  @Test func linkDefinitionAndReferencesFromTheModelFile() async throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model>
        <entity name="Tag">
          <attribute name="colour" optional="YES" attributeType="String"/>
        </entity>
      </model>
      """
    try CLI.write(
      [
        "M.xcdatamodel/contents": model,
        "closed.outline": "<outline model=\"M.xcdatamodel\">\n  <Tag colour=\"blue\"/>\n</outline>\n",
      ], in: folder)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let contents = folder.appendingPathComponent("M.xcdatamodel/contents").absoluteString
    let client = ServerClient()
    _ = await client.request(
      "initialize", ["processId": .null, "rootUri": .string(folder.absoluteString), "capabilities": [:]])
    client.notify("initialized", [:])
    client.open(uri, "<outline model=\"M.xcdatamodel\">\n  <Tag colour=\"red\"/>\n</outline>\n")
    #expect(await client.diagnostics(uri)?["diagnostics"] == [])
    let links = await client.request(
      "textDocument/documentLink", ["textDocument": ["uri": .string(uri)]])
    #expect(
      links?["result"]?.arrayValue?.first?["target"].flatMap { $0.stringValue }.map {
        $0.hasSuffix("M.xcdatamodel/contents")
      } == true)
    let definition = await client.request(
      "textDocument/definition",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 8]])
    #expect(definition?["result"]?["range"]?["start"] == ["line": 3, "character": 21])
    // From the model file (not open): both outlines, the closed one read from disk.
    let references = await client.request(
      "textDocument/references",
      [
        "textDocument": ["uri": .string(contents)], "position": ["line": 3, "character": 23],
        "context": ["includeDeclaration": false],
      ])
    let files = references?["result"]?.arrayValue?.compactMap {
      $0["uri"]?.stringValue?.split(separator: "/").last
    }
    #expect(files?.sorted() == ["closed.outline", "t.outline"])
  }
}
