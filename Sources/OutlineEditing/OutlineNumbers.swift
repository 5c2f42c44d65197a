import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// Inlay hints: each item's outline number (`1.3.2`: its place among its
/// siblings in the order their `order` values give, then its parent's place
/// ...), and its order where the document implies it instead of writing it
/// (children of an ordered relationship are ordered by position).
public struct OutlineNumbers: Sendable {
  /// One hint.
  public struct Hint: Sendable, Equatable {
    /// What the hint shows.
    public enum Kind: Sendable, Equatable {
      /// The outline number, shown before the start tag.
      case number
      /// The implied order, shown after the element name.
      case impliedOrder
    }

    /// Where it is shown.
    public var offset: Int
    /// Its text.
    public var label: String
    /// What it shows.
    public var kind: Kind
  }

  /// Numbers longer than this many levels show the first two and the last
  /// `maximumLevels - 2`, with `…` between, so a hint's length is bounded.
  public static let maximumLevels = 8

  private let tree: ItemTree
  /// Each item's 1-based place among its siblings (0 for the root).
  private var places: [Int32]
  /// Each item's implied order, or -1.
  private var implied: [Int32]

  /// Ranks every item's siblings once: linear, but for sibling groups whose
  /// orders are not already `0..n-1` (those are sorted).
  public init(tree: ItemTree, model: Model?) {
    self.tree = tree
    places = [Int32](repeating: 0, count: tree.items.count)
    implied = [Int32](repeating: -1, count: tree.items.count)
    var groups: [Int32: [Int]] = [:]
    var groupOrder: [Int32] = []
    for parent in tree.items.indices where tree.items[parent].subtreeEnd > Int32(parent + 1) {
      groups.removeAll(keepingCapacity: true)
      groupOrder.removeAll(keepingCapacity: true)
      var child = parent + 1
      while child < Int(tree.items[parent].subtreeEnd) {
        let relationship = tree.items[child].relationship
        if groups[relationship] == nil { groupOrder.append(relationship) }
        groups[relationship, default: []].append(child)
        child = Int(tree.items[child].subtreeEnd)
      }
      var place: Int32 = 1
      let parentEntity = tree.items[parent].entity
      for relationship in groupOrder {
        let children = groups[relationship]!
        let byPosition =
          relationship >= 0 && parentEntity >= 0 && model != nil
          && model!.entities[Int(parentEntity)].relationships.indices.contains(Int(relationship))
          && model!.entities[Int(parentEntity)].relationships[Int(relationship)].isOrdered
        let ordered = byPosition ? children : Self.displayOrder(children, tree: tree)
        for (position, child) in ordered.enumerated() {
          places[child] = place
          place += 1
          if byPosition && tree.items[child].orderRange == nil { implied[child] = Int32(position) }
        }
      }
    }
  }

  /// `children` (document order) in the order their values give: a group
  /// numbered exactly `0..n-1` is placed by its values without sorting.
  static func displayOrder(_ children: [Int], tree: ItemTree) -> [Int] {
    var placed = [Int](repeating: -1, count: children.count)
    for child in children {
      guard let order = tree.items[child].order, order >= 0, order < Int64(children.count),
        placed[Int(order)] < 0
      else { return tree.inOrderOrder(children) }
      placed[Int(order)] = child
    }
    return placed
  }

  /// The outline number of `item` (`""` for the root), walking up its parents.
  public func number(of item: Int) -> String {
    var places: [Int32] = []
    var current = item
    while current > 0 {
      places.append(self.places[current])
      current = Int(tree.items[current].parent)
    }
    return Self.label(places.reversed())
  }

  static func label<C: Collection>(_ places: C) -> String where C.Element == Int32 {
    if places.count <= maximumLevels { return places.map(String.init).joined(separator: ".") }
    return (places.prefix(2).map(String.init) + ["…"] + places.suffix(maximumLevels - 2).map(String.init))
      .joined(separator: ".")
  }

  /// The hints of the items whose start tags begin inside `range`, in
  /// document order: one pass over the items before the range's end with a
  /// stack of places, so an item's number costs no walk up its parents.
  public func hints(in range: TextRange) -> [Hint] {
    var result: [Hint] = []
    var path: [Int32] = []  // places from the root's child down to the current item
    var open: [Int] = []  // the items whose places are in `path`
    for index in tree.items.indices.dropFirst() {
      let item = tree.items[index]
      if item.startTag.start >= range.end { break }
      while let last = open.last, Int(tree.items[index].parent) != last {
        open.removeLast()
        path.removeLast()
      }
      open.append(index)
      path.append(places[index])
      guard item.startTag.start >= range.start, item.parent >= 0 else { continue }
      result.append(Hint(offset: item.startTag.start, label: Self.label(path), kind: .number))
      if implied[index] >= 0 {
        result.append(Hint(offset: item.nameRange.end, label: "#\(implied[index])", kind: .impliedOrder))
      }
    }
    return result
  }
}
