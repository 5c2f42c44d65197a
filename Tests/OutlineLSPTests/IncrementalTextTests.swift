import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineLSP

/// `didChange` edits the open text in place: after every change of a long
/// random sequence the text, its line index and its long lines' columns are
/// those of the same bytes indexed afresh.
@Suite struct IncrementalTextTests {
  /// Pieces edits are made of: newlines (LF and CRLF), multi-byte and astral
  /// characters, markup, and a run long enough to make a line long.
  static let pieces = [
    "a", "\n", "\r\n", "é", "😀", "<Item title=\"x\"/>", "\n\n", "", "中文",
    String(repeating: "w", count: 700),
  ]

  @Test func randomEditsMatchAFreshIndex() {
    var random = SeededGenerator(seed: 17)
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = "untitled:edits"
    store.open(uri: uri, text: "<outline version=\"1\">\n  <Item title=\"a\"/>\n</outline>\n")
    var expected = Array(store[uri]!.source.bytes)
    for step in 0..<600 {
      let source = store[uri]!.source
      // A range between two positions of the current text, in UTF-16 columns.
      let offsets = [
        Int.random(in: 0...expected.count, using: &random),
        Int.random(in: 0...expected.count, using: &random),
      ]
      .sorted()
      let start = mapper.position(offsets[0], in: source)
      let end = mapper.position(min(offsets[1], offsets[0] + 40), in: source)
      let range = LSP.Range(start: start, end: end)
      let text = (0..<Int.random(in: 0...3, using: &random)).map { _ in
        Self.pieces.randomElement(using: &random)!
      }
      .joined()
      // The offsets the positions name (a position inside a character moves to its start, as offset(of:) does).
      let startOffset = source.offset(
        of: SourcePosition(line: start.line, column: start.character), unit: .utf16)
      let endOffset = source.offset(of: SourcePosition(line: end.line, column: end.character), unit: .utf16)
      expected.replaceSubrange(startOffset..<max(startOffset, endOffset), with: Array(text.utf8))
      let snapshot = store.change(
        uri: uri, version: step + 2,
        changes: [LSP.TextDocumentContentChangeEvent(range: range, text: DocumentText(text))], mapper: mapper)
      #expect(snapshot?.version == step + 2)
      let edited = store[uri]!.source
      guard edited.bytes == expected else {
        Issue.record("step \(step): the bytes differ")
        return
      }
      guard edited == SourceText(bytes: expected) else {
        Issue.record("step \(step): the line index or the long lines' columns differ from a fresh index")
        return
      }
    }
  }

