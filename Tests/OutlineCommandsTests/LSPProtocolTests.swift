import Foundation
import OutlineJSON
import Testing

/// The typed protocol over stdio: what `initialize` advertises and what the
/// server registers after `initialized`.
@Suite(.serialized) struct LSPProtocolTests {
  @Test func capabilitiesAndWatcherRegistration() throws {
    let client = try LSPClient()
    let reply = client.request(
      "initialize",
      [
        "processId": .null, "rootUri": .null,
        "capabilities": ["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true]]],
      ])
    let capabilities = reply?["result"]?["capabilities"]
    #expect(capabilities?["positionEncoding"] == "utf-16")
    #expect(
      capabilities?["textDocumentSync"] == ["openClose": true, "change": 2, "save": ["includeText": false]])
    #expect(capabilities?["hoverProvider"] == true)
    #expect(capabilities?["renameProvider"] == ["prepareProvider": true])
    #expect(reply?["result"]?["serverInfo"]?["name"] == "outline")
    client.notify("initialized", [:])
    let registration = client.wait(timeout: 10) { $0["method"] == "client/registerCapability" }
    let registered = registration?["params"]?["registrations"]?.arrayValue?.first
    #expect(registered?["method"] == "workspace/didChangeWatchedFiles")
    let globs = registered?["registerOptions"]?["watchers"]?.arrayValue?.compactMap {
      $0["globPattern"]?.stringValue
    }
    #expect(globs?.contains("**/*.xcdatamodeld/.xccurrentversion") == true)
    // The client answers the server's request; the server takes the reply and keeps serving.
    if let id = registration?["id"] { client.send(["jsonrpc": "2.0", "id": id, "result": .null]) }
    #expect(client.request("shutdown", timeout: 10)?["result"] == .null)
    client.notify("exit", .null)
    #expect(client.close() == 0)
  }

  @Test func noRegistrationWithoutTheCapability() throws {
    let client = try LSPClient()
    _ = client.initialize()
    #expect(client.request("shutdown", timeout: 10)?["result"] == .null)
    #expect(client.wait(timeout: 1) { $0["method"] == "client/registerCapability" } == nil)
  }
}
