import OutlineCore
import OutlineEditing
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// The editor's renumbering (the "Renumber children" quick fix, the
/// `source.fixAll` action and the `outline.renumber` command) keeps the order
/// the values give and edits what `outline-lint --fix` edits.
@Suite struct RenumberActionsTests {
  let session = Session()

  /// The three renumberings of `text`, applied: the quick fixes offered for
  /// every diagnostic sent (their edits together), the fix-all and the command.
  func renumberings(_ text: String) throws -> (quickFixes: String, fixAll: String, command: String) {
    let (snapshot, _) = session.open(text)
    let diagnostics = DiagnosticsFeature.render(snapshot, mapper: session.mapper)
    let start = LSP.Position(line: 0, character: 0)
    let actions = try CodeActionsFeature(mapper: session.mapper, workspaceEdits: session.workspaceEdits)
      .actions(
        snapshot,
        LSP.CodeActionParams(
          textDocument: .init(uri: snapshot.uri), range: LSP.Range(start: start, end: start),
          context: LSP.CodeActionContext(diagnostics: diagnostics)))
    let quickFixes = actions.filter { $0.kind == .quickFix && $0.title.hasPrefix("Renumber children of ") }
    let edits = quickFixes.flatMap { $0.edit?.documentChanges?.first?.edits ?? [] }
    let fixAll = actions.first { $0.kind == .sourceFixAll }
    let command = try CommandsFeature.renumber(
      snapshot, mapper: session.mapper, workspaceEdits: session.workspaceEdits)
    return (
      session.apply(edits, to: snapshot), session.apply(fixAll?.edit, to: snapshot),
      session.apply(command.edit, to: snapshot)
    )
  }

  @Test func theQuickFixOnADuplicateChangesOnlyTheSecondOfTheTwo() throws {
    let text = SiblingOrderDocument.reversedWithADuplicate
    let expected = text.replacingOccurrences(of: "\"fifth\" order=\"3\"", with: "\"fifth\" order=\"4\"")
    let result = try renumberings(text)
    #expect(result.quickFixes == expected)
    #expect(result.fixAll == expected)
    #expect(result.command == expected)
  }

  @Test func anOrderThatIsNoIntegerGetsTheQuickFix() throws {
    // The group's only problem is the OL300 at `x`: the quick fix numbers it
    // after its siblings, as its place among them says.
    let text = """
      <outline version="1">
        <Item title="a" order="1"/>
        <Item title="b" order="x"/>
        <Item title="c" order="0"/>
      </outline>

      """
    let result = try renumberings(text)
    #expect(result.quickFixes == text.replacingOccurrences(of: "\"x\"", with: "\"2\""))
    #expect(result.fixAll == result.quickFixes)
  }

  @Test func generatedGroupsGetTheFixOfOutlineLint() throws {
    try Property.check("the renumber actions are --fix", cases: 200) { random, _ in
      let document = SiblingOrderDocument.generate(&random)
      let result = try renumberings(document.text)
      if let problem = document.check(fixed: result.fixAll) { return "fix-all: \(problem)\n\(document.text)" }
      if result.quickFixes != result.fixAll {
        return "the quick fixes differ from fix-all:\n\(document.text)"
      }
      if result.command != result.fixAll { return "outline.renumber differs from fix-all:\n\(document.text)" }
      return nil
    }
  }
}
