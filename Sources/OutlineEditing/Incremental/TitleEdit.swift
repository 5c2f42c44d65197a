import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// One range of the previous text replaced: `range` holds the replacement
/// in the new text; `removed` are the bytes it replaced.
public struct AppliedChange: Sendable {
  /// Where the replacement lies in the new text.
  public let range: TextRange
  /// The bytes of the previous text it replaced.
  public let removed: [UInt8]
  /// The change in length.
  public var delta: Int { range.end - range.start - removed.count }

  /// The change that put `range` (of the new text) where `removed` was.
  public init(range: TextRange, removed: [UInt8]) {
    self.range = range
    self.removed = removed
  }
}

/// The common keystroke, typing in an item's title, analyzed without a pass
/// over the document: the previous analysis with its offsets moved, when the
/// change provably leaves every diagnostic but their positions as it was.
///
/// A change qualifies when it replaces bytes inside one item's title value
/// (as the previous tree bound it), not inside a reference such as `&amp;`,
/// with others, both printable ASCII other than `<`, `>`, `&`, `"` and `'`:
/// the parser's events are then the same but for that value. The title's value must be one the validator does not
/// look at (its attribute has no type, bound or pattern to check, is no
/// member of a uniqueness constraint, its size far under the size rule), and no
/// diagnostic may lie in the item's subtree or on the edited line (their
/// messages name the item by its title, or count columns). Anything else is
/// analyzed afresh.
public enum TitleEdit {
  /// Moves `check`, the previous version's analysis, to the text after
  /// `change` (its tree edited in place when nothing else holds it); false,
  /// with `check` untouched, when the change does not qualify.
  public static func apply<Analysis: CarriedAnalysis>(
    _ change: AppliedChange, to check: inout Analysis, source: SourceText
  ) -> Bool {
    // The tree is not bound to a name here: one more reference to its items would copy them below.
    guard !check.isJSONForm, check.parsed, let model = check.model, check.tree != nil,
      qualifies(change, tree: check.tree!, diagnostics: check.diagnostics, index: model.index, source: source)
    else { return false }
    let delta = change.delta
    guard delta != 0 else { return true }
    let start = change.range.start
    let oldEnd = start + change.removed.count
    // Every offset after the change moves by its length.
    func moved(_ range: TextRange) -> TextRange {
      TextRange(
        start: range.start > start ? range.start + delta : range.start,
        end: range.end >= oldEnd ? range.end + delta : range.end)
    }
    var edited = ItemTree()
    swap(&edited, &check.tree!)
    if let item = AttributeEdit.item(at: start, in: edited) {
      AttributeEdit.move(&edited, item: item, by: change)
    }
    swap(&edited, &check.tree!)
    check.suppression.moveScopes { moved($0) }
    for index in check.diagnostics.indices {
      check.diagnostics[index].range = moved(check.diagnostics[index].range)
      for related in check.diagnostics[index].related.indices
      where check.diagnostics[index].related[related].file == nil {
        check.diagnostics[index].related[related].range = moved(
          check.diagnostics[index].related[related].range)
      }
    }
    return true
  }

  /// Whether `change` (offsets of the new text `source`) only retypes a title
  /// the validator does not look at, away from every diagnostic (offsets of the previous text).
  private static func qualifies(
    _ change: AppliedChange, tree: ItemTree, diagnostics: [Diagnostic], index: ModelIndex, source: SourceText
  ) -> Bool {
    let start = change.range.start
    let oldEnd = start + change.removed.count
    guard isPlain(change.removed),
      isPlain(source.bytes[change.range.start..<change.range.end]),
      let item = AttributeEdit.item(at: start, in: tree), let title = tree.items[item].titleRange,
      title.start <= start, oldEnd <= title.end
    else { return false }
    // Not inside a reference such as `&amp;` (the title's value in the new text holds the change).
    guard
      !AttributeEdit.splitsReference(
        change, value: TextRange(start: title.start, end: title.end + change.delta), source: source)
    else { return false }
    let bound = tree.items[item]
    let entity = Int(bound.entity)
    guard entity >= 0, entity < index.titleAttribute.count, index.titleAttribute[entity] >= 0,
      !index.uniqueness.checks[entity].contains(where: {
        $0.members.contains(.attribute(index.titleAttribute[entity]))
      }),
      !index.attributes[entity][index.titleAttribute[entity]].needsCheck,
      !SizeRule.exceeds(title.end - title.start + max(0, change.delta) + 4096)
    else { return false }
    // The item's subtree and the edited line, in the previous text.
    var subtreeEnd = bound.fullRange.end
    let last = Int(bound.subtreeEnd) - 1
    if last > item { subtreeEnd = max(subtreeEnd, tree.items[last].fullRange.end) }
    let line = source.lines.line(containing: start)
    let lineStart = source.lines.start(ofLine: line)
    let lineEnd = source.lines.start(ofLine: line + 1) - change.delta
    func touches(_ range: TextRange) -> Bool {
      (range.end >= bound.startTag.start && range.start <= subtreeEnd)
        || (range.end >= lineStart && range.start <= lineEnd)
    }
    for diagnostic in diagnostics {
      if touches(diagnostic.range) { return false }
      for related in diagnostic.related where related.file == nil && touches(related.range) { return false }
    }
    return true
  }

  /// Printable ASCII that cannot end a value or start markup or a reference.
  static func isPlain<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
    bytes.allSatisfy { byte in
      byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
        && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
    }
  }
}
