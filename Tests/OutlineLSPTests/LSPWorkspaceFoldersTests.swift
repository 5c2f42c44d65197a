import Foundation
import OutlineJSON
import TestSupport
import Testing

/// `workspace/didChangeWorkspaceFolders` in process: the server says it
/// follows folder changes, and the workspace report follows them (an added
/// folder's outlines appear, a removed one's disappear), with a refresh
/// asked of a client that supports it.
@Suite(.serialized) struct LSPWorkspaceFoldersTests {
  static func uris(_ reply: JSONValue?) -> [String] {
    (reply?["result"]?["items"]?.arrayValue ?? []).compactMap {
      URL(string: $0["uri"]?.stringValue ?? "")?.standardizedFileURL.lastPathComponent
    }.sorted()
  }

  @Test func theWorkspaceReportFollowsAddedAndRemovedFolders() async throws {
    let first = try CLI.temporaryFolder()
    let second = try CLI.temporaryFolder()
    try CLI.write(["one.outline": "<outline>\n  <Item title=\"a\" order=\"1\"/>\n</outline>\n"], in: first)
    try CLI.write(
      [
        "two.outline": "<outline>\n  <Item title=\"b\" order=\"0\"/>\n</outline>\n",
        "deep/three.outline": "<outline>\n  <Item title=\"c\" order=\"2\"/>\n</outline>\n",
      ], in: second)
    func folder(_ url: URL) -> JSONValue {
      ["uri": .string(url.absoluteString), "name": .string(url.lastPathComponent)]
    }

    let client = ServerClient()
    let initialize = await client.request(
      "initialize",
      [
        "processId": .null, "workspaceFolders": [folder(first)],
        "capabilities": ["workspace": ["workspaceFolders": true, "diagnostics": ["refreshSupport": true]]],
      ])
    client.notify("initialized", [:])
    #expect(
      initialize?["result"]?["capabilities"]?["workspace"]?["workspaceFolders"]
        == ["supported": true, "changeNotifications": true])
    #expect(
      Self.uris(await client.request("workspace/diagnostic", ["previousResultIds": []])) == ["one.outline"])

    client.notify(
      "workspace/didChangeWorkspaceFolders", ["event": ["added": [folder(second)], "removed": []]])
    #expect(await client.wait { $0["method"] == "workspace/diagnostic/refresh" } != nil)
    #expect(
      Self.uris(await client.request("workspace/diagnostic", ["previousResultIds": []]))
        == ["one.outline", "three.outline", "two.outline"])

    client.notify(
      "workspace/didChangeWorkspaceFolders", ["event": ["added": [], "removed": [folder(first)]]])
    #expect(await client.wait { $0["method"] == "workspace/diagnostic/refresh" } != nil)
    let after = await client.request("workspace/diagnostic", ["previousResultIds": []])
    #expect(Self.uris(after) == ["three.outline", "two.outline"])
    // The second folder's reports are outline-lint's: three.outline's order 2 is OL402.
    let codes = (after?["result"]?["items"]?.arrayValue ?? []).flatMap {
      ($0["items"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
    }
    #expect(codes == ["OL402"])
  }
}
