// The changes between two matched documents: added and removed subtrees (their topmost items), moves (another
// parent or relationship, or out of step with the siblings that stayed: those off a longest increasing run of new
// places), and attribute changes. `order` values are never compared on their own: sibling order is what they mean.

import OutlineCore
import OutlineModel
import OutlineXML

/// The structural differences between two documents, item by item.
///
/// `StructuralDiff(old:new:)` matches the two documents' items (``Matching``) and lists every
/// ``ItemChange`` in the order a reviewer reads the new document: an added or removed subtree is one
/// change at its topmost item; a move is reported for the item whose parent, relationship or place among
/// the siblings that stayed is another, never for the siblings whose `order` values shifted with it;
/// each attribute whose value changed (`order` aside) is one change. Linear in the two documents for
/// few changes, but for the `n log n` of reordering within a group that was reordered.
public struct StructuralDiff: Sendable {
  /// The old document.
  public let old: DocumentItems
  /// The new document.
  public let new: DocumentItems
  /// Which old item is which new item.
  public let matching: Matching
  /// The changes, in reading order of the new document (removed items where they stood).
  public let changes: [ItemChange]

  /// The changes from `old` to `new`, with `matching` (computed when not given).
  public init(old: DocumentItems, new: DocumentItems, matching: Matching? = nil) {
    self.old = old
    self.new = new
    let matching = matching ?? Matching(old: old, new: new)
    self.matching = matching
    var collector = ChangeCollector(old: old, new: new, matching: matching)
    collector.collect()
    changes = collector.sorted()
  }

  /// Whether the two documents mean the same.
  public var isEmpty: Bool { changes.isEmpty }
}

/// Collects the changes with the offset in the new document each is read at.
struct ChangeCollector {
  let old: DocumentItems
  let new: DocumentItems
  let matching: Matching
  var found: [(at: Int, change: ItemChange)] = []

  init(old: DocumentItems, new: DocumentItems, matching: Matching) {
    self.old = old
    self.new = new
    self.matching = matching
  }

  mutating func collect() {
    collectRemoved()
    collectAdded()
    var reordered = Set<Int>()
    let (oldItems, newItems) = (old.tree.items, new.tree.items)
    let (oldToNew, oldHash, newHash) = (matching.oldToNew, old.subtreeHash, new.subtreeHash)
    for item in oldItems.indices {
      let match = Int(oldToNew[item])
      if match >= 0 && oldHash[item] != newHash[match] { reordered.formUnion(outOfStep(item, match)) }
    }
    // One model on both sides (the common case): a relationship is the same by its index.
    let oneModel = old.model != nil && old.model === new.model
    for item in oldItems.indices {
      let match = Int(oldToNew[item])
      guard match >= 0 else { continue }
      let (oldParent, newParent) = (Int(oldItems[item].parent), Int(newItems[match].parent))
      if oldParent >= 0 && newParent >= 0
        && (Int(oldToNew[oldParent]) != newParent || (!reordered.isEmpty && reordered.contains(item))
          || !(oneModel
            ? oldItems[item].relationship == newItems[match].relationship : sameRelationship(item, match)))
      {
        var change = ItemChange(.moved, old: item, new: match)
        change.oldParent = oldParent
        change.newParent = newParent
        found.append((newItems[match].startTag.start, change))
      }
      if old.ownHash[item] != new.ownHash[match] {
        let at = newItems[match].startTag.start
        for change in AttributeChanges.between(old, item, new, match) { found.append((at, change)) }
      }
    }
  }

  func sorted() -> [ItemChange] {
    // A stable sort: the changes of one item keep the order they were found in.
    found.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(
      \.element.change)
  }

  /// The topmost removed items, each with how many items it held, read where the item matched
  /// before it in the old document now stands.
  mutating func collectRemoved() {
    var at = 0
    var item = 0
    while item < old.count {
      if let match = matching.new(for: item) {
        // Just after that item's own changes.
        at = new.tree.items[match].startTag.start + 1
        item += 1
        continue
      }
      let parent = Int(old.tree.items[item].parent)
      var change = ItemChange(.removed, old: item, new: nil)
      change.oldParent = parent < 0 ? nil : parent
      change.items = Self.unmatched(in: item, of: old, matched: { matching.new(for: $0) != nil })
      found.append((at, change))
      item = Int(old.tree.items[item].subtreeEnd)
    }
  }

