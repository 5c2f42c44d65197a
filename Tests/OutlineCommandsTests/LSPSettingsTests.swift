import Foundation
import OutlineJSON
import Testing

/// `workspace/configuration`, `didChangeConfiguration`, `executeCommand` and
/// progress over stdio.
@Suite(.serialized) struct LSPSettingsTests {
  static let uri = "file:///tmp/lsp-settings.outline"
  static let misnumbered = "<outline>\n  <Item title=\"a\" order=\"1\"/>\n</outline>\n"

  @Test func settingsAreAskedForAndPushed() throws {
    let client = try LSPClient()
    _ = client.request(
      "initialize",
      [
        "processId": .null,
        "capabilities": ["workspace": ["configuration": true], "window": ["workDoneProgress": true]],
      ], timeout: 30)
    client.notify("initialized", [:])
    let ask = client.wait(timeout: 10) { $0["method"] == "workspace/configuration" }
    #expect(ask?["params"]?["items"] == [["section": "outline"]])
    client.open(Self.uri, Self.misnumbered)
    #expect(client.diagnostics(Self.uri)?["diagnostics"]?.arrayValue?.map { $0["code"] } == ["OL402"])
    client.send(["jsonrpc": "2.0", "id": ask?["id"] ?? .null, "result": [["rules": ["OL402": "off"]]]])
    #expect(client.diagnostics(Self.uri)?["diagnostics"] == [])
    // Pushed settings replace them.
    client.notify("workspace/didChangeConfiguration", ["settings": ["outline": ["rules": ["OL402": "hint"]]]])
    #expect(client.diagnostics(Self.uri)?["diagnostics"]?.arrayValue?.map { $0["severity"] } == [4])
    // Without settings in the notification, the server asks again.
    client.notify("workspace/didChangeConfiguration", ["settings": .null])
    #expect(client.wait(timeout: 10) { $0["method"] == "workspace/configuration" } != nil)
  }

  @Test func renumberIsAppliedThroughTheClient() throws {
    let client = try LSPClient.withOpenDocument(Self.uri, Self.misnumbered)
    let capabilities = client.request("initialize", [:], timeout: 10)
    #expect(capabilities?["error"] != nil)  // already initialized
    let reply = client.request(
      "workspace/executeCommand", ["command": "outline.renumber", "arguments": [.string(Self.uri)]],
      timeout: 30)
    let edits = workspaceEdits(reply?["result"])
    #expect(applyLSPEdits(edits, to: Self.misnumbered).contains("order=\"0\""))
    let apply = client.wait(timeout: 10) { $0["method"] == "workspace/applyEdit" }
    #expect(apply?["params"]?["label"] == "outline.renumber")
    #expect(workspaceEdits(apply?["params"]?["edit"]) == edits)
    let unknown = client.request("workspace/executeCommand", ["command": "outline.nope"], timeout: 10)
    #expect(unknown?["error"]?["code"] == .int(-32602))
  }

  @Test func slowRequestsReportProgressOnTheClientsToken() throws {
    // Progress shows at once (progressDelay 0), so the test does not depend on the machine's speed.
    let client = try LSPClient()
    _ = client.request(
      "initialize", ["processId": .null, "capabilities": [:], "initializationOptions": ["progressDelay": 0]],
      timeout: 30)
    client.notify("initialized", [:])
    client.open(Self.uri, GeneratedOutlineText.items(2_000))
    _ = client.diagnostics(Self.uri)
    let reply = client.request(
      "textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)], "workDoneToken": "sym"],
      timeout: 120)
    #expect(reply?["raw"] != nil || reply?["result"] != nil)
    let begin = client.wait(timeout: 5) { $0["method"] == "$/progress" && $0["params"]?["token"] == "sym" }
    let end = client.wait(timeout: 5) { $0["method"] == "$/progress" && $0["params"]?["token"] == "sym" }
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
