// One change of a structural diff: what kind, which items on each side, and what it needs to be said (the parents
// and places of a move, the attribute and values of a change). Items are indices into the two documents.

/// What happened to an item between two documents.
public enum ItemChangeKind: String, Sendable, CaseIterable {
  /// The new document has the item (and its subtree); the old one does not.
  case added
  /// The old document has the item (and its subtree); the new one does not.
  case removed
  /// The item stands under another parent, in another relationship, or at another place among its siblings.
  case moved
  /// An attribute of the item has another value.
  case changed
}

/// One change of a ``StructuralDiff``.
public struct ItemChange: Sendable, Equatable {
  /// What happened.
  public var kind: ItemChangeKind
  /// The item in the old document (nil when added).
  public var old: Int?
  /// The item in the new document (nil when removed).
  public var new: Int?
  /// The parent in the old document (removed, moved), nil for the root.
  public var oldParent: Int?
  /// The parent in the new document (added, moved), nil for the root.
  public var newParent: Int?
  /// For `added` and `removed`: how many items the subtree holds, the item itself included.
  public var items = 1
  /// For `changed`: the attribute's name.
  public var attribute: String?
  /// For `changed`: the old value (nil when the attribute was not written).
  public var oldValue: String?
  /// For `changed`: the new value (nil when the attribute is no longer written).
  public var newValue: String?
  /// For `changed` of a relationship: the ids it names now and did not before, in the new order.
  public var addedIDs: [String]?
  /// For `changed` of a relationship: the ids it named before and no longer does, in the old order.
  public var removedIDs: [String]?

  /// A change of `kind` between `old` and `new`.
  public init(_ kind: ItemChangeKind, old: Int?, new: Int?) {
    self.kind = kind
    self.old = old
    self.new = new
  }
}
