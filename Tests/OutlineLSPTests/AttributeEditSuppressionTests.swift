import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineLSP

/// Keystrokes in attribute values (``AttributeEdit``, ``TitleEdit``) and
/// markup edits (``MarkupEdit``) in a document with `outline-disable`
/// comments, before the root, inside it and covering the next start tag:
/// after every change the analysis the store gives equals a fresh one, and
/// most value keystrokes are carried over. Built as ``AttributeEditTests``.
@Suite struct AttributeEditSuppressionTests {
  @Test func carriedAnalysisHonoursSuppressionCommentsAfterEveryEdit() throws {
    var random = SeededGenerator(seed: 41)
    let text = AttributeEditTests.document(items: 200, problems: true, references: false, using: &random)
      .replacingOccurrences(of: "<outline ", with: "<!-- outline-disable OL401 -->\n<outline ")
      .replacingOccurrences(of: "owner=\"me\">\n", with: "owner=\"me\">\n<!-- outline-disable OL203 -->\n")
      .replacingOccurrences(
        of: "<Task title=\"Eggs\"",
        with: "<!-- outline-disable-next OL300 OL302 OL400 -->\n<Task title=\"Eggs\"")
    let carried = try Self.compareEveryEdit(model: AttributeEditTests.model, text: text, using: &random)
    #expect(carried > 150, "\(carried) carried over")
  }

  /// Sends 400 random edits (``AttributeEditTests/randomChange(_:using:mapper:)``, each one that is not
  /// carried over undone by the next) to a store holding `text` beside a model file `model`, comparing
  /// its analysis with a fresh one after each; returns how many were carried over.
  static func compareEveryEdit(model: String, text: String, using random: inout SeededGenerator) throws -> Int
  {
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
    #expect(store[uri]!.analysis.diagnostics.count > 10)
    var carried = 0
    var undo: LSP.TextDocumentContentChangeEvent?
    for step in 0..<400 {
      var change: LSP.TextDocumentContentChangeEvent
      var qualifies = false
      if let inverse = undo {
        change = inverse
        undo = nil
      } else {
        let snapshot = store[uri]!
        (change, qualifies) = try #require(
          AttributeEditTests.randomChange(snapshot, using: &random, mapper: mapper))
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
      let snapshot = store[uri]!
      let fresh = DocumentStore().open(uri: uri, text: snapshot.source.bytes).analysis
      let analysis = snapshot.analysis
      guard analysis.diagnostics == fresh.diagnostics else {
        let extra = Set(analysis.diagnostics).subtracting(fresh.diagnostics).map {
          "\($0.range) \($0.message)"
        }
        let missing = Set(fresh.diagnostics).subtracting(analysis.diagnostics).map {
          "\($0.range) \($0.message)"
        }
        Issue.record(
          "step \(step): diagnostics differ from a fresh analysis (carried over: \(qualifies)): extra \(extra.sorted().prefix(3)), missing \(missing.sorted().prefix(3))"
        )
        return carried
      }
      guard analysis.tree?.items == fresh.tree?.items, !analysis.childrenInOrder || fresh.childrenInOrder
      else {
        Issue.record(
          "step \(step): the tree or its order differs from a fresh one (carried over: \(qualifies))")
        return carried
      }
    }
    return carried
  }
}
