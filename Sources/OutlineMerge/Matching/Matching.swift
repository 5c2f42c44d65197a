// The public face of matching: which item of one document is which item of another. The phases that decide it
// are in MatchBuilder.swift (the order of the phases) and ChildAlignment.swift (one parent's children).

/// Which item of an old document is which item of a new one, as a tree diff decides it.
///
/// Make one with `Matching(old:new:)` from two ``DocumentItems`` (each built from a document's bytes and
/// its bound ``ItemTree``), then ask ``new(for:)`` or ``old(for:)`` (or read ``oldToNew`` and ``newToOld``,
/// with -1 for an item the other side does not have: an old item without a match was removed, a new one
/// added). Items are matched in phases: the roots; items of the same `xml:id` and element name; then,
/// down from every matched pair, the children of the pair by identical subtrees, then by identical own
/// content, then by title; identical subtrees anywhere (a subtree moved to another parent); children left
/// between the same matched siblings, or whose attributes mostly agree (a title changed in place is one
/// item changed, not one removed and one added); items of identical own content or title anywhere (moved
/// and edited); last, an item whose children mostly went to one new item is that item. A matched pair
/// whose subtrees hash the same is matched item by item without looking further, so two documents with
/// few changes match in time linear in their size; no phase recurses on depth. The merge runs one
/// matching per side (base against each), the diff one.
public struct Matching: Sendable {
  /// For each old item, the new item it is, or -1.
  public let oldToNew: [Int32]
  /// For each new item, the old item it is, or -1.
  public let newToOld: [Int32]

  /// Matches the items of `old` with those of `new`.
  public init(old: DocumentItems, new: DocumentItems) {
    var builder = MatchBuilder(old: old, new: new)
    builder.run()
    oldToNew = builder.oldToNew
    newToOld = builder.newToOld
  }

  /// The new item that old item `old` is, or nil when it was removed.
  public func new(for old: Int) -> Int? {
    let match = oldToNew[old]
    return match < 0 ? nil : Int(match)
  }

  /// The old item that new item `new` is, or nil when it was added.
  public func old(for new: Int) -> Int? {
    let match = newToOld[new]
    return match < 0 ? nil : Int(match)
  }
}
