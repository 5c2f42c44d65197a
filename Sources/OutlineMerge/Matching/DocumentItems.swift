// The items of one document as matching, diff and merge read them: the item tree, two hashes per item (its own
// content, hashed in the one pass over its start tag that finds its attributes, and its whole subtree, computed
// bottom-up in one loop over the flat tree), and each item's attributes as ranges of the bytes, read again from
// its start tag when asked (few items are). No recursion: the children of an item come after it in pre-order.

import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineXML

/// One attribute of an item's start tag, as ranges of the document's bytes.
public struct ItemAttribute: Sendable, Hashable {
  /// The attribute's name.
  public var name: TextRange
  /// The value between the quotes, as written (not decoded).
  public var value: TextRange
}

/// One document's items with what comparing two documents needs of each: its attributes, the
/// hash of its own content and of its subtree, and its place among its siblings.
///
/// Build one from a document's bytes and the ``ItemTree`` a validation pass bound to the model
/// (`DocumentCheck.run(..., buildTree: true)` or `OutlineValidator.validate`), then compare two with
/// ``Matching``. An item's own content is its element name and its attributes but its `order`
/// value, in any attribute order; its subtree hash adds its children's subtree hashes in sibling
/// order (grouped by relationship, then by order value, then document order), so an identical
/// subtree hashes the same wherever it stands and whatever `order` its root has.
public struct DocumentItems: Sendable {
  /// The document's bytes.
  public let source: SourceText
  /// Its item tree (index 0 is the root).
  public let tree: ItemTree
  /// The model the tree was bound to, when there was one.
  public let model: Model?
  /// The hash of each item's own content.
  public let ownHash: [UInt64]
  /// The hash of each item's `xml:id` value with its low bit set, 0 when it has none.
  let idHashes: [UInt64]
  /// The hash of each item's subtree.
  public let subtreeHash: [UInt64]
  /// Each item's position among its parent's children in sibling order, from 0.
  public let siblingRank: [Int32]
  /// Each item's position among its parent's children of its own relationship, from 0.
  public let groupRank: [Int32]
  /// Whether each item's subtree stands in sibling order in the document (every item's
  /// children sorted), so that two identical such subtrees correspond item by item in pre-order.
  public let inDocumentOrder: [Bool]

  /// The items of `source`, whose tree is `tree`, bound to `model` (nil when unknown).
  public init(source: SourceText, tree: ItemTree, model: Model?) {
    self.source = source
    self.tree = tree
    self.model = model
    let items = tree.items
    let (ownHash, idHashes) = source.bytes.withByteView { Self.ownHashes($0, items) }
    self.ownHash = ownHash
    self.idHashes = idHashes

    // Bottom-up: an item's children come after it, so walking backwards finds them all hashed.
    var subtreeHash = [UInt64](repeating: 0, count: items.count)
    var siblingRank = [Int32](repeating: 0, count: items.count)
    var groupRank = [Int32](repeating: 0, count: items.count)
    var inDocumentOrder = [Bool](repeating: true, count: items.count)
    for index in items.indices.reversed() {
      var hash = ownHash[index]
      var child = index + 1
      let end = Int(items[index].subtreeEnd)
      var rank: Int32 = 0
      var previous: SiblingKey?
      var sorted = true
      var below = true
      while child < end {
        let key = SiblingKey(items[child], position: rank)
        if let previous, key < previous { sorted = false }
        previous = key
        below = below && inDocumentOrder[child]
        rank += 1
        hash = ContentHash.mix(
          hash ^ (subtreeHash[child] &+ UInt64(bitPattern: Int64(items[child].relationship))))
        child = Int(items[child].subtreeEnd)
      }
      var children: [Int] = []
      if !sorted {
        children = Self.sequence(of: index, in: tree)
        hash = ownHash[index]
        for child in children {
          hash = ContentHash.mix(
            hash ^ (subtreeHash[child] &+ UInt64(bitPattern: Int64(items[child].relationship))))
        }
      }
      // Ranks in sibling order: overall, and within the child's relationship.
      var group: Int32 = 0
      var relationship: Int32 = .min
      var at = index + 1
      for rank in 0..<Int(rank) {
        let child = sorted ? at : children[rank]
        if sorted { at = Int(items[at].subtreeEnd) }
        if items[child].relationship != relationship {
          relationship = items[child].relationship
          group = 0
        }
        siblingRank[child] = Int32(rank)
        groupRank[child] = group
        group += 1
      }
      inDocumentOrder[index] = sorted && below
      subtreeHash[index] = ContentHash.mix(hash &+ ContentHash.subtreeSalt)
    }
    self.subtreeHash = subtreeHash
    self.siblingRank = siblingRank
    self.groupRank = groupRank
    self.inDocumentOrder = inDocumentOrder
  }

  /// The hash of each item's own content (its element name and its attributes but `order`, in
  /// any order), and of its `xml:id` value, taken from the same pass over its start tag.
  private static func ownHashes(_ bytes: ByteView, _ items: [Item]) -> (own: [UInt64], ids: [UInt64]) {
    var ownHash: [UInt64] = []
    ownHash.reserveCapacity(items.count)
    var idHashes = [UInt64](repeating: 0, count: items.count)
    for index in items.indices {
      let (tag, nameLength, order, id) = (
        items[index].startTag, Int(items[index].nameLength), items[index].orderRange, items[index].idRange
      )
      let name = TextRange(start: tag.start + 1, end: tag.start + 1 + nameLength)
      var hash = ContentHash.bytes(bytes, name) &* ContentHash.elementSalt
      var scanner = TagAttributes.Scanner(bytes, tag: tag, nameLength: nameLength)
      while let next = scanner.next(bytes) {
        if let order, order == next.attribute.value { continue }
        if let id, id == next.attribute.value { idHashes[index] = next.valueHash | 1 }
        // A sum, so the attributes' order in the tag does not count.
        hash = hash &+ ContentHash.mix(next.nameHash &* ContentHash.nameSalt ^ next.valueHash)
      }
      if let id, idHashes[index] == 0 { idHashes[index] = ContentHash.value(bytes, id) | 1 }
      ownHash.append(ContentHash.mix(hash))
    }
    return (ownHash, idHashes)
  }

