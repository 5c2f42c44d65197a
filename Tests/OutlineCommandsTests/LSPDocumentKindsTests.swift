import Foundation
import TestSupport
import Testing

/// A CRLF document is formatted by the server as `outline fmt` formats it, with LF.
@Suite struct LSPDocumentKindsTests {
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
}
