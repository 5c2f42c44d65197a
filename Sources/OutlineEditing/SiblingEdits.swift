import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// Reordering siblings with minimal edits: each element's text moves whole
/// (its children, comments and layout with it) and takes the order value of
/// the place it moves to, so a valid group stays valid.
public enum SiblingEdits {
  /// The text of `item` with its order value replaced by `order` (kept when nil or unwritten).
  static func text(of item: Int, order: Int64?, tree: ItemTree, source: SourceText) -> String {
    let element = tree.items[item]
    let range = element.fullRange
    guard let order, let orderRange = element.orderRange else { return source.string(in: range) }
    return source.string(in: TextRange(start: range.start, end: orderRange.start)) + String(order)
      + source.string(in: TextRange(start: orderRange.end, end: range.end))
  }

  /// Swaps two siblings of one group (Move up / Move down): two edits.
  public static func swap(_ first: Int, _ second: Int, tree: ItemTree, source: SourceText) -> [TextEdit] {
    let a = tree.items[first]
    let b = tree.items[second]
    return [
      TextEdit(range: a.fullRange, newText: text(of: second, order: a.order, tree: tree, source: source)),
      TextEdit(range: b.fullRange, newText: text(of: first, order: b.order, tree: tree, source: source)),
    ]
  }

  /// Puts a valid group's children in document order by their orders (Sort siblings by order),
  /// by the key renumbering keeps (``ItemTree/inOrderOrder(_:)``): after a
  /// renumbering, the sort puts the children where their new numbers say.
  public static func sort(_ group: Renumbering.Group, tree: ItemTree, source: SourceText) -> [TextEdit] {
    let sorted = tree.inOrderOrder(group.children)
    var edits: [TextEdit] = []
    for (position, child) in group.children.enumerated() where sorted[position] != child {
      edits.append(
        TextEdit(
          range: tree.items[child].fullRange,
          newText: text(of: sorted[position], order: nil, tree: tree, source: source)))
    }
    return edits
  }

  /// The group under `item`'s parent that holds `item`.
  public static func group(of item: Int, tree: ItemTree, model: Model) -> Renumbering.Group? {
    let parent = Int(tree.items[item].parent)
    guard parent >= 0 else { return nil }
    return Renumbering.groups(under: parent, in: tree, model: model).first { $0.children.contains(item) }
  }
}
