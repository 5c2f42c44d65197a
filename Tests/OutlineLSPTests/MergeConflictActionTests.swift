import OutlineCore
import TestSupport
import Testing

@testable import OutlineLSP

/// OL600's quick fixes: each picks a side of a conflict `outline merge` recorded, removes the
/// record, and leaves a document that lints clean.
@Suite struct MergeConflictActionTests {
  let session = Session()

  static func document(_ body: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n\(body)</outline>\n"
  }

  /// The quick fixes offered for the OL600 diagnostics of `text`, with the text each gives.
  func fixes(_ text: String) throws -> [(title: String, result: String, preferred: Bool)] {
    let (snapshot, _) = session.open(text)
    let diagnostics = DiagnosticsFeature.render(snapshot, mapper: session.mapper).filter {
      $0.code == "OL600"
    }
    let feature = CodeActionsFeature(mapper: session.mapper, workspaceEdits: session.workspaceEdits)
    var found: [(String, String, Bool)] = []
    for diagnostic in diagnostics {
      let actions = try feature.actions(
        snapshot,
        LSP.CodeActionParams(
          textDocument: .init(uri: snapshot.uri), range: diagnostic.range,
          context: LSP.CodeActionContext(diagnostics: [diagnostic])))
      for action in actions where action.kind == .quickFix && action.diagnostics?.first?.code == "OL600" {
        found.append((action.title, session.apply(action.edit, to: snapshot), action.isPreferred == true))
      }
    }
    return found
  }

  @Test func attributeConflictKeepsOursOrTakesTheirs() throws {
    let text = Self.document(
      """
        <?outline-conflict kind="attribute" name="title" base="b" ours="mine" theirs="yours &amp; co"?>
        <Item order="0" title="mine"/>

      """)
    let found = try fixes(text)
    #expect(found.map(\.title) == ["Keep ours: title 'mine'", "Take theirs: title 'yours & co'"])
    #expect(found.first?.result == Self.document("  <Item order=\"0\" title=\"mine\"/>\n"))
    #expect(found.first?.preferred == true)
    #expect(found.last?.result == Self.document("  <Item order=\"0\" title=\"yours &amp; co\"/>\n"))
    #expect(found.allSatisfy { Session.codes($0.result).isEmpty })
  }

  @Test func anAttributeTheirsRemovedOrAddedIsRemovedOrAdded() throws {
    let removed = Self.document(
      """
        <?outline-conflict kind="attribute" name="title" base="b" ours="mine"?>
        <Item order="0" title="mine"/>

      """)
    #expect(try fixes(removed).last?.result == Self.document("  <Item order=\"0\"/>\n"))
    let added = Self.document(
      """
        <?outline-conflict kind="attribute" name="title" ours="mine" theirs="new"?>
        <Item order="0" title="mine"/>
        <?outline-conflict kind="attribute" name="title" theirs="t"?>
        <Item order="1"/>

      """)
    #expect(
      try fixes(added).map(\.result).contains(
        Self.document(
          "  <?outline-conflict kind=\"attribute\" name=\"title\" ours=\"mine\" theirs=\"new\"?>\n  <Item order=\"0\" title=\"mine\"/>\n  <Item order=\"1\" title=\"t\"/>\n"
        )))
  }

  @Test func removedAgainstChangedKeepsOrRemovesTheItem() throws {
    let text = Self.document(
      """
        <Item order="0" title="a"/>
        <?outline-conflict kind="removed" side="theirs"?>
        <Item order="1" title="changed">
          <Item order="0" title="inside"/>
        </Item>

      """)
    let found = try fixes(text)
    #expect(found.map(\.title) == ["Keep the item (ours)", "Remove the item (theirs)"])
    #expect(found.last?.result == Self.document("  <Item order=\"0\" title=\"a\"/>\n"))
    #expect(found.allSatisfy { Session.codes($0.result).isEmpty })
  }

  @Test func removingAnItemBeforeItsSiblingsRenumbersThem() throws {
    let text = Self.document(
      """
        <Item order="0" title="a"/>
        <?outline-conflict kind="removed" side="ours"?>
        <!-- about x -->
        <Item order="1" title="x"/>
        <Item order="2" title="b"/>

      """)
    let found = try fixes(text)
    #expect(found.map(\.title) == ["Keep the item (theirs)", "Remove the item (ours)"])
    #expect(
      found.last?.result
        == Self.document("  <Item order=\"0\" title=\"a\"/>\n  <Item order=\"1\" title=\"b\"/>\n"))
    #expect(found.allSatisfy { Session.codes($0.result).isEmpty })
  }

  @Test func aMoveToTwoParentsGoesToEitherPlace() throws {
    let text = Self.document(
      """
        <Item order="0" title="p">
          <?outline-conflict kind="moved" move="1" ours="p" theirs="q"?>
          <Item order="0" title="x"/>
        </Item>
        <Item order="1" title="q">
          <?outline-conflict kind="place" move="1" item="x" ours="p"?>
        </Item>

      """)
    let found = try fixes(text)
    let here = Self.document(
      """
        <Item order="0" title="p">
          <Item order="0" title="x"/>
        </Item>
        <Item order="1" title="q">
        </Item>

      """)
    let there = Self.document(
      """
        <Item order="0" title="p">
        </Item>
        <Item order="1" title="q">
          <Item order="0" title="x"/>
        </Item>

      """)
    #expect(found.first { $0.title == "Keep it here (ours)" }?.result == here)
    #expect(found.first { $0.title == "Move it here (theirs)" }?.result == there)
    #expect(Session.codes(there).isEmpty)
  }

  /// Either item may stay; the later siblings of the one removed are renumbered, so no order
  /// gap is left and each result lints clean.
  @Test func anIDOfBothSidesKeepsEitherItem() throws {
    let text = Self.document(
      """
        <Item xml:id="n" order="0" title="ours"/>
        <?outline-conflict kind="id" id="n"?>
        <Item xml:id="n" order="1" title="theirs"/>
        <Item order="2" title="last"/>

      """)
    let results = try fixes(text).map(\.result)
    #expect(
      results.contains(
        Self.document(
          "  <Item xml:id=\"n\" order=\"0\" title=\"ours\"/>\n  <Item order=\"1\" title=\"last\"/>\n")))
    #expect(
      results.contains(
        Self.document(
          "  <Item xml:id=\"n\" order=\"0\" title=\"theirs\"/>\n  <Item order=\"1\" title=\"last\"/>\n")))
    #expect(results.count == 2 && results.allSatisfy { Session.codes($0).isEmpty })
  }
}
