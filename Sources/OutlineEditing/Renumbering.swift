import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// Renumbers sibling groups `0..n-1`, keeping the order their values give:
/// the safe fix for OL400-OL402 (and for an OL300 or OL301 on an order).
///
/// The order attribute, not the position in the file, is what the data says
/// (Format.md). So a group is numbered in the order ``ItemTree/inOrderOrder(_:)``
/// gives, the order the JSON form, OPML export and outline numbers show: by
/// order value (any integer the attribute's type holds, negative or too large
/// included), document order among equal values, and a child without one
/// (missing, not an integer) taking its place among its siblings in the file
/// as its value. Only the children whose number changes are edited: the order
/// value is replaced, or a missing order attribute is inserted right after the
/// element name, so layout and comments stay as they are. "Sort siblings by
/// order" (``SiblingEdits/sort(_:tree:source:)``) is what moves elements.
public enum Renumbering {
  /// One group of siblings: the children of `parent` in one containment relationship.
  public struct Group: Sendable, Equatable {
    /// The parent item.
    public var parent: Int
    /// The children, in document order.
    public var children: [Int]
  }

  /// The numbered sibling groups under `parent`.
  public static func groups(under parent: Int, in tree: ItemTree, model: Model) -> [Group] {
    var byRelationship: [Int32: [Int]] = [:]
    var relationships: [Int32] = []
    var child = parent + 1
    let end = Int(tree.items[parent].subtreeEnd)
    let parentEntity = tree.items[parent].entity
    let index = model.index
    while child < end {
      let item = tree.items[child]
      if item.relationship >= 0, item.entity >= 0, parentEntity >= 0,
        index.orderAttribute[Int(item.entity)] >= 0,
        !index.isOrdered[Int(parentEntity)][Int(item.relationship)]
      {
        if byRelationship[item.relationship] == nil { relationships.append(item.relationship) }
        byRelationship[item.relationship, default: []].append(child)
      }
      child = Int(item.subtreeEnd)
    }
    return relationships.map { Group(parent: parent, children: byRelationship[$0]!) }
  }

  /// Whether the group's orders are exactly `0..n-1`, each once.
  public static func isValid(_ group: Group, in tree: ItemTree) -> Bool {
    var seen = [Bool](repeating: false, count: group.children.count)
    for child in group.children {
      guard let order = tree.items[child].order, order >= 0, order < Int64(seen.count), !seen[Int(order)]
      else { return false }
      seen[Int(order)] = true
    }
    return true
  }

  /// The orders `0..n-1` for the children of `group`, keeping the order their
  /// values give (``ItemTree/inOrderOrder(_:)``), each child with its new order.
  public static func numbering(_ group: Group, in tree: ItemTree) -> [(item: Int, order: Int64)] {
    tree.inOrderOrder(group.children).enumerated().map { ($1, Int64($0)) }
  }

  /// Edits giving the children of `group` the orders `0..n-1` that keep the
  /// order their values give (``numbering(_:in:)``); a valid group gets none.
  public static func edits(numbering group: Group, in tree: ItemTree, source: SourceText, model: Model)
    -> [TextEdit]
  {
    edits(assigning: numbering(group, in: tree), in: tree, source: source, model: model)
  }

  /// Edits that set each item's order to the value given, touching only the
  /// items whose number differs (a value written `+1` or `01` already is 1).
  public static func edits(
    assigning orders: [(item: Int, order: Int64)], in tree: ItemTree, source: SourceText, model: Model
  ) -> [TextEdit] {
    var edits: [TextEdit] = []
    for (index, order) in orders {
      let item = tree.items[index]
      if let range = item.orderRange {
        if item.order != order { edits.append(TextEdit(range: range, newText: String(order))) }
      } else if item.entity >= 0, model.index.orderAttribute[Int(item.entity)] >= 0 {
        let attribute = model.index.orderAttribute[Int(item.entity)]
        let name = model.entities[Int(item.entity)].attributes[attribute].name
        edits.append(TextEdit(range: TextRange(at: item.nameRange.end), newText: " \(name)=\"\(order)\""))
      }
    }
    return edits
  }

  /// The codes renumbering repairs.
  public static let fixableCodes: Set<DiagnosticCode> = [
    .orderMissing, .duplicateOrder, .orderOutOfSequence,
  ]

  /// The value codes renumbering repairs where they lie in an order value
  /// (an order that is not an integer, or not one of the attribute's type).
  public static let fixableValueCodes: Set<DiagnosticCode> = [.valueType, .valueOutOfBounds]

  /// Whether renumbering `item`'s sibling group repairs a diagnostic `code` at
  /// `offset` on it: an OL400-OL402, or an OL300/OL301 in the item's order value.
  public static func repairs(_ code: DiagnosticCode, at offset: Int, item: Int, in tree: ItemTree) -> Bool {
    if fixableCodes.contains(code) { return true }
    guard fixableValueCodes.contains(code), let range = tree.items[item].orderRange else { return false }
    return range.contains(offset)
  }

  /// Edits renumbering every broken group that has a problem among
  /// `reported` (`source.fixAll`, `--fix`): the diagnostics as the user sees
  /// them, after the configuration's rules and the suppression comments, so
  /// a fix never touches what the user turned off. A group is fixed when an
  /// OL400-OL402 of `reported` lies in one of its children's start tags, or
  /// an OL300/OL301 in one of their order values; each is numbered as
  /// ``edits(numbering:in:source:model:)`` does. Linear in the document (a
  /// binary search per child) but for the sort of each broken group.
  public static func fixAll(tree: ItemTree, source: SourceText, model: Model, reported: [Diagnostic])
    -> [TextEdit]
  {
    let offsets = reported.lazy.filter { fixableCodes.contains($0.code) }.map(\.range.start).sorted()
    let valueOffsets = reported.lazy.filter { fixableValueCodes.contains($0.code) }.map(\.range.start)
      .sorted()
    guard !offsets.isEmpty || !valueOffsets.isEmpty else { return [] }
    func has(_ offsets: [Int], in range: TextRange) -> Bool {
      let low = Partition.point(offsets.count) { offsets[$0] < range.start }
      return low < offsets.count && range.contains(offsets[low])
    }
    func hasReported(_ child: Int) -> Bool {
      let item = tree.items[child]
      if has(offsets, in: item.startTag) { return true }
      guard !valueOffsets.isEmpty, let orderRange = item.orderRange else { return false }
      return has(valueOffsets, in: orderRange)
    }
    var edits: [TextEdit] = []
    for parent in tree.items.indices where tree.items[parent].subtreeEnd > Int32(parent + 1) {
      for group in groups(under: parent, in: tree, model: model)
      where !isValid(group, in: tree) && group.children.contains(where: hasReported) {
        edits += self.edits(numbering: group, in: tree, source: source, model: model)
      }
    }
    return edits
  }
}
