import JSONRPC
import OutlineJSON
import Testing

@testable import OutlineLSP

@Suite struct JSONValueCodingTests {
  @Test func nilIsLeftOutAndKindsAreTheirNumbers() throws {
    let item = LSP.CompletionItem(label: "Item", kind: .class, insertTextFormat: .snippet)
    #expect(try JSONValueCoding.encode(item) == ["label": "Item", "kind": 7, "insertTextFormat": 2])
    let hover: LSP.Hover? = nil
    #expect(try JSONValueCoding.encode(hover) == .null)
  }

  @Test func valuesRoundTrip() throws {
    let edit = LSP.WorkspaceEdit(documentChanges: [
      LSP.TextDocumentEdit(
        textDocument: .init(uri: "file:///a.outline", version: 3),
        edits: [
          LSP.TextEdit(
            range: LSP.Range(start: .init(line: 1, character: 2), end: .init(line: 1, character: 4)),
            newText: "ü \"q\"")
        ])
    ])
    let json = try JSONValueCoding.encode(edit)
    #expect(
      try JSONValueCoding.decode(LSP.WorkspaceEdit.self, from: JSONValue.parse(json.serializedBytes()))
        == edit)
    // Exactly one of the two forms is written.
    #expect(json["changes"] == nil)
    let byURI = LSP.WorkspaceEdit(changes: ["file:///a.outline": edit.documentChanges![0].edits])
    #expect(try JSONValueCoding.encode(byURI)["documentChanges"] == nil)
  }

  @Test func unknownMembersAreIgnored() throws {
    let value: JSONValue = [
      "textDocument": ["uri": "file:///x", "extra": true], "position": ["line": 1, "character": 0],
      "workDoneToken": "t",
    ]
    let params = try JSONValueCoding.decode(LSP.TextDocumentPositionParams.self, from: value)
    #expect(params.position == LSP.Position(line: 1, character: 0))
  }

  @Test func wrongParamsNameThePath() throws {
    let value: JSONValue = ["textDocument": ["uri": "file:///x"], "position": ["line": "a", "character": 0]]
    do {
      _ = try JSONValueCoding.params(
        LSP.TextDocumentPositionParams.self, from: value, method: "textDocument/hover")
      Issue.record("decoded")
    } catch let error as ResponseError {
      #expect(error.code == ErrorCode.invalidParams)
      #expect(
        error.message.hasPrefix("textDocument/hover: position.line: expected a number"), "\(error.message)")
    }
    do {
      _ = try JSONValueCoding.params(
        LSP.RenameParams.self,
        from: ["textDocument": ["uri": "file:///x"], "position": ["line": 0, "character": 0]],
        method: "textDocument/rename")
      Issue.record("decoded")
    } catch let error as ResponseError {
      #expect(error.message == "textDocument/rename: newName is missing")
    }
  }

  /// A long text stays the bytes the message parser made.
  @Test func documentTextKeepsTheBytes() throws {
    let text = String(repeating: "<Item/>é", count: 2_000)
    let message = try JSONValue.parse(
      Array("{\"uri\":\"file:///x\",\"text\":\"\(text)\"}".utf8))
    #expect(message["text"].map { if case .utf8 = $0 { true } else { false } } == true)
    let item = try JSONValueCoding.decode(LSP.TextDocumentItem.self, from: message)
    #expect(item.text.bytes == Array(text.utf8))
    #expect(item.version == nil)
  }

  @Test func anyValueIsCarriedAsItIs() throws {
    let cancel = try JSONValueCoding.decode(LSP.CancelParams.self, from: ["id": "req-1"])
    #expect(cancel.id.value == "req-1")
    #expect(try JSONValueCoding.encode(cancel) == ["id": "req-1"])
  }
}
