import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// The code lenses' commands, run in process as `workspace/executeCommand`
/// runs them: the deletion lens deletes its item as the "Delete item"
/// refactor does, the descendants lens renumbers its item's subtree only.
@Suite struct CodeLensCommandTests {
  let session = Session()

  static let twoBrokenGroups = """
    <outline>
      <Item title="A" order="0">
        <Item title="a1" order="1"/>
        <Item title="a2" order="1"/>
      </Item>
      <Item title="B" order="1">
        <Item title="b1" order="1"/>
        <Item title="b2" order="1"/>
      </Item>
    </outline>

    """

  func run(_ command: LSP.Command?) throws -> CommandsFeature.Outcome {
    let command = try #require(command)
    return try CommandsFeature(
      mapper: session.mapper, workspaceEdits: session.workspaceEdits, store: session.store
    ).prepare(
      LSP.ExecuteCommandParams(command: command.command, arguments: command.arguments))()
  }

  @Test func everyLensCommandIsAdvertised() throws {
    let (snapshot, _) = session.open(weekend)
    let feature = CodeLensFeature(mapper: session.mapper)
    var commands: [String] = []
    for lens in feature.lenses(snapshot) {
      let resolved = lens.command == nil ? try feature.resolve(snapshot, lens) : lens
      let command = try #require(resolved.command)
      commands.append(command.command)
    }
    #expect(commands == ["outline.renumber", "outline.renumber", "outline.delete"])
    let advertised = MethodTable.capabilities(positionEncoding: nil).executeCommandProvider?.commands ?? []
    #expect(Set(commands).isSubset(of: Set(advertised)))
  }

  @Test func theDeletionLensAppliesTheDeleteRefactor() throws {
    let (snapshot, at) = session.open(weekend)
    let feature = CodeLensFeature(mapper: session.mapper)
    let lens = try #require(feature.lenses(snapshot).first { $0.command == nil })
    let outcome = try run(try feature.resolve(snapshot, lens).command)
    let here = session.position(at[0], in: snapshot)
    let refactor = try CodeActionsFeature(mapper: session.mapper, workspaceEdits: session.workspaceEdits)
      .actions(
        snapshot,
        LSP.CodeActionParams(
          textDocument: .init(uri: snapshot.uri), range: LSP.Range(start: here, end: here),
          context: LSP.CodeActionContext(diagnostics: [])))
    let delete = try #require(refactor.first { $0.title.hasPrefix("Delete item:") })
    #expect(outcome.edit == delete.edit)
    let after = session.apply(outcome.edit, to: snapshot)
    #expect(!after.contains("Groceries") && !after.contains("Milk") && after.contains("Work"))
    #expect(try Session.decode(LSP.WorkspaceEdit.self, outcome.result) == outcome.edit)
  }

  @Test func theDescendantsLensRenumbersOnlyItsSubtree() throws {
    let (snapshot, _) = session.open(Self.twoBrokenGroups)
    let lenses = CodeLensFeature(mapper: session.mapper).lenses(snapshot)
    let titled = lenses.filter { $0.command != nil }
    #expect(titled.map(\.range.start.line) == [0, 1, 5])
    // A's lens renumbers a1 and a2, not b1 and b2.
    let onA = try run(titled[1].command)
    #expect(
      session.apply(onA.edit, to: snapshot)
        == Self.twoBrokenGroups.replacingOccurrences(of: "\"a1\" order=\"1\"", with: "\"a1\" order=\"0\""))
    // The root's lens renumbers both, as outline.renumber on the document does.
    let onRoot = try run(titled[0].command)
    #expect(
      session.apply(onRoot.edit, to: snapshot)
        == Self.twoBrokenGroups.replacingOccurrences(of: "1\" order=\"1\"", with: "1\" order=\"0\""))
    // Nothing broken in a subtree: nothing to apply.
    let (valid, _) = session.open(weekend, uri: "file:///tmp/outline-lsp-tests/valid.outline")
    let groceries = try #require(CodeLensFeature(mapper: session.mapper).lenses(valid).dropFirst().first)
    #expect(try run(groceries.command).edit == nil)
  }

  @Test func aCommandOnAPositionWithoutAnItemIsRefused() throws {
    let (snapshot, _) = session.open(weekend)
    let feature = CommandsFeature(
      mapper: session.mapper, workspaceEdits: session.workspaceEdits, store: session.store)
    func argument(line: Int, character: Int) throws -> [LSPAny] {
      [
        LSPAny(
          try JSONValueCoding.encode(
            LSP.ItemCommandArgument(uri: snapshot.uri, position: .init(line: line, character: character))))
      ]
    }
    // Line 6 is Eggs's start tag (a leaf), character 0 is before it.
    #expect(throws: ResponseError.self) {
      try feature.prepare(
        LSP.ExecuteCommandParams(command: "outline.delete", arguments: try argument(line: 6, character: 0)))()
    }
    // The root cannot be deleted.
    #expect(throws: ResponseError.self) {
      try feature.prepare(
        LSP.ExecuteCommandParams(command: "outline.delete", arguments: try argument(line: 1, character: 0)))()
    }
    // outline.delete needs a position.
    #expect(throws: ResponseError.self) {
      try feature.prepare(
        LSP.ExecuteCommandParams(command: "outline.delete", arguments: [LSPAny(.string(snapshot.uri))]))
    }
    // Eggs's start tag begins at character 4.
    let eggs = try feature.prepare(
      LSP.ExecuteCommandParams(command: "outline.delete", arguments: try argument(line: 6, character: 4)))()
    #expect(!session.apply(eggs.edit, to: snapshot).contains("Eggs"))
  }
}
