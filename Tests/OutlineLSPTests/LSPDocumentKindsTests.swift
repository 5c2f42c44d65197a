import Foundation
import TestSupport
import Testing

/// Files that are not outlines, opened in the editor beside them (a model to rename in, the
/// configuration, any XML file a client sends along), get no outline diagnostics; an outline
/// next to them still does. Completion follows the client's snippet support.
@Suite struct LSPDocumentKindsTests {
  @Test func filesThatAreNotOutlinesGetNoOutlineDiagnostics() async throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel">
          <entity name="Tag"><attribute name="colour" optional="YES" attributeType="String"/></entity>
      </model>

      """
    let configuration = "{\"rules\": {\"OL401\": \"off\"}}\n"
    try CLI.write(["M.xcdatamodel/contents": model, ".outline.json": configuration], in: folder)
    let client = await ServerClient.initialized(root: folder)
    defer { client.endInput() }
    let opened = [
      ("M.xcdatamodel/contents", model), (".outline.json", configuration),
      ("pom.xml", "<project><modelVersion>4.0.0</modelVersion></project>\n"),
    ]
    for (name, text) in opened {
      let uri = folder.appendingPathComponent(name).absoluteString
      client.open(uri, text)
      #expect(await client.diagnostics(uri)?["diagnostics"] == [], "\(name)")
    }
    let outline = folder.appendingPathComponent("t.outline").absoluteString
    client.open(outline, "<outline model=\"M.xcdatamodel\">\n  <Tag shade=\"red\"/>\n</outline>\n")
    let codes = await client.diagnostics(outline)?["diagnostics"]?.arrayValue?.compactMap {
      $0["code"]?.stringValue
    }
    #expect(codes == ["OL203"], "\(String(describing: codes))")
  }

  /// Completion follows the client: snippets (`$1` tab stops, format 2) only for a client that
  /// says it takes them, else the same text as plain text; an attribute offered right after a
  /// value's closing quote comes with the space before it.
  @Test(arguments: [true, false])
  func completionFollowsSnippetSupport(snippets: Bool) async throws {
    let client = await ServerClient.initialized(
      root: nil,
      capabilities: ["textDocument": ["completion": ["completionItem": ["snippetSupport": .bool(snippets)]]]])
    defer { client.endInput() }
    let uri = "file:///tmp/outline-completion-kinds/t.outline"
    let text = "<outline version=\"1\">\n  <Item order=\"0\"/>\n</outline>\n"
    client.open(uri, text)
    _ = await client.diagnostics(uri)
    // Right after `order="0"`, before `/>`.
    let reply = await client.request(
      "textDocument/completion",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 17]])
    let items = reply?["result"]?["items"]?.arrayValue ?? []
    let title = items.first { $0["label"]?.stringValue == "title" }
    #expect(title?["insertText"]?.stringValue == (snippets ? " title=\"$1\"" : " title=\"\""), "\(items)")
    #expect(title?["insertTextFormat"]?.intValue == (snippets ? 2 : 1))
    #expect(items.allSatisfy { snippets || !($0["insertText"]?.stringValue ?? "").contains("$") })
  }
}
