import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Editors.md's Emacs check prints the server's name as the server gives it
/// (`serverInfo.name`), not the name of the folder the repository is checked out in.
@Suite struct EmacsCheckDocumentationTests {
  @Test func theEmacsCheckPrintsTheServersOwnName() throws {
    let editors = try String(
      contentsOf: CLI.repository.appendingPathComponent("Documentation/Editors.md"), encoding: .utf8)
    let script = try String(
      contentsOf: CLI.repository.appendingPathComponent("Documentation/editors/emacs-check.el"),
      encoding: .utf8)
    let printed = try #require(
      editors.split(separator: "\n").first { $0.hasPrefix("server: ") }.map { String($0.dropFirst(8)) })
    let client = try LSPClient()
    defer { _ = client.close() }
    let reply = client.initialize()
    #expect(printed == reply?["result"]?["serverInfo"]?["name"]?.stringValue)
    #expect(script.contains("eglot--server-info"))
    #expect(!script.contains("project-nickname"))
  }
}
