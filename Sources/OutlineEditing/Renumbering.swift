import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// Renumbers sibling groups by document order: the safe fix for OL400-OL402.
///
/// Edits touch only order values (and insert a missing order attribute right
/// after the element name), so layout and comments stay as they are.
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

  /// Edits giving the children of `group` the orders `0..n-1` in document order.
  public static func edits(numbering group: Group, in tree: ItemTree, source: SourceText, model: Model)
    -> [TextEdit]
  {
    edits(
      assigning: group.children.enumerated().map { ($1, Int64($0)) }, in: tree, source: source, model: model)
  }

  /// Edits that set each item's order to the value given, touching only what differs.
  public static func edits(
    assigning orders: [(item: Int, order: Int64)], in tree: ItemTree, source: SourceText, model: Model
  ) -> [TextEdit] {
    var edits: [TextEdit] = []
    for (index, order) in orders {
      let item = tree.items[index]
      let text = String(order)
      if let range = item.orderRange {
        if source.string(in: range) != text { edits.append(TextEdit(range: range, newText: text)) }
      } else if item.entity >= 0, model.index.orderAttribute[Int(item.entity)] >= 0 {
        let attribute = model.index.orderAttribute[Int(item.entity)]
        let name = model.entities[Int(item.entity)].attributes[attribute].name
        edits.append(TextEdit(range: TextRange(at: item.nameRange.end), newText: " \(name)=\"\(text)\""))
      }
    }
    return edits
  }

  /// The codes renumbering repairs.
  public static let fixableCodes: Set<DiagnosticCode> = [
    .orderMissing, .duplicateOrder, .orderOutOfSequence,
  ]

  /// Edits renumbering every broken group that has a problem among
  /// `reported` (`source.fixAll`, `--fix`): the diagnostics as the user sees
  /// them, after the configuration's rules and the suppression comments, so
  /// a fix never touches what the user turned off. A group is fixed when an
  /// OL400-OL402 of `reported` lies in one of its children's start tags.
  /// Linear in the document (a binary search per child).
  public static func fixAll(tree: ItemTree, source: SourceText, model: Model, reported: [Diagnostic])
    -> [TextEdit]
  {
    let offsets = reported.lazy.filter { fixableCodes.contains($0.code) }.map(\.range.start).sorted()
    guard !offsets.isEmpty else { return [] }
    func hasReported(_ range: TextRange) -> Bool {
      let low = Partition.point(offsets.count) { offsets[$0] < range.start }
      return low < offsets.count && range.contains(offsets[low])
    }
    var edits: [TextEdit] = []
    for parent in tree.items.indices where tree.items[parent].subtreeEnd > Int32(parent + 1) {
      for group in groups(under: parent, in: tree, model: model)
      where !isValid(group, in: tree)
        && group.children.contains(where: { hasReported(tree.items[$0].startTag) })
      {
        edits += self.edits(numbering: group, in: tree, source: source, model: model)
      }
    }
    return edits
  }
}
