import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// What the editing features refuse or how they write their edits: Delete in
/// a broken sibling group, the rename of an id defined twice, and the
/// WorkspaceEdit form the client's capabilities ask for.
@Suite struct EditSafetyTests {
  static let brokenGroup = """
    <outline version="1">
      <!-- outline-disable OL400 OL402 OL300 -->
      <Item order="0" title="A"/>
      <Item order="10" title="B">
        <Item order="0" title="b1"/>
      </Item>
      <Item title="C"/>
      <Item order="draft" title="D"/>
    </outline>

    """

  static let duplicateID = """
    <outline version="1">
      <!-- outline-disable OL500 -->
      <Item xml:id="x" order="0" title="first"/>
      <Item xml:id="1️⃣x" order="1" title="second"/>
    </outline>

    """

  func actions(_ session: Session, _ snapshot: Snapshot, line: Int, character: Int) throws -> [LSP.CodeAction]
  {
    let here = LSP.Position(line: line, character: character)
    return try CodeActionsFeature(mapper: session.mapper, workspaceEdits: session.workspaceEdits).actions(
      snapshot,
      LSP.CodeActionParams(
        textDocument: .init(uri: snapshot.uri), range: LSP.Range(start: here, end: here),
        context: LSP.CodeActionContext(diagnostics: [])))
  }

  func command(_ session: Session, _ name: String, _ argument: JSONValue) throws -> CommandsFeature.Outcome {
    try CommandsFeature(mapper: session.mapper, workspaceEdits: session.workspaceEdits, store: session.store)
      .prepare(LSP.ExecuteCommandParams(command: name, arguments: [LSPAny(argument)]))()
  }

  @Test func deleteIsNeitherOfferedNorRunInABrokenSiblingGroup() throws {
    let session = Session()
    let (snapshot, _) = session.open(Self.brokenGroup)
    for line in [2, 3, 6, 7] {
      let titles = try actions(session, snapshot, line: line, character: 5).map(\.title)
      #expect(!titles.contains { $0.hasPrefix("Delete item") }, "line \(line): \(titles)")
    }
    // In b1's group (valid) Delete is offered.
    let inner = try actions(session, snapshot, line: 4, character: 7).map(\.title)
    #expect(inner.contains("Delete item: b1"), "\(inner)")
    let argument: JSONValue = ["uri": .string(snapshot.uri), "position": ["line": 2, "character": 2]]
    #expect {
      try command(session, "outline.delete", argument)
    } throws: { error in
      (error as? ResponseError)?.message
        == "Delete refused: The orders of its sibling group are broken: renumber them first"
    }
    // The deletion lens on B says so.
    let lenses = CodeLensFeature(mapper: session.mapper)
    let lens = try #require(lenses.lenses(snapshot).first { $0.command == nil && $0.range.start.line == 3 })
    #expect(
      try lenses.resolve(snapshot, lens).command?.title
        == "Delete refused: The orders of its sibling group are broken: renumber them first")
  }

  @Test func anIDDefinedTwiceIsNotRenamed() throws {
    let session = Session()
    let (snapshot, marks) = session.open(Self.duplicateID)
    let navigation = NavigationFeature(mapper: session.mapper)
    let message = "The id 'x' is defined 2 times (OL500): give each object its own id before renaming it"
    #expect {
      try navigation.prepareRename(snapshot, session.at(marks[0], in: snapshot))
    } throws: { ($0 as? ResponseError)?.message == message }
    #expect {
      try navigation.rename(
        snapshot,
        LSP.RenameParams(
          textDocument: .init(uri: snapshot.uri), position: session.position(marks[0], in: snapshot),
          newName: "y"),
        workspaceEdits: session.workspaceEdits)
    } throws: { ($0 as? ResponseError)?.message == message }
    // Definition on the second xml:id is that one; references list both definitions.
    let definition = try navigation.definition(snapshot, session.at(marks[0], in: snapshot))
    #expect(definition.flatMap { session.offset($0.range.start, in: snapshot) } == marks[0])
    let references = try navigation.references(
      snapshot,
      LSP.ReferenceParams(
        textDocument: .init(uri: snapshot.uri), position: session.position(marks[0], in: snapshot),
        context: .init(includeDeclaration: true)))
    #expect(references.map(\.range.start.line) == [2, 3])
  }

  @Test(arguments: [true, false])
  func everyEditTakesTheFormTheClientAsksFor(documentChanges: Bool) throws {
    let session = Session(documentChanges: documentChanges)
    let (snapshot, _) = session.open(EditFixtures.idAndNesting)
    func check(_ edit: LSP.WorkspaceEdit?, _ what: String) {
      guard let edit else {
        Issue.record("\(what): no edit")
        return
      }
      if documentChanges {
        #expect(edit.changes == nil && edit.documentChanges?.first?.textDocument.version == 1, "\(what)")
      } else {
        #expect(edit.documentChanges == nil && edit.changes?[snapshot.uri]?.isEmpty == false, "\(what)")
      }
    }
    let rename = try NavigationFeature(mapper: session.mapper).rename(
      snapshot,
      LSP.RenameParams(
        textDocument: .init(uri: snapshot.uri), position: .init(line: 1, character: 16), newName: "y"),
      workspaceEdits: session.workspaceEdits)
    check(rename, "rename")
    #expect(session.apply(rename, to: snapshot).contains("xml:id=\"y\""))
    let offered = try actions(session, snapshot, line: 1, character: 5)
    for title in ["Renumber every broken sibling group", "Delete item: first", "Move down: first"] {
      check(offered.first { $0.title == title }?.edit, title)
    }
    let renumber = try command(session, "outline.renumber", .string(snapshot.uri))
    check(renumber.edit, "outline.renumber")
    #expect(try Session.decode(LSP.WorkspaceEdit.self, renumber.result) == renumber.edit)
    let delete = try command(
      session, "outline.delete", ["uri": .string(snapshot.uri), "position": ["line": 2, "character": 2]])
    check(delete.edit, "outline.delete")
  }
}
