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

  /// A change whose range is invalid leaves the document as it was, even
  /// after earlier changes of the same notification were applied.
  @Test func invalidChangeLeavesTheTextAsItWas() {
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    store.open(uri: "untitled:a", version: 3, text: "one\ntwo\nthree\n")
    let changes = [
      LSP.TextDocumentContentChangeEvent(
        range: LSP.Range(start: .init(line: 1, character: 0), end: .init(line: 1, character: 3)),
        text: DocumentText("TWO\nand a half")),
      LSP.TextDocumentContentChangeEvent(range: nil, text: DocumentText("whole")),
      LSP.TextDocumentContentChangeEvent(
        range: LSP.Range(start: .init(line: 0, character: 2), end: .init(line: 0, character: 1)),
        text: DocumentText("x")),
    ]
    #expect(store.change(uri: "untitled:a", version: 4, changes: changes, mapper: mapper) == nil)
    #expect(store["untitled:a"]?.source == SourceText("one\ntwo\nthree\n"))
    #expect(store["untitled:a"]?.version == 3)
    #expect(
      store.change(uri: "untitled:a", version: 5, changes: Array(changes.prefix(1)), mapper: mapper) != nil)
    #expect(store["untitled:a"]?.source == SourceText("one\nTWO\nand a half\nthree\n"))
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