  /// The topmost added items, each with how many items it holds.
  mutating func collectAdded() {
    var item = 0
    while item < new.count {
      if matching.old(for: item) != nil {
        item += 1
        continue
      }
      let parent = Int(new.tree.items[item].parent)
      var change = ItemChange(.added, old: nil, new: item)
      change.newParent = parent < 0 ? nil : parent
      change.items = Self.unmatched(in: item, of: new, matched: { matching.old(for: $0) != nil })
      found.append((new.tree.items[item].startTag.start, change))
      item = Int(new.tree.items[item].subtreeEnd)
    }
  }

  /// How many items of the subtree of unmatched `item` are unmatched and not below a matched one.
  /// The walk skips a matched item's subtree, whose unmatched items are changes of their own.
  static func unmatched(in item: Int, of document: DocumentItems, matched: (Int) -> Bool) -> Int {
    var count = 0
    var at = item
    let end = Int(document.tree.items[item].subtreeEnd)
    while at < end {
      if matched(at) {
        at = Int(document.tree.items[at].subtreeEnd)
      } else {
        count += 1
        at += 1
      }
    }
    return count
  }

  /// The children of matched pair (`oldParent`, `newParent`) that stayed under it but out of step:
  /// those off a longest run of the stayers whose new places increase in their old order.
  func outOfStep(_ oldParent: Int, _ newParent: Int) -> [Int] {
    // Most groups are in step: find that out without a list.
    var last: Int32 = -1
    var inStep = true
    old.forEachChild(of: oldParent) { child in
      guard inStep, let match = matching.new(for: child), Int(new.tree.items[match].parent) == newParent
      else {
        return
      }
      if new.siblingRank[match] < last { inStep = false }
      last = new.siblingRank[match]
    }
    if inStep { return [] }
    var stayers: [Int] = []
    var places: [Int32] = []
    old.forEachChild(of: oldParent) { child in
      guard let match = matching.new(for: child), Int(new.tree.items[match].parent) == newParent else {
        return
      }
      stayers.append(child)
      places.append(new.siblingRank[match])
    }
    var increasing = true
    for index in places.indices.dropFirst() where places[index] < places[index - 1] {
      increasing = false
      break
    }
    if increasing { return [] }
    let kept = Set(LongestIncreasingRun.indices(places))
    return stayers.indices.filter { !kept.contains($0) }.map { stayers[$0] }
  }

  /// Whether old item `item` and new item `match` stand in the same relationship under their parents.
  func sameRelationship(_ item: Int, _ match: Int) -> Bool {
    let (oldIndex, newIndex) = (old.tree.items[item].relationship, new.tree.items[match].relationship)
    if let oldModel = old.model, oldModel === new.model { return oldIndex == newIndex }
    return relationship(old, item) == relationship(new, match)
  }

  /// The name of the relationship `item` stands in under its parent (nil when unknown or free).
  func relationship(_ document: DocumentItems, _ item: Int) -> String? {
    let element = document.tree.items[item]
    guard let model = document.model, element.parent >= 0, element.relationship >= 0 else { return nil }
    let parent = Int(document.tree.items[Int(element.parent)].entity)
    guard parent >= 0, parent < model.entities.count,
      Int(element.relationship) < model.entities[parent].relationships.count
    else { return nil }
    return model.entities[parent].relationships[Int(element.relationship)].name
  }
}

/// A longest strictly increasing subsequence, by patience sorting (`n log n`).
enum LongestIncreasingRun {
  /// The indices of one longest strictly increasing run of `values`.
  static func indices(_ values: [Int32]) -> [Int] {
    var tails: [Int] = []  // index of the smallest tail of a run of each length
    var previous = [Int](repeating: -1, count: values.count)
    for index in values.indices {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < values[index] { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var run: [Int] = []
    var at = tails.last ?? -1
    while at >= 0 {
      run.append(at)
      at = previous[at]
    }
    return run.reversed()
  }
}