  /// How many items there are.
  public var count: Int { tree.items.count }

  /// The attributes of `item` (but `order`), read from its start tag.
  public func attributes(of item: Int) -> [ItemAttribute] {
    let element = tree.items[item]
    return source.bytes.withByteView { bytes in
      var attributes: [ItemAttribute] = []
      var scanner = TagAttributes.Scanner(bytes, element)
      while let next = scanner.next(bytes) {
        if next.attribute.value != element.orderRange { attributes.append(next.attribute) }
      }
      return attributes
    }
  }

  /// The children of `item` in sibling order: by relationship, then order value, then document order.
  public func sequence(of item: Int) -> [Int] {
    Self.sequence(of: item, in: tree)
  }

  /// Calls `body` with each child of `item` in sibling order, without a list when the document
  /// has them in that order.
  public func forEachChild(of item: Int, _ body: (Int) -> Void) {
    guard inDocumentOrder[item] else { return sequence(of: item).forEach(body) }
    var child = item + 1
    let end = Int(tree.items[item].subtreeEnd)
    while child < end {
      body(child)
      child = Int(tree.items[child].subtreeEnd)
    }
  }

  /// The bytes of `range` as a string, decoded when it is an attribute value.
  public func text(_ range: TextRange) -> String {
    String(decoding: source.bytes[range.start..<range.end], as: UTF8.self)
  }

  /// The decoded value of an attribute.
  public func value(of attribute: ItemAttribute) -> String {
    let raw = source.bytes[attribute.value.start..<attribute.value.end]
    if !raw.contains(where: ContentHash.needsDecoding) { return String(decoding: raw, as: UTF8.self) }
    return XMLEscaping.decodeAttribute(Array(raw))
  }

  /// The element name of `item`.
  public func elementName(of item: Int) -> String { text(tree.items[item].nameRange) }

  /// Whether items `item` here and `other` in `document` have the same element name.
  public func sameName(_ item: Int, as other: Int, in document: DocumentItems) -> Bool {
    let (mine, theirs) = (tree.items[item].startTag.start + 1, document.tree.items[other].startTag.start + 1)
    let length = Int(tree.items[item].nameLength)
    return length == Int(document.tree.items[other].nameLength)
      && Self.same(source.bytes, mine..<mine + length, document.source.bytes, theirs..<theirs + length)
  }

  /// Whether `one[first]` and `other[second]` are the same bytes.
  static func same(_ one: [UInt8], _ first: Range<Int>, _ other: [UInt8], _ second: Range<Int>) -> Bool {
    first.count == second.count
      && one.withByteView(first) { mine in other.withByteView(second) { mine.equals($0) } }
  }

  /// The decoded title of `item`, or nil when it has none or it is empty.
  public func title(of item: Int) -> String? {
    guard let range = tree.items[item].titleRange else { return nil }
    let title = value(of: ItemAttribute(name: range, value: range))
    return title.isEmpty ? nil : title
  }

  /// The hash of `item`'s title value (0 when it has none).
  func titleHash(of item: Int) -> UInt64 {
    guard let range = tree.items[item].titleRange, range.length > 0 else { return 0 }
    return ContentHash.value(source.bytes, range) | 1
  }

  /// The hash of `item`'s `xml:id` value, when it has one.
  func idHash(of item: Int) -> UInt64? {
    idHashes[item] == 0 ? nil : idHashes[item]
  }

  /// Whether the `xml:id` of `item` here and of `other` in `document` are the same bytes.
  func sameID(_ item: Int, as other: Int, in document: DocumentItems) -> Bool {
    guard let mine = tree.items[item].idRange, let theirs = document.tree.items[other].idRange else {
      return false
    }
    return Self.same(source.bytes, mine.start..<mine.end, document.source.bytes, theirs.start..<theirs.end)
  }

  static func sequence(of item: Int, in tree: ItemTree) -> [Int] {
    let children = tree.children(of: item)
    let keys = children.enumerated().map { SiblingKey(tree.items[$0.element], position: Int32($0.offset)) }
    var sorted = true
    for index in keys.indices.dropFirst() where keys[index] < keys[index - 1] {
      sorted = false
      break
    }
    if sorted { return children }
    return children.indices.sorted { keys[$0] < keys[$1] }.map { children[$0] }
  }
}

/// Where a child stands among its siblings: relationship, then order value, then document order.
struct SiblingKey: Comparable {
  var relationship: Int32
  var order: Int64
  var position: Int32

  init(_ item: Item, position: Int32) {
    relationship = item.relationship
    order = item.order ?? Int64(position)
    self.position = position
  }

  static func < (lhs: SiblingKey, rhs: SiblingKey) -> Bool {
    (lhs.relationship, lhs.order, lhs.position) < (rhs.relationship, rhs.order, rhs.position)
  }
}
