import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Model versions through the server in process: OL108 published on the
/// root, the root's hover, "Migrate to" and `outline/migrate` (sent back with
/// `workspace/applyEdit`), on the four-version `Tasks.xcdatamodeld` of the fixtures.
@Suite struct LSPVersionsTests {
  static let third = """
    <outline version="1" model="Tasks.xcdatamodeld" modelVersion="Tasks 3" title="Home" owner="me">
      <Label xml:id="l1" name="home"/>
      <Task title="A" order="0" owner="me" label="l1" summary="s"/>
    </outline>

    """

  @Test func aPendingMigrationIsPublishedHoveredAndMigrated() async throws {
    let folder = try VersionsFixture.project()
    let uri = folder.appendingPathComponent("third.outline").absoluteString
    let client = ServerClient()
    defer { client.endInput() }
    _ = await client.initialize(documentChanges: true)
    client.open(uri, Self.third)
    let published = await client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
    #expect(published.count == 1, "\(published)")
    let pending = try #require(published.first)
    #expect(pending["code"]?.stringValue == "OL108" && pending["severity"]?.intValue == 3)
    #expect(pending["range"]?["start"] == ["line": 0, "character": 62])
    #expect(
      pending["message"]?.stringValue
        == "This document is for model version 'Tasks 3'; the current version is 'Tasks 4'")
    let hover = await client.request(
      "textDocument/hover",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 3]])
    #expect(
      hover?["result"]?["contents"]?["value"]?.stringValue?.hasSuffix(
        "Model version 'Tasks 3' (recorded in modelVersion); the current version is 'Tasks 4' (run `outline migrate`)"
      )
        == true, "\(String(describing: hover))")
    let actions = await client.codeActions(uri, line: 0, character: 64, diagnostics: [pending])
    let migrate = try #require(actions.first { $0["title"]?.stringValue == "Migrate to Tasks 4" })
    let expected = Self.third.replacingOccurrences(of: "Tasks 3", with: "Tasks 4")
    #expect(applyLSPEdits(workspaceEdits(migrate["edit"]), to: Self.third) == expected)
    #expect(migrate["edit"]?["documentChanges"]?.arrayValue?.first?["textDocument"]?["version"] == 1)

    // The command: its reply is the edit, and the server asks the client to apply it.
    let reply = await client.request(
      "workspace/executeCommand", ["command": "outline/migrate", "arguments": [["uri": .string(uri)]]])
    #expect(applyLSPEdits(workspaceEdits(reply?["result"]), to: Self.third) == expected)
    let apply = await client.wait { $0["method"]?.stringValue == "workspace/applyEdit" }
    #expect(apply?["params"]?["label"]?.stringValue == "outline/migrate")
    #expect(applyLSPEdits(workspaceEdits(apply?["params"]?["edit"]), to: Self.third) == expected)
    if let id = apply?["id"] { client.send(["jsonrpc": "2.0", "id": id, "result": ["applied": true]]) }

    // v1 cannot be migrated as it is: the diagnostic says why, no action, and the command is refused.
    let v1 = folder.appendingPathComponent("v1.outline")
    let v1URI = v1.absoluteString
    let v1Text = try String(contentsOf: v1, encoding: .utf8)
    client.open(v1URI, v1Text)
    let v1Pending = try #require(
      await client.diagnostics(v1URI, version: 1)?["diagnostics"]?.arrayValue?.first {
        $0["code"]?.stringValue == "OL108"
      })
    #expect(
      v1Pending["message"]?.stringValue?.contains("it cannot be migrated as it is: new required values")
        == true)
    let none = await client.codeActions(v1URI, line: 1, character: 64, diagnostics: [v1Pending])
    #expect(!none.contains { $0["title"]?.stringValue?.hasPrefix("Migrate") == true })
    let refused = await client.request(
      "workspace/executeCommand", ["command": "outline/migrate", "arguments": [["uri": .string(v1URI)]]])
    #expect(refused?["error"]?["message"]?.stringValue?.contains("Task.owner (4 objects)") == true)
    let initialize = ServerClient()
    defer { initialize.endInput() }
    let commands = await initialize.initialize()?["result"]?["capabilities"]?["executeCommandProvider"]?[
      "commands"]
    #expect(commands?.arrayValue?.contains("outline/migrate") == true)
  }
}
