import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// The editor features, called in process against a ``DocumentStore``
/// snapshot, as the server calls them.
@Suite struct FeatureTests {
  let session = Session()

  @Test func foldingAndSymbols() throws {
    let (snapshot, _) = session.open(weekend)
    let folds = try Session.decode(
      [LSP.FoldingRange].self, FoldingFeature(mapper: session.mapper).ranges(snapshot))
    #expect(
      folds.contains {
        $0.startLine == 4 && $0.endLine == 6 && $0.collapsedText == "Groceries 😀 (2 children)"
      })
    #expect(folds.contains { $0.kind == .comment && $0.startLine == 2 })
    let symbols = try Session.decode(
      [LSP.DocumentSymbol].self, SymbolsFeature(mapper: session.mapper).symbols(snapshot))
    #expect(symbols.map(\.name) == ["Groceries 😀", "Work"])
    #expect(symbols.map(\.kind) == [.object, .object])
    #expect(symbols.first?.children?.map(\.name) == ["Milk", "Eggs"])
    #expect(symbols.first?.children?.last?.detail == "Item #1")
  }

  /// 80,000 items are written in two halves at once: every item once, in order, nested as in the document.
  @Test func largeTreesKeepEverySymbolInOrder() throws {
    let (snapshot, _) = session.open(GeneratedOutline.twoLevels(parents: 400, children: 199))
    let raw = SymbolsFeature(mapper: session.mapper).symbols(snapshot)
    let symbols = try JSONValueCoding.decode(
      [LSP.DocumentSymbol].self, from: JSONValue.parse(raw.value.serializedBytes(), maximumDepth: 8))
    #expect(symbols.map(\.name) == (0..<400).map { "p\($0)" })
    for (parent, symbol) in symbols.enumerated() {
      let children = symbol.children ?? []
      guard children.count == 199 else {
        Issue.record("parent \(parent) has \(children.count) children")
        break
      }
      #expect(children.last?.detail == "Item #198")
      #expect(children.last?.children == nil)
      #expect(children.first?.range.start.line == 2 + parent * 201)
    }
  }

  @Test func deepChainGetsSymbolsAndFolds() throws {
    let depth = 20_000
    let text =
      "<outline>\n" + (0..<depth).map { "<Item order=\"0\" title=\"\($0)\">\n" }.joined()
      + String(repeating: "</Item>\n", count: depth) + "</outline>\n"
    let (snapshot, _) = session.open(text)
    #expect(snapshot.analysis.diagnostics.isEmpty)
    let folds = FoldingFeature(mapper: session.mapper).ranges(snapshot).value.serializedBytes()
    #expect(
      String(decoding: folds, as: UTF8.self).components(separatedBy: "\"startLine\"").count - 1 == depth + 1)
    // Symbols nest 20,000 deep: counted in the text, never decoded recursively.
    let symbols = SymbolsFeature(mapper: session.mapper).symbols(snapshot).value.serializedBytes()
    #expect(
      String(decoding: symbols, as: UTF8.self).components(separatedBy: "\"selectionRange\"").count - 1
        == depth)
  }

  @Test func malformedDocumentsKeepFoldsAndSymbolsForWhatParsed() throws {
    let (snapshot, _) = session.open(
      "<outline>\n  <Item title=\"a\" order=\"0\">\n    <Item title=\"b\" order=\"0\"/>\n  </Item>\n  <Item title=\"c\n"
    )
    let diagnostics = DiagnosticsFeature.render(snapshot, mapper: session.mapper)
    #expect(diagnostics.first?.code == "OL100")
    #expect(diagnostics.first?.severity == .error)
    let symbols = try Session.decode(
      [LSP.DocumentSymbol].self, SymbolsFeature(mapper: session.mapper).symbols(snapshot))
    #expect(symbols.first?.name == "a")
    #expect(symbols.first?.children?.first?.name == "b")
    let folds = try Session.decode(
      [LSP.FoldingRange].self, FoldingFeature(mapper: session.mapper).ranges(snapshot))
    #expect(folds.contains { $0.startLine == 1 })
  }

  /// An undefined entity is published over the whole reference, as `outline-lint` reports it.
  @Test func anUndefinedEntityIsTheWholeReference() {
    let (snapshot, markers) = session.open(
      "<outline>\n  <Item order=\"0\" title=\"a1️⃣&nbsp;2️⃣b\"/>\n</outline>\n")
    let diagnostics = DiagnosticsFeature.render(snapshot, mapper: session.mapper)
    #expect(diagnostics.map(\.code) == ["OL100"])
    #expect(diagnostics.first?.range.start == session.position(markers[0], in: snapshot))
    #expect(diagnostics.first?.range.end == session.position(markers[1], in: snapshot))
  }

  @Test func pullDiagnosticsReportTheOrderInvariant() throws {
    let (snapshot, _) = session.open(
      weekend.replacingOccurrences(of: "\"Eggs\" order=\"1\"", with: "\"Eggs\" order=\"0\""))
    let report = try DiagnosticsFeature(mapper: session.mapper).report(
      snapshot, LSP.DocumentDiagnosticParams(textDocument: .init(uri: snapshot.uri)))
    #expect(report.kind == .full)
    #expect(report.items?.map(\.code) == ["OL401"])
    #expect(report.items?.first?.relatedInformation?.count == 1)
  }

  @Test func codeActionsKeepTheDocumentValid() throws {
    let valid = Marked(weekend).text
    let brokenText = weekend.replacingOccurrences(of: "\"Eggs\" order=\"1\"", with: "\"Eggs\" order=\"7\"")
    let (broken, marks) = session.open(brokenText)
    let diagnostics = DiagnosticsFeature.render(broken, mapper: session.mapper)
    let feature = CodeActionsFeature(mapper: session.mapper, workspaceEdits: session.workspaceEdits)
    func actions(_ snapshot: Snapshot, at offset: Int, diagnostics: [LSP.Diagnostic] = []) throws -> [LSP
      .CodeAction]
    {
      let here = session.position(offset, in: snapshot)
      return try feature.actions(
        snapshot,
        LSP.CodeActionParams(
          textDocument: .init(uri: snapshot.uri), range: LSP.Range(start: here, end: here),
          context: LSP.CodeActionContext(diagnostics: diagnostics)))
    }
    let fixes = try actions(broken, at: marks[2], diagnostics: diagnostics)
    let renumber = fixes.first { $0.title == "Renumber children of Groceries 😀" }
    #expect(renumber?.kind == .quickFix)
    #expect(renumber?.isPreferred == true)
    #expect(session.apply(renumber?.edit, to: broken) == valid)
    let fixAll = fixes.first { $0.kind == .sourceFixAll }
    #expect(session.apply(fixAll?.edit, to: broken) == valid)
    // A diagnostic the document no longer reports gets no fix.
    let (fine, _) = session.open(weekend)
    #expect(try actions(fine, at: marks[2], diagnostics: diagnostics).allSatisfy { $0.kind != .quickFix })

    // Refactors on Eggs: each leaves a valid document.
    let moves = try actions(fine, at: marks[3])
    let up = moves.first { $0.title.hasPrefix("Move up") }
    let moved = session.apply(up?.edit, to: fine)
    #expect(moved.contains("<Item title=\"Eggs\" order=\"0\"/>\n    <Item title=\"Milk\" order=\"1\"/>"))
    #expect(Session.codes(moved) == [])
    for title in ["Indent: Eggs", "Delete item: Eggs", "Outdent: Eggs"] {
      let action = moves.first { $0.title == title }
      #expect(action?.kind == .refactorRewrite, "\(title) missing from \(moves.map(\.title))")
      let result = session.apply(action?.edit, to: fine)
      #expect(Session.codes(result) == [], "\(title):\n\(result)")
    }
    // `only` filters by kind prefix.
    let here = session.position(marks[3], in: fine)
    let onlyFixes = try feature.actions(
      fine,
      LSP.CodeActionParams(
        textDocument: .init(uri: fine.uri), range: LSP.Range(start: here, end: here),
        context: LSP.CodeActionContext(diagnostics: [], only: [LSP.CodeActionKind(rawValue: "source")])))
    #expect(onlyFixes.allSatisfy { $0.kind == .sourceFixAll })
  }

  @Test func hoverCompletionNavigationAndFormatting() throws {
    let (snapshot, marks) = session.open(weekend)
    let hover = try HoverFeature(mapper: session.mapper).hover(
      snapshot, session.at(marks[0] + 1, in: snapshot))
    #expect(hover?.contents.kind == .markdown)
    #expect(hover?.contents.value.contains("order: 0 of 2 siblings") == true)
    let completion = try CompletionFeature(mapper: session.mapper).complete(
      snapshot, session.at(marks[1] + 11, in: snapshot))  // after `xml:id="g">`
    #expect(
      completion.items.contains {
        $0.label == "Item" && $0.insertText == "<Item title=\"$1\" order=\"2\"/>" && $0.kind == .class
          && $0.insertTextFormat == .snippet
      })
    let navigation = NavigationFeature(mapper: session.mapper)
    let idAt = marks[1] + "xml:id=\"".utf8.count
    let definition = try navigation.definition(snapshot, session.at(idAt, in: snapshot))
    #expect(definition.flatMap { session.offset($0.range.start, in: snapshot) } == idAt)
    let references = try navigation.references(
      snapshot,
      LSP.ReferenceParams(
        textDocument: .init(uri: snapshot.uri), position: session.position(idAt, in: snapshot),
        context: .init(includeDeclaration: true)))
    #expect(references.count == 1)
    let prepared = try navigation.prepareRename(snapshot, session.at(marks[4], in: snapshot))
    #expect(prepared?.placeholder == "w")
    let rename = try navigation.rename(
      snapshot,
      LSP.RenameParams(
        textDocument: .init(uri: snapshot.uri), position: session.position(idAt, in: snapshot),
        newName: "groceries"), workspaceEdits: session.workspaceEdits)
    #expect(rename.documentChanges?.first?.textDocument.version == 1 && rename.changes == nil)
    #expect(session.apply(rename, to: snapshot).contains("xml:id=\"groceries\""))
    #expect(throws: Error.self) {
      try navigation.rename(
        snapshot,
        LSP.RenameParams(
          textDocument: .init(uri: snapshot.uri), position: session.position(idAt, in: snapshot), newName: "w"
        ), workspaceEdits: session.workspaceEdits)
    }
    let formatted = session.apply(FormattingFeature(mapper: session.mapper).format(snapshot), to: snapshot)
    #expect(formatted.contains("<Item xml:id=\"g\" order=\"0\" title=\"Groceries 😀\">"))
  }

  @Test func attributeHoverDescribesTheModel() throws {
    let (snapshot, marks) = session.open("<outline>\n  <Item title=\"a\" 1️⃣order=\"0\"/>\n</outline>\n")
    let hover = try HoverFeature(mapper: session.mapper).hover(
      snapshot, session.at(marks[0] + 1, in: snapshot))
    #expect(hover?.contents.value.hasPrefix("**order**: Integer 64") == true)
  }

  @Test func positionsCountTheNegotiatedUnit() throws {
    let text = "<outline>\n  <Item title=\"😀😀\" order=\"5\"/>\n</outline>\n"
    let utf16 = Session(unit: .utf16).open(text).0
    let utf8 = Session(unit: .utf8).open(text).0
    // `  <Item title="😀😀" order="`: 2 + 13 + 2*2 + 9 = 28 UTF-16 units, 32 bytes.
    #expect(
      DiagnosticsFeature.render(utf16, mapper: PositionMapper(unit: .utf16)).first?.range.start.character
        == 28)
    #expect(
      DiagnosticsFeature.render(utf8, mapper: PositionMapper(unit: .utf8)).first?.range.start.character == 32)
  }
}
