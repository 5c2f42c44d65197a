import Foundation
import OutlineCore
import OutlineSyntax
import OutlineWorkspace
import TestSupport
import Testing

@testable import OutlineEditing
@testable import OutlineLSP

/// Keystrokes in attribute values of every kind (orders, titles, typed and
/// unknown attributes, ids, references) and edits of tags, on documents with
/// and without diagnostics, against a model with bounds and references:
/// after every change the analysis the store gives (carried over by
/// ``AttributeEdit`` where it can) equals a fresh analysis of the same text.
@Suite struct AttributeEditTests {
  static let model = TaskDocument.model(references: true)

  /// A document of tasks written against ``model``: see ``TaskDocument/text(items:problems:references:modelReference:using:)``.
  static func document(items: Int, problems: Bool, references: Bool, using random: inout SeededGenerator)
    -> String
  {
    TaskDocument.text(
      items: items, problems: problems, references: references, modelReference: "T.xcdatamodel",
      using: &random)
  }

  /// What a keystroke in a value types.
  static let keys = ["0", "1", "3", "9", "12", "-", "x", " ", "", "t", "5"]
  /// What an edit elsewhere inserts: markup, quotes, references, attributes.
  static let pieces = [
    "a", " ", "\"", "<", "&amp;", "\n", "<Task title=\"n\" owner=\"o\"/>", "</Task>", "order=\"3\" ",
  ]

