import OutlineCore

/// One sibling's order as the validator saw it, in 16 bytes: a parent may
/// have a million children.
struct OrderEntry {
  private var storedValue: Int64
  private var start: UInt32
  /// The range's length; the top bit says the value is missing or not an integer.
  private var lengthAndFlag: UInt32

  init(value: Int64?, range: TextRange) {
    storedValue = value ?? 0
    start = UInt32(truncatingIfNeeded: range.start)
    lengthAndFlag = UInt32(truncatingIfNeeded: range.length) & 0x7FFF_FFFF | (value == nil ? 0x8000_0000 : 0)
  }

  /// The order when it is an integer; nil when missing (OL400) or not an integer (OL300).
  var value: Int64? { lengthAndFlag & 0x8000_0000 != 0 ? nil : storedValue }
  /// The order value's range, or the element name's when it is missing.
  var range: TextRange {
    TextRange(start: Int(start), end: Int(start) + Int(lengthAndFlag & 0x7FFF_FFFF))
  }
}

/// A child of an open object, as its parent's checks need it when it closes: every child of
/// every open object is one entry in the validator's `children`, an object's from its frame's
/// `firstChild` on (a child's own children, above them, are removed when it closes, before its
/// next sibling comes). One stack for all: an object costs no array of its own, and a child
/// one append.
struct ChildEntry {
  /// Its order, when its relationship is numbered by an order attribute (`isNumbered`).
  var order: OrderEntry
  /// The parent's containment relationship that holds it.
  var relationship: Int32
  /// Whether its siblings in the relationship are numbered by their order attribute.
  var isNumbered: Bool
}

/// An open element on the validator's stack.
struct Frame {
  /// The item index in the tree (or the running count when no tree is built).
  var item: Int
  /// The entity, when known (-1 when not).
  var entity: Int
  /// Whether this is the root `<outline>`.
  var isRoot: Bool
  /// The element name's range.
  var nameRange: TextRange
  /// Where its title's raw bytes are in the validator's title store (kept
  /// for elements that can have children: messages name them); empty when none.
  var title: Range<Int>
  /// Where its children start in the validator's `children`.
  var firstChild: Int32
  /// The relationship of its last child, or -1.
  var lastRelationship: Int32 = -1
  /// Whether its children are in more than one relationship.
  var isMixed = false
  /// Where its tracked-relationship counters start in the reference table, or -1.
  var firstCounter: Int32 = -1
  /// The number of its id in the reference table, or -1.
  var idIndex: Int32 = -1
}
