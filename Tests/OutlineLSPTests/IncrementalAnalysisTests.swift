import Foundation
import OutlineCore
import OutlineSyntax
import TestSupport
import Testing

@testable import OutlineEditing
@testable import OutlineLSP

/// After every change of a long random sequence, the analysis the store
/// gives (carried over from the previous version when the change only
/// retypes a title) equals a fresh analysis of the same text: diagnostics,
/// messages, ranges and the item tree.
@Suite struct IncrementalAnalysisTests {
  static let words = ["Milk", "Eggs", "plan", "R&amp;D", "café", "notes", "x"]

  /// A nested document with titles, ids, references, comments and order
  /// problems (duplicates, gaps, missing orders).
  static func document(items: Int, using random: inout SeededGenerator) -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n"
    var open = 0
    var orders = [0]
    for index in 0..<items {
      let title = (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)!
      }
      .joined(separator: " ")
      var order = orders[open]
      orders[open] += Int.random(in: 0...9, using: &random) == 0 ? 0 : 1  // a duplicate now and then
      if Int.random(in: 0...19, using: &random) == 0 { order += 5 }
      let orderText = Int.random(in: 0...29, using: &random) == 0 ? "" : " order=\"\(order)\""
      let id = index % 7 == 0 ? " xml:id=\"i\(index)\"" : ""
      if index % 11 == 5 { text += String(repeating: "  ", count: open + 1) + "<!-- note \(index) -->\n" }
      let indent = String(repeating: "  ", count: open + 1)
      if open < 5 && Int.random(in: 0...3, using: &random) == 0 {
        text += "\(indent)<Item title=\"\(title)\"\(orderText)\(id)>\n"
        open += 1
        if orders.count <= open { orders.append(0) } else { orders[open] = 0 }
      } else {
        text += "\(indent)<Item title=\"\(title)\"\(orderText)\(id)/>\n"
      }
      while open > 0 && Int.random(in: 0...4, using: &random) == 0 {
        open -= 1
        text += String(repeating: "  ", count: open + 1) + "</Item>\n"
      }
    }
    while open > 0 {
      open -= 1
      text += String(repeating: "  ", count: open + 1) + "</Item>\n"
    }
    return text + "</outline>\n"
  }

  /// What a random edit inserts elsewhere: markup, quotes, references, newlines, non-ASCII.
  static let pieces = [
    "a", " ", "\"", "<", ">", "&amp;", "\n", "é", "<Item title=\"n\"/>", "</Item>", "order=\"3\" ", "zz",
  ]

  @Test func carriedAnalysisEqualsAFreshOneAfterEveryEdit() throws {
    var random = SeededGenerator(seed: 6)
    let store = DocumentStore()
    let mapper = PositionMapper(unit: .utf16)
    let uri = "untitled:incremental.outline"
    store.open(uri: uri, version: 1, text: Self.document(items: 300, using: &random))
    var carried = 0
    var undo: LSP.TextDocumentContentChangeEvent?
    for step in 0..<400 {
      // A change is undone by the next one, so the document is well formed most of the time.
      var (change, qualifies) = try #require(Self.randomChange(store[uri]!, using: &random, mapper: mapper))
      if let inverse = undo {
        change = inverse
        qualifies = false
        undo = nil
      } else {
        let source = store[uri]!.source
        let range = try #require(mapper.textRange(change.range!, in: source))
        let inserted = change.text.bytes.count
        let end = source.bytes.withUnsafeBufferPointer { _ in range.start + inserted }
        var after = source
        after.replace(range, with: change.text.bytes)
        undo = LSP.TextDocumentContentChangeEvent(
          range: mapper.range(TextRange(start: range.start, end: end), in: after),
          text: DocumentText(Array(source.bytes[range.start..<range.end])))
      }
      if qualifies { carried += 1 }
      let version = step + 2
      #expect(store.change(uri: uri, version: version, changes: [change], mapper: mapper) != nil)
      if let difference = FreshAnalysis.difference(store[uri]!) {
        Issue.record("step \(step): \(difference) (change carried over: \(qualifies))")
        return
      }
    }
    // Most title keystrokes are carried over; the rest of the sequence goes through full passes.
    #expect(carried > 40)
  }

  /// A keystroke in a random item's title (mostly), or a random edit anywhere;
  /// and whether ``TitleEdit`` carries the previous analysis over it.
  static func randomChange(_ snapshot: Snapshot, using random: inout SeededGenerator, mapper: PositionMapper)
    -> (LSP.TextDocumentContentChangeEvent, Bool)?
  {
    let source = snapshot.source
    let previous = snapshot.analysis
    let titles = previous.tree?.items.compactMap(\.titleRange) ?? []
    let range: TextRange
    let text: String
    if !titles.isEmpty && Int.random(in: 0...9, using: &random) < 7 {
      let title = titles.randomElement(using: &random)!
      let start = Int.random(in: title.start...title.end, using: &random)
      let end = min(title.end, start + Int.random(in: 0...2, using: &random))
      range = TextRange(start: start, end: end)
      text = ["X", "y", " ", "", "Q!", "é", "\"", "&"].randomElement(using: &random)!
    } else {
      let start = Int.random(in: 0...source.bytes.count, using: &random)
      range = TextRange(
        start: start, end: min(source.bytes.count, start + Int.random(in: 0...6, using: &random)))
      text = pieces.randomElement(using: &random)!
    }
    let lspRange = mapper.range(range, in: source)
    guard let offsets = mapper.textRange(lspRange, in: source) else { return nil }
    var probe = previous
    var edited = source
    edited.replace(offsets, with: Array(text.utf8))
    let applied = AppliedChange(
      range: TextRange(start: offsets.start, end: offsets.start + text.utf8.count),
      removed: Array(source.bytes[offsets.start..<offsets.end]))
    let qualifies = TitleEdit.apply(applied, to: &probe, source: edited)
    return (LSP.TextDocumentContentChangeEvent(range: lspRange, text: DocumentText(text)), qualifies)
  }
}
