import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Through the server in process, as an editor drives it: Delete is not
/// offered in a broken sibling group, an id defined twice is not renamed nor
/// followed by the delete rules, and every WorkspaceEdit takes the form the
/// client declared.
@Suite struct LSPEditSafetyTests {
  static let uri = "file:///tmp/lsp-edit-safety.outline"

  /// A client initialized with `capabilities`, `text` open and its diagnostics read.
  func client(_ text: String, capabilities: JSONValue = [:]) async throws -> ServerClient {
    let client = await ServerClient.initialized(root: nil, capabilities: capabilities)
    client.open(Self.uri, text)
    _ = await client.diagnostics(Self.uri, version: 1)
    return client
  }

  func at(_ line: Int, _ character: Int) -> JSONValue {
    [
      "textDocument": ["uri": .string(Self.uri)],
      "position": ["line": .int(line), "character": .int(character)],
    ]
  }

  @Test func deleteLeavesABrokenSiblingGroupAlone() async throws {
    let text = EditFixtures.brokenSiblingGroup
    let client = try await client(text)
    defer { client.endInput() }
    let titles = await client.codeActions(Self.uri, line: 2, character: 5).compactMap {
      $0["title"]?.stringValue
    }
    #expect(!titles.contains { $0.hasPrefix("Delete item") }, "\(titles)")
    let refused = await client.request(
      "workspace/executeCommand",
      [
        "command": "outline.delete",
        "arguments": [["uri": .string(Self.uri), "position": ["line": 2, "character": 2]]],
      ])
    #expect(refused?["error"]?["code"] == -32803, "\(String(describing: refused))")
    #expect(
      refused?["error"]?["message"]?.stringValue
        == "Delete refused: The orders of its sibling group are broken: renumber them first")
  }

  @Test func anIDDefinedTwiceIsRefusedForRename() async throws {
    let text = """
      <outline version="1">
        <!-- outline-disable OL500 -->
        <Item xml:id="x" order="0" title="first"/>
        <Item xml:id="x" order="1" title="second"/>
      </outline>

      """
    let client = try await client(
      text, capabilities: ["workspace": ["workspaceEdit": ["documentChanges": true]]])
    defer { client.endInput() }
    let message = "The id 'x' is defined 2 times (OL500): give each object its own id before renaming it"
    for line in [2, 3] {
      let prepared = await client.request("textDocument/prepareRename", at(line, 16))
      #expect(prepared?["error"]?["message"]?.stringValue == message, "\(String(describing: prepared))")
      var params = at(line, 16)
      if case .object(var members) = params {
        members.append(("newName", "y"))
        params = .object(members)
      }
      let renamed = await client.request("textDocument/rename", params)
      #expect(renamed?["error"]?["code"] == -32803 && renamed?["error"]?["message"]?.stringValue == message)
      // The other id features answer, each definition found where it is.
      let definition = await client.request("textDocument/definition", at(line, 16))
      #expect(definition?["result"]?["range"]?["start"] == ["line": .int(line), "character": 16])
      let highlights = await client.request("textDocument/documentHighlight", at(line, 16))?["result"]?
        .arrayValue
      #expect(highlights?.map { $0["range"]?["start"]?["line"] } == [2, 3])
    }
  }

  /// Delete applies the delete rules to the ids the deleted objects define and name: where one
  /// of them is defined twice, which object a reference names is not known, so Delete is
  /// offered disabled with the reason rename gives, and the command refuses.
  @Test func anIDDefinedTwiceIsRefusedForDelete() async throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model>
        <entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/><attribute name="title" optional="YES" attributeType="String"/>
          <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/></entity>
        <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/></entity>
      </model>
      """
    try CLI.write(["M.xcdatamodel/contents": model], in: folder)
    let uri = folder.appendingPathComponent("tags.outline").absoluteString
    let text = """
      <outline model="M.xcdatamodel">
        <!-- outline-disable OL500 -->
        <Item title="a" order="0" tags="t"/>
        <Tag xml:id="t" name="first"/>
        <Tag xml:id="t" name="second"/>
      </outline>

      """
    let client = await ServerClient.initialized(root: folder)
    defer { client.endInput() }
    client.open(uri, text)
    #expect(await client.diagnostics(uri, version: 1)?["diagnostics"] == [])
    let message = "The id 't' is defined 2 times (OL500): give each object its own id before deleting"
    for line in [3, 4] {
      let delete = await client.codeActions(uri, line: line, character: 5).first {
        $0["title"]?.stringValue?.hasPrefix("Delete item") == true
      }
      #expect(delete?["edit"] == nil, "line \(line): \(String(describing: delete))")
      #expect(delete?["disabled"]?["reason"]?.stringValue == message, "line \(line)")
      let refused = await client.request(
        "workspace/executeCommand",
        [
          "command": "outline.delete",
          "arguments": [["uri": .string(uri), "position": ["line": .int(line), "character": 2]]],
        ])
      #expect(refused?["error"]?["message"]?.stringValue == "Delete refused: " + message, "line \(line)")
    }
  }

  @Test(arguments: [true, false, nil])
  func editsTakeTheFormTheClientDeclares(documentChanges: Bool?) async throws {
    let text = EditFixtures.idAndNesting
    let capabilities: JSONValue =
      documentChanges.map { ["workspace": ["workspaceEdit": ["documentChanges": .bool($0)]]] } ?? [:]
    let client = try await client(text, capabilities: capabilities)
    defer { client.endInput() }
    func check(_ edit: JSONValue?, _ what: String) {
      if documentChanges == true {
        #expect(edit?["changes"] == nil, "\(what): \(String(describing: edit))")
        #expect(edit?["documentChanges"]?.arrayValue?.first?["textDocument"]?["version"] == 1, "\(what)")
      } else {
        #expect(edit?["documentChanges"] == nil, "\(what): \(String(describing: edit))")
        #expect(edit?["changes"]?[Self.uri]?.arrayValue?.isEmpty == false, "\(what)")
      }
    }
    var params = at(1, 16)
    if case .object(var members) = params {
      members.append(("newName", "y"))
      params = .object(members)
    }
    let rename = await client.request("textDocument/rename", params)?["result"]
    check(rename, "rename")
    let renamed = applyLSPEdits(workspaceEdits(rename), to: text)
    #expect(renamed.contains("xml:id=\"y\" order=\"0\""), "\(renamed)")
    let actions = await client.codeActions(Self.uri, line: 1, character: 5)
    for title in ["Renumber every broken sibling group", "Delete item: first", "Move down: first"] {
      check(actions.first { $0["title"]?.stringValue == title }?["edit"], title)
    }
    // A command's reply and the edit it asks the client to apply.
    let reply = await client.request(
      "workspace/executeCommand", ["command": "outline.renumber", "arguments": [.string(Self.uri)]])
    check(reply?["result"], "outline.renumber reply")
    let apply = await client.wait { $0["method"] == "workspace/applyEdit" }
    if let id = apply?["id"] { client.send(["jsonrpc": "2.0", "id": id, "result": ["applied": true]]) }
    check(apply?["params"]?["edit"], "workspace/applyEdit")
    let applied = applyLSPEdits(workspaceEdits(apply?["params"]?["edit"]), to: text)
    #expect(applied.contains("order=\"0\" title=\"inner\""), "\(applied)")
  }

  /// Formatting edits carry no version: when the document changes while the request runs,
  /// they are for a text the editor no longer has, and the reply is ContentModified (-32801)
  /// instead. The same request with no change meanwhile gets its edits.
  @Test func formattingEditsForAChangedDocumentAreContentModified() async throws {
    // One line of 5,000 items: range formatting it takes long enough for the change to arrive.
    let items = (0..<5_000).map { "<Item title=\"t\($0)\" order=\"\($0)\"/>" }.joined()
    let text = "<outline title=\"W\">" + items + "</outline>"
    let client = try await client(text)
    defer { client.endInput() }
    let params: JSONValue = [
      "textDocument": ["uri": .string(Self.uri)],
      "range": ["start": ["line": 0, "character": 0], "end": ["line": 1, "character": 0]],
      "options": ["tabSize": 2, "insertSpaces": true],
    ]
    let id = client.nextRequestID()
    client.send([
      "jsonrpc": "2.0", "id": .int(id), "method": "textDocument/rangeFormatting", "params": params,
    ])
    let start: JSONValue = ["line": 0, "character": 16]
    client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(Self.uri), "version": 2],
        "contentChanges": [["range": ["start": start, "end": start], "text": "x"]],
      ])
    let reply = await client.wait { $0["id"] == .int(id) }
    #expect(reply?["error"]?["code"] == .int(-32801), "\(reply?["result"]?.arrayValue?.count ?? -1) edits")
    await client.expectNothing(for: 1) { $0["id"] == .int(id) }
    let again = await client.request("textDocument/rangeFormatting", params)
    #expect(again?["result"]?.arrayValue?.isEmpty == false)
  }
}
