import Foundation
import TestSupport
import Testing

/// Files that are not outlines, opened in the editor beside them (a model to rename in, the
/// configuration, any XML file a client sends along), get no outline diagnostics; an outline
/// next to them still does. A CRLF document is formatted as `outline fmt` formats it, with LF.
@Suite struct LSPDocumentKindsTests {
  @Test func filesThatAreNotOutlinesGetNoOutlineDiagnostics() throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel">
          <entity name="Tag"><attribute name="colour" optional="YES" attributeType="String"/></entity>
      </model>

      """
    let configuration = "{\"rules\": {\"OL401\": \"off\"}}\n"
    try CLI.write(["M.xcdatamodel/contents": model, ".outline.json": configuration], in: folder)
    let client = try LSPClient.initialized(root: folder)
    defer { _ = client.close() }
    let opened = [
      ("M.xcdatamodel/contents", model), (".outline.json", configuration),
      ("pom.xml", "<project><modelVersion>4.0.0</modelVersion></project>\n"),
    ]
    for (name, text) in opened {
      let uri = folder.appendingPathComponent(name).absoluteString
      client.open(uri, text)
      #expect(client.diagnostics(uri)?["diagnostics"] == [], "\(name)")
    }
    let outline = folder.appendingPathComponent("t.outline").absoluteString
    client.open(outline, "<outline model=\"M.xcdatamodel\">\n  <Tag shade=\"red\"/>\n</outline>\n")
    let codes = client.diagnostics(outline)?["diagnostics"]?.arrayValue?.compactMap {
      $0["code"]?.stringValue
    }
    #expect(codes == ["OL203"], "\(String(describing: codes))")
  }

  /// Whole-document formatting of a CRLF document: exactly `outline fmt`'s text (whose lines end
  /// with LF), and no edit edge between a CR and its LF.
  @Test func formattingACRLFDocumentGivesFmtsText() throws {
    let folder = try CLI.temporaryFolder()
    let text =
      "<outline version=\"1\">\r\n<Item   title=\"a\" order=\"0\"/>\r\n   <Item title=\"b\" order=\"1\">\r\n<Item title=\"c\" order=\"0\"/></Item>\r\n</outline>\r\n"
    try CLI.write(["t.outline": text], in: folder)
    _ = try CLI.run("outline", ["fmt", "t.outline"], in: folder)
    let formatted = try String(contentsOf: folder.appendingPathComponent("t.outline"), encoding: .utf8)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    let client = try LSPClient.initialized(root: folder)
    defer { _ = client.close() }
    client.open(uri, text)
    _ = client.diagnostics(uri)
    let reply = client.request(
      "textDocument/formatting",
      ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 2, "insertSpaces": true]])
    let edits = reply?["result"]?.arrayValue ?? []
    #expect(!edits.isEmpty)
    let lines = text.components(separatedBy: "\r\n")
    for edit in edits {
      for end in ["start", "end"] {
        let line = edit["range"]?[end]?["line"]?.intValue ?? 0
        let character = edit["range"]?[end]?["character"]?.intValue ?? 0
        #expect(character <= (lines[line] as NSString).length, "an edge inside a CRLF: \(edit)")
      }
    }
    #expect(Array(applyLSPEdits(edits, to: text).utf8) == Array(formatted.utf8))
    #expect(!formatted.contains("\r"))
  }

  /// Completion follows the client: snippets (`$1` tab stops, format 2) only for a client that
  /// says it takes them, else the same text as plain text; an attribute offered right after a
  /// value's closing quote comes with the space before it.
  @Test(arguments: [true, false])
  func completionFollowsSnippetSupport(snippets: Bool) throws {
    let client = try LSPClient.initialized(
      root: nil,
      capabilities: ["textDocument": ["completion": ["completionItem": ["snippetSupport": .bool(snippets)]]]])
    defer { _ = client.close() }
    let uri = "file:///tmp/outline-completion-kinds/t.outline"
    let text = "<outline version=\"1\">\n  <Item order=\"0\"/>\n</outline>\n"
    client.open(uri, text)
    _ = client.diagnostics(uri)
    // Right after `order="0"`, before `/>`.
    let reply = client.request(
      "textDocument/completion",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 17]])
    let items = reply?["result"]?["items"]?.arrayValue ?? []
    let title = items.first { $0["label"]?.stringValue == "title" }
    #expect(title?["insertText"]?.stringValue == (snippets ? " title=\"$1\"" : " title=\"\""), "\(items)")
    #expect(title?["insertTextFormat"]?.intValue == (snippets ? 2 : 1))
    #expect(items.allSatisfy { snippets || !($0["insertText"]?.stringValue ?? "").contains("$") })
  }
}
