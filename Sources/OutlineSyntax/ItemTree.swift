// The syntax tree of a document: its elements as flat items in pre-order with the ranges of their tags, ids and
// comments. It knows no model; a validation pass binds items to it (entity, containment, order and title), and
// without one those stay unbound (-1, nil).

import OutlineCore

/// One object of a document (index 0 is the root `<outline>`), stored flat.
///
/// Items are in document (pre-)order; the descendants of item `i` are the
/// items `i+1 ..< subtreeEnd`, so every walk is a loop, never recursion.
/// `entity`, `relationship`, `order`, `orderRange` and `titleRange` are the
/// model's reading of the item, set by the pass that binds it (the
/// validator); a tree built without a model leaves them -1 and nil.
public struct Item: Sendable, Hashable {
  /// The entity index in the model, or -1 when unknown or unbound.
  public var entity: Int32
  /// The parent item, or -1 for the root.
  public var parent: Int32
  /// 0 for the root.
  public var depth: Int32
  /// One past the last descendant.
  public var subtreeEnd: Int32
  /// The containment relationship (index in the parent entity's relationships), or -1.
  public var relationship: Int32
  /// The start tag, `<` to `>`.
  public var startTag: TextRange
  /// The length of the element name after `<`.
  public var nameLength: Int32
  /// The end tag, or nil for `<a/>` (and for an element cut short by a syntax error).
  public var endTag: TextRange?
  /// The order value when it is an integer.
  public var order: Int64?
  /// The order attribute's value range, when written.
  public var orderRange: TextRange?
  /// The title attribute's value range, when written.
  public var titleRange: TextRange?
  /// The `xml:id` value range, when written.
  public var idRange: TextRange?

  /// The element name's range.
  public var nameRange: TextRange {
    TextRange(start: startTag.start + 1, end: startTag.start + 1 + Int(nameLength))
  }

  /// From `<` of the start tag to `>` of the end tag.
  public var fullRange: TextRange {
    TextRange(start: startTag.start, end: endTag?.end ?? startTag.end)
  }
}

/// The item tree of a document: items in pre-order, its comments and processing instructions.
public struct ItemTree: Sendable {
  /// The items; index 0 is the root when the document has one.
  public var items: [Item] = []
  /// Every comment's range, `<!--` to `-->`.
  public var comments: [TextRange] = []
  /// Every processing instruction's range, `<?` to `?>` (the XML declaration is none).
  public var instructions: [TextRange] = []

  /// An empty tree.
  public init() {}

  /// How many children item `index` has, counted without a list.
  public func childCount(of index: Int) -> Int {
    var count = 0
    var child = index + 1
    let end = Int(items[index].subtreeEnd)
    while child < end {
      count += 1
      child = Int(items[child].subtreeEnd)
    }
    return count
  }

  /// How many children of `index` stand in `relationship` (a containment's index, or -1 for
  /// free objects, which stand in none): an item's siblings are those of its own relationship.
  public func childCount(of index: Int, relationship: Int32) -> Int {
    var count = 0
    var child = index + 1
    let end = Int(items[index].subtreeEnd)
    while child < end {
      if items[child].relationship == relationship { count += 1 }
      child = Int(items[child].subtreeEnd)
    }
    return count
  }

  /// How many children of `index` stand in one of its containment relationships (free objects
  /// under the root left out).
  public func containedChildCount(of index: Int) -> Int {
    var count = 0
    var child = index + 1
    let end = Int(items[index].subtreeEnd)
    while child < end {
      if items[child].relationship >= 0 { count += 1 }
      child = Int(items[child].subtreeEnd)
    }
    return count
  }

  /// The children of `index`, in document order.
  public func children(of index: Int) -> [Int] {
    var result: [Int] = []
    var child = index + 1
    let end = Int(items[index].subtreeEnd)
    while child < end {
      result.append(child)
      child = Int(items[child].subtreeEnd)
    }
    return result
  }

  /// The innermost item whose element contains `offset`.
  public func item(at offset: Int) -> Int? {
    guard !items.isEmpty, items[0].fullRange.contains(offset) else { return nil }
    var current = 0
    descend: while true {
      var child = current + 1
      let end = Int(items[current].subtreeEnd)
      while child < end {
        if items[child].fullRange.contains(offset) {
          current = child
          continue descend
        }
        if items[child].startTag.start > offset { break }
        child = Int(items[child].subtreeEnd)
      }
      return current
    }
  }
}

extension ItemTree {
  /// The children of `index` in order order: by their order value, document
  /// order among equals and for children without one (ordered relationships).
  public func orderedChildren(of index: Int) -> [Int] {
    inOrderOrder(children(of: index))
  }

  /// `siblings` (given in document order) sorted by their order values;
  /// document order among equals and for siblings without one.
  public func inOrderOrder(_ siblings: [Int]) -> [Int] {
    siblings.enumerated().sorted {
      (items[$0.element].order ?? Int64($0.offset), $0.offset) < (
        items[$1.element].order ?? Int64($1.offset), $1.offset
      )
    }.map(\.element)
  }
}
