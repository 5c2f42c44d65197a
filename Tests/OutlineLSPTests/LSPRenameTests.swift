import Foundation
import OutlineJSON
import TestSupport
import Testing

/// `textDocument/rename` of a model property through the server in process:
/// one workspace edit over the model and the workspace folder's outlines.
@Suite struct LSPRenameTests {
  static let document = """
    <outline version="1" model="Tasks.xcdatamodeld" modelVersion="Tasks 4" title="Home" owner="me">
      <Task title="A" order="0" owner="me" summary="s"/>
    </outline>

    """

  @Test func renamingAnAttributeEditsTheModelAndTheFolder() async throws {
    let folder = try VersionsFixture.project()
    try CLI.write(["a.outline": Self.document, "b.outline": Self.document], in: folder)
    let uri = folder.appendingPathComponent("a.outline").absoluteString
    let client = ServerClient()
    defer { client.endInput() }
    _ = await client.request(
      "initialize",
      [
        "processId": .null, "rootUri": .string(folder.absoluteString),
        "capabilities": ["workspace": ["workspaceEdit": ["documentChanges": true]]],
      ])
    client.notify("initialized", [:])
    client.open(uri, Self.document)
    _ = await client.diagnostics(uri, version: 1)
    let position: JSONValue = ["line": 1, "character": 42]
    let prepared = await client.request(
      "textDocument/prepareRename", ["textDocument": ["uri": .string(uri)], "position": position])
    #expect(prepared?["result"]?["placeholder"]?.stringValue == "summary", "\(String(describing: prepared))")
    let reply = await client.request(
      "textDocument/rename",
      ["textDocument": ["uri": .string(uri)], "position": position, "newName": "details"])
    let changes = reply?["result"]?["documentChanges"]?.arrayValue ?? []
    let byURI = Dictionary(
      uniqueKeysWithValues: changes.map { ($0["textDocument"]!["uri"]!.stringValue!, $0) })
    let renamed = Self.document.replacingOccurrences(of: "summary=", with: "details=")
    #expect(applyLSPEdits(byURI[uri]?["edits"]?.arrayValue ?? [], to: Self.document) == renamed)
    #expect(byURI[uri]?["textDocument"]?["version"] == 1)
    let other = folder.appendingPathComponent("b.outline").absoluteString
    #expect(applyLSPEdits(byURI[other]?["edits"]?.arrayValue ?? [], to: Self.document) == renamed)
    // Files that are not open carry `"version": null`: the member is required (LSP 3.17), and
    // vscode-languageclient rejects an edit without it.
    #expect(byURI[other]?["textDocument"]?["version"] == .null, "\(String(describing: byURI[other]))")
    let contents = folder.appendingPathComponent("Tasks.xcdatamodeld/Tasks 4.xcdatamodel/contents")
    let model = try String(contentsOf: contents, encoding: .utf8)
    let declaration = #"name="details" optional="YES" attributeType="String" renamingIdentifier="note""#
    let modelEdits = byURI[contents.absoluteString]?["edits"]?.arrayValue ?? []
    #expect(applyLSPEdits(modelEdits, to: model).contains(declaration))
    #expect(byURI[contents.absoluteString]?["textDocument"]?["version"] == .null)
    // v1.outline (for 'Tasks') is left for migrate.
    #expect(byURI.count == 3, "\(byURI.keys.sorted())")
    let clash = await client.request(
      "textDocument/rename",
      ["textDocument": ["uri": .string(uri)], "position": position, "newName": "title"])
    #expect(
      clash?["error"]?["message"]?.stringValue?.contains("already has a property named 'title'") == true)
  }
}
