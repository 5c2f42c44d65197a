import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import TestSupport
import Testing

@testable import OutlineEditing

/// The incremental analyses (``TitleEdit``, ``AttributeEdit``, ``MarkupEdit``) on an analysis
/// made by the validator alone: what one carries over an edit equals a fresh pass of the new text.
/// The server's store drives the same code over its own analysis (OutlineLSPTests).
@Suite struct IncrementalEditTests {
  /// A document's analysis as a full pass makes it, without a workspace or rules.
  struct Analysis: CarriedAnalysis {
    var isJSONForm = false
    var model: Model?
    var tree: ItemTree?
    var diagnostics: [Diagnostic]
    var suppression: Suppression
    var madeReferences: Bool
    var childrenInOrder: Bool
    var parsed: Bool {
      !diagnostics.contains { $0.code == .notWellFormed || $0.code == .doctypePresent }
    }

    init(_ source: SourceText, model: Model = IncrementalEditTests.model) {
      let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
      self.model = validator.model
      tree = validator.tree
      diagnostics = Diagnostic.sortedByPosition(validator.diagnostics)
      suppression = validator.suppression
      madeReferences = validator.madeReferences
      childrenInOrder = validator.childrenInOrder
    }
  }

  static let model = ModelLoader.load(SourceText(TaskDocument.model(references: false)))

  /// A document of tasks written against ``model``.
  static func document(items: Int, problems: Bool, using random: inout SeededGenerator) -> String {
    TaskDocument.text(items: items, problems: problems, using: &random)
  }

  /// What a keystroke in a value types, and what an edit of markup inserts.
  static let keys = ["0", "1", "3", "9", "12", "-", "x", " ", "", "t", "5"]
  static let pieces = ["<Task title=\"n\" owner=\"o\"/>", "<Task order=\"0\" owner=\"o\"/>", " ", "\n"]

  /// Random keystrokes in values and pieces of markup between tags, each carried over where an
  /// analysis takes it: the carried analysis's diagnostics and items equal a fresh pass's.
  @Test func carriedAnalysisEqualsAFreshPass() throws {
    var carriedCount = 0
    try Property.check("incremental analyses match a fresh pass", cases: 6) { random, _ in
      var source = SourceText(Self.document(items: 40, problems: true, using: &random))
      var analysis = Analysis(source)
      for step in 0..<30 {
        let tree = try #require(analysis.tree)
        let range: TextRange
        let text: String
        if Bool.random(using: &random) {
          // Inside a value of a random start tag other than the root's.
          let tag = tree.items[Int.random(in: 1..<tree.items.count, using: &random)].startTag
          let quotes = (tag.start..<tag.end).filter { source.bytes[$0] == UInt8(ascii: "\"") }
          let pair = Int.random(in: 0..<quotes.count / 2, using: &random)
          let value = TextRange(start: quotes[2 * pair] + 1, end: quotes[2 * pair + 1])
          let start = Int.random(in: value.start...value.end, using: &random)
          range = TextRange(start: start, end: min(value.end, start + Int.random(in: 0...2, using: &random)))
          text = Self.keys.randomElement(using: &random)!
        } else {
          // Between the tags inside an item's element.
          let item = tree.items[Int.random(in: 1..<tree.items.count, using: &random)]
          guard item.endTag != nil else { continue }
          range = TextRange(at: item.startTag.end)
          text = Self.pieces.randomElement(using: &random)!
        }
        var edited = source
        edited.replace(range, with: Array(text.utf8))
        let change = AppliedChange(
          range: TextRange(start: range.start, end: range.start + text.utf8.count),
          removed: Array(source.bytes[range.start..<range.end]))
        var ids: IDDirectory?
        var carried = analysis
        let qualifies =
          TitleEdit.apply(change, to: &carried, source: edited)
          || AttributeEdit.apply(change, to: &carried, source: edited, rules: { $0 }, ids: &ids)
          || MarkupEdit.apply(change, to: &carried, source: edited, rules: { $0 }, ids: &ids)
        let fresh = Analysis(edited)
        if qualifies {
          carriedCount += 1
          if carried.diagnostics != fresh.diagnostics {
            return "step \(step): diagnostics differ after \(text.debugDescription) at \(range)"
          }
          if carried.tree?.items != fresh.tree?.items {
            return "step \(step): items differ after \(text.debugDescription) at \(range)"
          }
        }
        source = edited
        analysis = fresh
      }
      return nil
    }
    #expect(carriedCount > 30)
  }

  /// The item at each offset of a document is the one the tree's own walk finds.
  @Test func itemAtAnOffsetIsTheTreesOwn() throws {
    var random = SeededGenerator(seed: 3)
    let text = Self.document(items: 150, problems: true, using: &random)
    let tree = try #require(Analysis(SourceText(text)).tree)
    for offset in -1...(text.utf8.count + 1) {
      #expect(AttributeEdit.item(at: offset, in: tree) == tree.item(at: offset), "offset \(offset)")
    }
  }

  /// A keystroke in a title next to a diagnostic is analyzed afresh (the message names the item by its title).
  @Test func titleOfAnItemWithADiagnosticIsAnalyzedAfresh() {
    let source = SourceText(
      "<outline version=\"1\">\n  <Item title=\"a\" order=\"0\">\n    <Item title=\"b\"/>\n  </Item>\n</outline>\n"
    )
    var check = Analysis(source, model: ModelLoader.defaultModel)
    #expect(check.diagnostics.map(\.code) == [.orderMissing])
    var edited = source
    let at = Array(source.bytes).firstIndex(of: UInt8(ascii: "a"))! + 1  // in "a" of the first title
    edited.replace(TextRange(at: at), with: Array("Z".utf8))
    let change = AppliedChange(range: TextRange(start: at, end: at + 1), removed: [])
    #expect(!TitleEdit.apply(change, to: &check, source: edited))
  }

  /// A JSON-form analysis or one whose text did not parse is never carried.
  @Test func anAnalysisThatDidNotParseIsNotCarried() {
    let source = SourceText("<outline version=\"1\">\n  <Item title=\"a\" order=\"0\"/>\n</outline")
    var check = Analysis(source, model: ModelLoader.defaultModel)
    #expect(!check.parsed)
    var edited = source
    let at = Array(source.bytes).firstIndex(of: UInt8(ascii: "a"))! + 1
    edited.replace(TextRange(at: at), with: Array("Z".utf8))
    let change = AppliedChange(range: TextRange(start: at, end: at + 1), removed: [])
    var ids: IDDirectory?
    #expect(!TitleEdit.apply(change, to: &check, source: edited))
    #expect(!AttributeEdit.apply(change, to: &check, source: edited, rules: { $0 }, ids: &ids))
    var json = Analysis(
      SourceText("<outline version=\"1\">\n  <Item title=\"a\" order=\"0\"/>\n</outline>\n"))
    json.isJSONForm = true
    #expect(!TitleEdit.apply(change, to: &json, source: edited))
  }
}
