import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Code lenses in process: each lens carries a command the server advertises
/// and runs through `workspace/executeCommand`, with its edit sent back by
/// `workspace/applyEdit`, as an editor does when the lens is clicked.
@Suite(.serialized) struct LSPCodeLensCommandTests {
  static let uri = "file:///tmp/lsp-code-lens-commands.outline"
  static let text = """
    <outline>
      <Item title="A" order="0">
        <Item title="a1" order="1"/>
        <Item title="a2" order="1"/>
      </Item>
      <Item title="B" order="1">
        <Item title="b1" order="0"/>
      </Item>
    </outline>

    """

  /// Runs a lens's command as a client does: executeCommand, then the applyEdit the server asks for.
  func click(_ lens: JSONValue?, _ client: ServerClient) async -> (reply: JSONValue?, applied: [JSONValue]) {
    let command = lens?["command"]
    let reply = await client.request(
      "workspace/executeCommand",
      ["command": command?["command"] ?? .null, "arguments": command?["arguments"] ?? .null])
    let apply = await client.wait { $0["method"] == "workspace/applyEdit" }
    if let id = apply?["id"] { client.send(["jsonrpc": "2.0", "id": id, "result": ["applied": true]]) }
    return (reply, workspaceEdits(apply?["params"]?["edit"]))
  }

  @Test func clickingTheLensesRenumbersTheSubtreeAndDeletesTheItem() async throws {
    let client = ServerClient()
    let initialize = await client.initialize()
    let commands = initialize?["result"]?["capabilities"]?["executeCommandProvider"]?["commands"]?.arrayValue
    #expect(commands?.contains("outline.delete") == true && commands?.contains("outline.renumber") == true)
    client.open(Self.uri, Self.text)
    _ = await client.diagnostics(Self.uri, version: 1)
    let lenses =
      await client.request("textDocument/codeLens", ["textDocument": ["uri": .string(Self.uri)]])?["result"]?
      .arrayValue ?? []
    let counts = lenses.filter { $0["command"] != nil && $0["command"] != .null }
    #expect(counts.map { $0["command"]?["title"] } == ["5 descendants", "2 descendants", "1 descendant"])
    #expect(counts.allSatisfy { $0["command"]?["command"] == "outline.renumber" })

    // A's descendants lens renumbers a1 and a2.
    let renumber = await click(counts[1], client)
    let renumbered = applyLSPEdits(renumber.applied, to: Self.text)
    #expect(
      renumbered == Self.text.replacingOccurrences(of: "\"a1\" order=\"1\"", with: "\"a1\" order=\"0\""))
    #expect(workspaceEdits(renumber.reply?["result"]) == renumber.applied)

    // B's deletion lens, resolved, deletes B and what it contains.
    let deletion = try #require(
      lenses.first {
        ($0["command"] == nil || $0["command"] == .null) && $0["range"]?["start"]?["line"] == 5
      })
    let resolved = await client.request("codeLens/resolve", deletion)?["result"]
    #expect(resolved?["command"]?["title"] == "Delete removes 2 objects")
    #expect(resolved?["command"]?["command"] == "outline.delete")
    let delete = await click(resolved, client)
    let deleted = applyLSPEdits(delete.applied, to: Self.text)
    #expect(!deleted.contains("\"B\"") && !deleted.contains("b1") && deleted.contains("a2"))

    // A lens whose item is gone answers with an error, not an edit.
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [["text": .string(deleted)]],
      ])
    let stale = await client.request(
      "workspace/executeCommand",
      ["command": "outline.delete", "arguments": resolved?["command"]?["arguments"] ?? .null])
    #expect(stale?["error"]?["message"]?.stringValue?.hasPrefix("No item starts at line 6") == true)
  }
}