  /// No range is refused (LSP's rule for positions, and `vscode-languageserver-textdocument`'s for
  /// the rest): a character past its line's end is the line's end, a line past the last the text's
  /// end, negative values the start, and a range ending before its start is the range between
  /// them. Valid and invalid ranges mixed in one notification all apply, in order, and the
  /// analysis is the one the resulting text gets afresh.
  @Test func everyRangeApplies() throws {
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = "file:///tmp/outline-lsp-tests/ranges.outline"
    let text = "<outline version=\"1\">\n  <Item title=\"é😀\" order=\"0\"/>\n</outline>\n"
    _ = store.open(uri: uri, version: 3, text: text).analysis
    func change(_ start: (Int, Int), _ end: (Int, Int), _ text: String) -> LSP.TextDocumentContentChangeEvent
    {
      LSP.TextDocumentContentChangeEvent(
        range: LSP.Range(
          start: .init(line: start.0, character: start.1), end: .init(line: end.0, character: end.1)),
        text: DocumentText(text))
    }
    let changes = [
      // Valid: a second item after the first.
      change((1, 31), (1, 31), "\n  <Item title=\"b\" order=\"0\"/>"),
      // Reversed: the title's `é😀` (UTF-16 columns 15 to 18), given end first.
      change((1, 18), (1, 15), "x"),
      // Past the end of line 0: its line end, so the two lines join.
      change((0, 99), (1, 0), ""),
      // A start past the last line, an end before it: the range from the end to the text's end.
      change((40, 0), (3, 0), "<!-- tail -->\n"),
      // Negative values: the text's start, and the line's start.
      change((-1, 0), (0, -7), "<?xml version=\"1.0\"?>\n"),
    ]
    let outcome = try #require(
      store.change(uri: uri, version: 4, read: changes.map { .event($0) }, mapper: mapper))
    let expected =
      "<?xml version=\"1.0\"?>\n<outline version=\"1\">  <Item title=\"x\" order=\"0\"/>\n"
      + "  <Item title=\"b\" order=\"0\"/>\n</outline>\n<!-- tail -->\n"
    #expect(outcome.snapshot.source.string == expected)
    #expect(outcome.snapshot.source == SourceText(expected))
    #expect(outcome.reversedRanges == 2)
    #expect(outcome.lost == nil && outcome.snapshot.inSync)
    #expect(outcome.snapshot.version == 4)
    let fresh = DocumentStore().open(uri: uri, text: expected)
    #expect(outcome.snapshot.analysis.diagnostics == fresh.analysis.diagnostics)
    #expect(outcome.snapshot.analysis.diagnostics.map(\.code.rawValue) == ["OL401"])
  }

  /// A change that cannot be read (its range is no range) cannot be applied: the document is out
  /// of sync, keeps the last text the server was sure of, says nothing about it and skips later
  /// ranged changes, until a change gives the whole text again.
  @Test func anUnreadableChangeLeavesTheDocumentOutOfSync() throws {
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = "file:///tmp/outline-lsp-tests/lost.outline"
    store.open(uri: uri, version: 1, text: "<outline version=\"1\">\n</outline>\n")
    let duplicate = "<outline version=\"1\">\n<Item order=\"0\"/><Item order=\"0\"/>\n</outline>\n"
    let insert = LSP.ContentChange.event(
      LSP.TextDocumentContentChangeEvent(
        range: LSP.Range(start: .init(line: 1, character: 0), end: .init(line: 1, character: 0)),
        text: DocumentText("<Item order=\"0\"/>")))
    let lost = try #require(
      store.change(
        uri: uri, version: 2, read: [insert, .unreadable("range.start.line is not a number"), insert],
        mapper: mapper))
    #expect(lost.lost == "change 2 of 3: range.start.line is not a number")
    #expect(!lost.snapshot.inSync)
    #expect(lost.snapshot.source.string == "<outline version=\"1\">\n<Item order=\"0\"/></outline>\n")
    #expect(DiagnosticsFeature.render(lost.snapshot, mapper: mapper) == [])
    // Still lost: a ranged change is skipped, and the loss is not told again.
    let skipped = try #require(store.change(uri: uri, version: 3, read: [insert], mapper: mapper))
    #expect(!skipped.snapshot.inSync && skipped.lost == nil)
    #expect(skipped.snapshot.source == lost.snapshot.source)
    // The models changing keeps it out of sync.
    store.dependenciesChanged()
    #expect(store[uri]?.inSync == false)
    // The whole text: back in sync, analyzed as a fresh open of it.
    let whole = LSP.ContentChange.event(
      LSP.TextDocumentContentChangeEvent(range: nil, text: DocumentText(duplicate)))
    let back = try #require(store.change(uri: uri, version: 4, read: [whole], mapper: mapper))
    #expect(back.snapshot.inSync && back.lost == nil)
    #expect(
      DiagnosticsFeature.render(back.snapshot, mapper: mapper)
        == DiagnosticsFeature.render(DocumentStore().open(uri: uri, text: duplicate), mapper: mapper))
    #expect(!DiagnosticsFeature.render(back.snapshot, mapper: mapper).isEmpty)
  }

  /// A UTF-8 client's change at a column inside a character is made at the character's start:
  /// the text stays UTF-8, and the analysis carried over from the last version (a title edit)
  /// is the one the new text gets afresh.
  @Test func aChangeInsideACharacterNeverCutsIt() throws {
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf8)
    let uri = "file:///tmp/outline-lsp-tests/cut.outline"
    let text = "<outline title=\"W\">\n  <Item title=\"G😀\" order=\"0\"/>\n</outline>\n"
    _ = store.open(uri: uri, text: text).analysis
    // `  <Item title="G` is 16 bytes: columns 17 to 19 are inside the emoji.
    for (version, column) in [(2, 17), (3, 19), (4, 21)] {
      let at = LSP.Position(line: 1, character: column)
      let snapshot = try #require(
        store.change(
          uri: uri, version: version,
          changes: [
            LSP.TextDocumentContentChangeEvent(range: LSP.Range(start: at, end: at), text: DocumentText("Z"))
          ], mapper: mapper))
      #expect(String(validating: snapshot.source.bytes, as: UTF8.self) != nil, "version \(version)")
      #expect(
        snapshot.analysis.diagnostics
          == DocumentStore().open(uri: uri, text: snapshot.source.bytes).analysis.diagnostics)
    }
    #expect(store[uri]?.source.string == text.replacingOccurrences(of: "G😀", with: "GZZZ😀"))
  }

  /// An older snapshot a request still reads keeps its text when a newer version is edited.
  @Test func heldSnapshotKeepsItsText() {
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf8)
    let held = store.open(uri: "untitled:b", text: "abc\n")
    _ = store.change(
      uri: "untitled:b", version: 1,
      changes: [
        LSP.TextDocumentContentChangeEvent(
          range: LSP.Range(start: .init(line: 0, character: 1), end: .init(line: 0, character: 2)),
          text: DocumentText("\n"))
      ], mapper: mapper)
    #expect(held.source == SourceText("abc\n"))
    #expect(store["untitled:b"]?.source == SourceText("a\nc\n"))
  }
}
