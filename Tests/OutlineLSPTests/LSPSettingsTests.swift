import Foundation
import OutlineJSON
import TestSupport
import Testing

/// `workspace/configuration`, `didChangeConfiguration`, `executeCommand` and
/// progress, through the server in process.
@Suite(.serialized) struct LSPSettingsTests {
  static let uri = "file:///tmp/lsp-settings.outline"
  static let misnumbered = "<outline>\n  <Item title=\"a\" order=\"1\"/>\n</outline>\n"

  @Test func settingsAreAskedForAndPushed() async throws {
    let client = ServerClient()
    _ = await client.request(
      "initialize",
      [
        "processId": .null,
        "capabilities": ["workspace": ["configuration": true], "window": ["workDoneProgress": true]],
      ])
    client.notify("initialized", [:])
    let ask = await client.wait { $0["method"] == "workspace/configuration" }
    #expect(ask?["params"]?["items"] == [["section": "outline"]])
    client.open(Self.uri, Self.misnumbered)
    #expect(await client.diagnostics(Self.uri)?["diagnostics"]?.arrayValue?.map { $0["code"] } == ["OL402"])
    client.send(["jsonrpc": "2.0", "id": ask?["id"] ?? .null, "result": [["rules": ["OL402": "off"]]]])
    #expect(await client.diagnostics(Self.uri)?["diagnostics"] == [])
    // Pushed settings replace them.
    client.notify("workspace/didChangeConfiguration", ["settings": ["outline": ["rules": ["OL402": "hint"]]]])
    #expect(await client.diagnostics(Self.uri)?["diagnostics"]?.arrayValue?.map { $0["severity"] } == [4])
    // Without settings in the notification, the server asks again.
    client.notify("workspace/didChangeConfiguration", ["settings": .null])
    #expect(await client.wait { $0["method"] == "workspace/configuration" } != nil)
  }

  @Test func renumberIsAppliedThroughTheClient() async throws {
    let client = await ServerClient.withOpenDocument(Self.uri, Self.misnumbered)
    let capabilities = await client.request("initialize", [:])
    #expect(capabilities?["error"] != nil)  // already initialized
    let reply = await client.request(
      "workspace/executeCommand", ["command": "outline.renumber", "arguments": [.string(Self.uri)]])
    let edits = workspaceEdits(reply?["result"])
    #expect(applyLSPEdits(edits, to: Self.misnumbered).contains("order=\"0\""))
    let apply = await client.wait { $0["method"] == "workspace/applyEdit" }
    #expect(apply?["params"]?["label"] == "outline.renumber")
    #expect(workspaceEdits(apply?["params"]?["edit"]) == edits)
    let unknown = await client.request("workspace/executeCommand", ["command": "outline.nope"])
    #expect(unknown?["error"]?["code"] == .int(-32602))
  }

  @Test func slowRequestsReportProgressOnTheClientsToken() async throws {
    // Progress shows at once (progressDelay 0), so the test does not depend on the machine's speed.
    let client = ServerClient()
    _ = await client.request(
      "initialize", ["processId": .null, "capabilities": [:], "initializationOptions": ["progressDelay": 0]])
    client.notify("initialized", [:])
    client.open(Self.uri, GeneratedOutlineText.items(2_000))
    _ = await client.diagnostics(Self.uri)
    let reply = await client.request(
      "textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)], "workDoneToken": "sym"])
    #expect(reply?["raw"] != nil || reply?["result"] != nil)
    let begin = await client.wait { $0["method"] == "$/progress" && $0["params"]?["token"] == "sym" }
    let end = await client.wait { $0["method"] == "$/progress" && $0["params"]?["token"] == "sym" }
    #expect(begin?["params"]?["value"]?["kind"] == "begin")
    #expect(end?["params"]?["value"]?["kind"] == "end")
  }
}

/// A flat outline of `count` items.
enum GeneratedOutlineText {
  static func items(_ count: Int) -> String {
    "<outline>\n" + (0..<count).map { "  <Item title=\"item \($0)\" order=\"\($0)\"/>\n" }.joined()
      + "</outline>\n"
  }
}
