import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineLSP

/// Hover text, code action titles and diagnostics quote what the document says only as an
/// excerpt (Files.md, "What messages quote"): a long title, element name or value is cut
/// after 60 characters, a line break in it written `\n`.
@Suite struct MessageExcerptFeatureTests {
  let session = Session()
  static let title = String(repeating: "t", count: 100_000) + "&#10;"
  static let shown = String(repeating: "t", count: 60) + "..."

  @Test func hoverNamesTheObjectAndItsParentsByExcerpts() throws {
    let (snapshot, marks) = session.open(
      "<outline>\n  <Item title=\"\(Self.title)\" order=\"0\">\n    <1️⃣Item title=\"a&#10;b\" order=\"0\"/>\n"
        + "  </Item>\n</outline>\n")
    let hover = try #require(
      try HoverFeature(mapper: session.mapper).hover(snapshot, session.at(marks[0] + 1, in: snapshot)))
    let text = hover.contents.value
    #expect(text.count < 2_000, "\(text.prefix(300))")
    #expect(text.hasPrefix(#"**Item** — a\nb"#), "\(text.prefix(300))")
    #expect(text.contains("in: \(Self.shown)"), "\(text.prefix(300))")
  }

  @Test func codeActionTitlesAndDiagnosticsAreShort() throws {
    let (snapshot, marks) = session.open(
      "<outline>\n  <Item title=\"\(Self.title)\" order=\"0\">\n    <1️⃣Item order=\"0\"/>\n"
        + "    <Item order=\"0\"/>\n  </Item>\n</outline>\n")
    let diagnostics = DiagnosticsFeature.render(snapshot, mapper: session.mapper)
    #expect(!diagnostics.isEmpty)
    for diagnostic in diagnostics {
      #expect(diagnostic.message.count < 400, "\(diagnostic.message.prefix(200))")
    }
    let here = session.position(marks[0] + 1, in: snapshot)
    let actions = try CodeActionsFeature(mapper: session.mapper, workspaceEdits: session.workspaceEdits)
      .actions(
        snapshot,
        LSP.CodeActionParams(
          textDocument: .init(uri: snapshot.uri), range: LSP.Range(start: here, end: here),
          context: LSP.CodeActionContext(diagnostics: diagnostics)))
    #expect(actions.contains { $0.title == "Renumber children of \(Self.shown)" }, "\(actions.map(\.title))")
    for action in actions {
      #expect(action.title.count < 200, "\(action.title.prefix(200))")
    }
  }
}
