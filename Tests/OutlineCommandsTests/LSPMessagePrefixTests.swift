import Foundation
import OutlineJSON
import TestSupport
import Testing

/// A message about a method names it once: the params' decoding already says
/// `$/cancelRequest: id is missing`, and the log added the method again before it.
@Suite struct LSPMessagePrefixTests {
  static func frame(_ message: JSONValue) -> String {
    String(decoding: LSPFraming.frame(message), as: UTF8.self)
  }

  @Test func aNotificationWithBadParamsIsLoggedWithItsMethodOnce() throws {
    let input = [
      Self.frame([
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": ["processId": .null, "rootUri": .null, "capabilities": [:]],
      ]),
      Self.frame(["jsonrpc": "2.0", "method": "initialized", "params": [:]]),
      Self.frame(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": [:]]),
      Self.frame(["jsonrpc": "2.0", "method": "textDocument/didClose", "params": ["textDocument": [:]]]),
      Self.frame(["jsonrpc": "2.0", "id": 2, "method": "shutdown"]),
      Self.frame(["jsonrpc": "2.0", "method": "exit"]),
    ].joined()
    let run = try CLI.run("outline", ["lsp"], input: input)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("$/cancelRequest: id is missing"), "\(run.stderr)")
    for method in ["$/cancelRequest", "textDocument/didClose"] {
      #expect(!run.stderr.contains("\(method): \(method)"), "\(run.stderr)")
    }
    #expect(run.stderr.contains("textDocument/didClose: "), "\(run.stderr)")
  }
}