  @Test(arguments: [(false, false), (true, false), (true, true)])
  func carriedAnalysisEqualsAFreshOneAfterEveryEdit(problems: Bool, references: Bool) throws {
    var random = SeededGenerator(seed: problems ? references ? 17 : 19 : 18)
    let text = Self.document(items: 200, problems: problems, references: references, using: &random)
    let carried = try Self.compareEveryEdit(model: Self.model, text: text, steps: 500, using: &random) {
      first in
      #expect(first.model != nil)
      #expect(
        problems ? first.diagnostics.count > 20 : first.diagnostics.isEmpty, "\(first.diagnostics.prefix(3))")
    }
    // Most value keystrokes are carried over; ids, references and the rest go through full passes.
    #expect(carried > 150)
  }

  /// Sends `steps` random edits (``randomChange(_:using:mapper:)``, each one that is not carried
  /// over undone by the next, so the document is well formed most of the time) to a store
  /// holding `text` beside a model file `model`, comparing its analysis with a fresh one after
  /// each (`opened` checks the first); returns how many were carried over.
  static func compareEveryEdit(
    model: String, text: String, steps: Int, using random: inout SeededGenerator,
    opened: (DocumentCheck) -> Void
  ) throws -> Int {
    let folder = Scratch.url("attribute-edit")
    let modelFile = folder.appendingPathComponent("T.xcdatamodel/contents")
    try FileManager.default.createDirectory(
      at: modelFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(model.utf8).write(to: modelFile)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = folder.appendingPathComponent("t.outline").absoluteString
    store.open(uri: uri, version: 1, text: text)
    opened(store[uri]!.analysis)
    var carried = 0
    var undo: LSP.TextDocumentContentChangeEvent?
    for step in 0..<steps {
      var change: LSP.TextDocumentContentChangeEvent
      var qualifies = false
      if let inverse = undo {
        change = inverse
        undo = nil
      } else {
        let snapshot = store[uri]!
        (change, qualifies) = try #require(Self.randomChange(snapshot, using: &random, mapper: mapper))
        if !qualifies {
          let source = snapshot.source
          let range = try #require(mapper.textRange(change.range!, in: source))
          var after = source
          after.replace(range, with: change.text.bytes)
          undo = LSP.TextDocumentContentChangeEvent(
            range: mapper.range(
              TextRange(start: range.start, end: range.start + change.text.bytes.count), in: after),
            text: DocumentText(Array(source.bytes[range.start..<range.end])))
        }
      }
      if qualifies { carried += 1 }
      #expect(store.change(uri: uri, version: step + 2, changes: [change], mapper: mapper) != nil)
      if let difference = FreshAnalysis.difference(store[uri]!) {
        Issue.record("step \(step): \(difference) (carried over: \(qualifies))")
        return carried
      }
    }
    return carried
  }

  /// A keystroke in a random value of a random start tag (mostly), or a
  /// random edit anywhere; and whether ``AttributeEdit`` carries the
  /// previous analysis over it.
  static func randomChange(_ snapshot: Snapshot, using random: inout SeededGenerator, mapper: PositionMapper)
    -> (LSP.TextDocumentContentChangeEvent, Bool)?
  {
    let source = snapshot.source
    let previous = snapshot.analysis
    let tags = previous.tree?.items.dropFirst().map(\.startTag) ?? []
    var range: TextRange
    let text: String
    if !tags.isEmpty && Int.random(in: 0...9, using: &random) < 8 {
      // The values of a start tag: between each pair of quotes.
      let tag = tags.randomElement(using: &random)!
      let quotes = (tag.start..<tag.end).filter { source.bytes[$0] == UInt8(ascii: "\"") }
      let pair = Int.random(in: 0..<max(1, quotes.count / 2), using: &random)
      guard quotes.count >= 2 * pair + 2 else { return nil }
      let value = TextRange(start: quotes[2 * pair] + 1, end: quotes[2 * pair + 1])
      let start = Int.random(in: value.start...value.end, using: &random)
      range = TextRange(start: start, end: min(value.end, start + Int.random(in: 0...2, using: &random)))
      text = keys.randomElement(using: &random)!
    } else {
      let start = Int.random(in: 0...source.bytes.count, using: &random)
      range = TextRange(
        start: start, end: min(source.bytes.count, start + Int.random(in: 0...6, using: &random)))
      text = pieces.randomElement(using: &random)!
    }
    let lspRange = mapper.range(range, in: source)
    guard let offsets = mapper.textRange(lspRange, in: source) else { return nil }
    range = offsets
    var probe = previous
    var ids: IDDirectory?
    var edited = source
    edited.replace(range, with: Array(text.utf8))
    let applied = AppliedChange(
      range: TextRange(start: range.start, end: range.start + text.utf8.count),
      removed: Array(source.bytes[range.start..<range.end]))
    let qualifies =
      TitleEdit.apply(applied, to: &probe, source: edited)
      || AttributeEdit.apply(
        applied, to: &probe, source: edited, rules: snapshot.settings.rules(previous.configuration), ids: &ids
      )
    return (LSP.TextDocumentContentChangeEvent(range: lspRange, text: DocumentText(text)), qualifies)
  }

  /// Ids edited one after the other, each carried over: the directory of ids
  /// kept between them follows each change (the second finds the first's new id).
  @Test func successiveIdEditsFindEachOther() throws {
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = "untitled:ids.outline"
    store.open(
      uri: uri, version: 1,
      text: "<outline version=\"1\">\n  <Item title=\"x\" order=\"0\" xml:id=\"a\"/>\n"
        + "  <Item title=\"y\" order=\"1\" xml:id=\"b\"/>\n  <Item title=\"z\" order=\"2\" xml:id=\"d\"/>\n</outline>\n"
    )
    #expect(store[uri]!.analysis.diagnostics.isEmpty)
    // a -> c, b -> c (now used twice), c -> e on the first (no longer), d -> e (twice again).
    for (step, (line, column, length, text)) in [
      (1, 36, 1, "c"), (2, 36, 1, "c"), (1, 36, 1, "e"), (3, 36, 1, "e"),
    ]
    .enumerated() {
      let snapshot = store[uri]!
      let range = LSP.Range(
        start: LSP.Position(line: line, character: column),
        end: LSP.Position(line: line, character: column + length))
      let offsets = try #require(mapper.textRange(range, in: snapshot.source))
      #expect(snapshot.source.bytes[offsets.start - 8..<offsets.start] == Array("xml:id=\"".utf8)[...])
      #expect(
        store.change(
          uri: uri, version: step + 2,
          changes: [LSP.TextDocumentContentChangeEvent(range: range, text: DocumentText(text))],
          mapper: mapper) != nil)
      let fresh = DocumentStore().open(uri: uri, text: store[uri]!.source.bytes).analysis
      #expect(store[uri]!.analysis.diagnostics == fresh.diagnostics, "step \(step)")
      #expect(fresh.diagnostics.map(\.code) == (step % 2 == 1 ? [.duplicateID] : []), "step \(step)")
    }
  }
}
