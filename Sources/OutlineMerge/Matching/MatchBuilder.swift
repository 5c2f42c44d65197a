// The phases of matching, in the order ``Matching`` documents: each phase pairs items the earlier ones left,
// and every pair it makes goes on a queue whose children are aligned next (ChildAlignment.swift). The global
// phases run once each over what is left, so the whole stays linear for documents with few changes.

/// Builds the two maps of a ``Matching``.
struct MatchBuilder {
  let old: DocumentItems
  let new: DocumentItems
  var oldToNew: [Int32]
  var newToOld: [Int32]
  /// Pairs whose children are still to be aligned.
  var queue: [(old: Int32, new: Int32)] = []
  var head = 0
  /// Pairs whose children were aligned without the positional phase and left some on both sides.
  var leftovers: [(old: Int32, new: Int32)] = []

  init(old: DocumentItems, new: DocumentItems) {
    self.old = old
    self.new = new
    oldToNew = [Int32](repeating: -1, count: old.count)
    newToOld = [Int32](repeating: -1, count: new.count)
  }

  mutating func run() {
    matchIDs()
    if old.count > 0 && new.count > 0 && oldToNew[0] < 0 && newToOld[0] < 0 { pairAndQueue(0, 0) }
    drain(positional: false)
    matchMovedSubtrees()
    let waiting = leftovers
    leftovers = []
    for pair in waiting { alignChildren(Int(pair.old), Int(pair.new), positional: true) }
    drain(positional: true)
    matchMovedItems()
    drain(positional: true)
    matchByChildren()
    drain(positional: true)
  }

  // MARK: - Pairs

  mutating func pair(_ oldItem: Int, _ newItem: Int) {
    oldToNew[oldItem] = Int32(newItem)
    newToOld[newItem] = Int32(oldItem)
  }

  /// Pairs two items and queues their children to be aligned.
  mutating func pairAndQueue(_ oldItem: Int, _ newItem: Int) {
    pair(oldItem, newItem)
    queue.append((Int32(oldItem), Int32(newItem)))
  }

  func size(_ document: DocumentItems, _ item: Int) -> Int {
    Int(document.tree.items[item].subtreeEnd) - item
  }

  /// Whether two unmatched subtrees are identical.
  func identical(_ oldItem: Int, _ newItem: Int) -> Bool {
    old.subtreeHash[oldItem] == new.subtreeHash[newItem] && size(old, oldItem) == size(new, newItem)
  }

  /// Pairs two identical subtrees item by item (items one side already matched elsewhere keep
  /// that match), with an explicit stack.
  mutating func pairSubtrees(_ oldItem: Int, _ newItem: Int) {
    if old.inDocumentOrder[oldItem] && new.inDocumentOrder[newItem] {
      for offset in 0..<size(old, oldItem)
      where oldToNew[oldItem + offset] < 0 && newToOld[newItem + offset] < 0 {
        pair(oldItem + offset, newItem + offset)
      }
      return
    }
    var stack = [(oldItem, newItem)]
    while let (oldNext, newNext) = stack.popLast() {
      if oldToNew[oldNext] < 0 && newToOld[newNext] < 0 { pair(oldNext, newNext) }
      let oldChildren = old.sequence(of: oldNext)
      let newChildren = new.sequence(of: newNext)
      for (oldChild, newChild) in zip(oldChildren, newChildren) { stack.append((oldChild, newChild)) }
    }
  }

  /// Aligns the children of every queued pair; `positional` as in ``alignChildren(_:_:positional:)``.
  mutating func drain(positional: Bool) {
    while head < queue.count {
      let (oldItem, newItem) = queue[head]
      head += 1
      if identical(Int(oldItem), Int(newItem)) {
        pairSubtrees(Int(oldItem), Int(newItem))
      } else {
        alignChildren(Int(oldItem), Int(newItem), positional: positional)
      }
    }
    queue.removeAll(keepingCapacity: true)
    head = 0
  }

  // MARK: - Global phases

  /// Items of the same `xml:id` and element name.
  mutating func matchIDs() {
    var ids = 0
    for hash in new.idHashes where hash != 0 { ids += 1 }
    guard ids > 0 else { return }
    var byID = ItemsByID(capacity: ids)
    for (item, hash) in new.idHashes.enumerated() where hash != 0 { byID.add(hash, Int32(item)) }
    for (item, hash) in old.idHashes.enumerated() where hash != 0 {
      guard let match = byID.item(of: hash), match >= 0 else { continue }
      let newItem = Int(match)
      guard newToOld[newItem] < 0, old.sameID(item, as: newItem, in: new),
        old.sameName(item, as: newItem, in: new)
      else { continue }
      pairAndQueue(item, newItem)
    }
  }

  /// Identical subtrees among the items left, wherever they stand: moved.
  mutating func matchMovedSubtrees() {
    var candidates = Candidates()
    for item in new.tree.items.indices where newToOld[item] < 0 {
      candidates.add(new.subtreeHash[item], item)
    }
    guard !candidates.isEmpty else { return }
    var item = 0
    while item < old.count {
      if oldToNew[item] < 0,
        let match = candidates.take(
          old.subtreeHash[item], available: { newToOld[$0] < 0 }, fits: { identical(item, $0) })
      {
        pairSubtrees(item, match)
        item = Int(old.tree.items[item].subtreeEnd)
      } else {
        item += 1
      }
    }
  }

  /// Items of identical own content, then of the same title, among the items left: moved and edited.
  mutating func matchMovedItems() {
    for byTitle in [false, true] {
      var candidates = Candidates()
      for item in new.tree.items.indices where newToOld[item] < 0 {
        let key = byTitle ? new.titleHash(of: item) : new.ownHash[item]
        if key != 0 { candidates.add(key, item) }
      }
      guard !candidates.isEmpty else { continue }
      for item in old.tree.items.indices where oldToNew[item] < 0 {
        let key = byTitle ? old.titleHash(of: item) : old.ownHash[item]
        guard key != 0,
          let match = candidates.take(
            key, available: { newToOld[$0] < 0 }, fits: { old.sameName(item, as: $0, in: new) })
        else { continue }
        pairAndQueue(item, match)
      }
    }
  }

  /// An item left whose matched children mostly went to one new item left is that item; bottom-up, so a
  /// parent so matched counts for its own parent.
  mutating func matchByChildren() {
    for item in old.tree.items.indices.reversed() where oldToNew[item] < 0 {
      var candidate = -1
      var votes = 0
      var children = 0
      var child = item + 1
      let end = Int(old.tree.items[item].subtreeEnd)
      // Boyer-Moore's majority vote over the new parents of the matched children.
      while child < end {
        children += 1
        let match = Int(oldToNew[child])
        if match >= 0 {
          let parent = Int(new.tree.items[match].parent)
          if votes == 0 {
            candidate = parent
            votes = 1
          } else {
            votes += parent == candidate ? 1 : -1
          }
        }
        child = Int(old.tree.items[child].subtreeEnd)
      }
      guard candidate >= 0, newToOld[candidate] < 0, old.sameName(item, as: candidate, in: new) else {
        continue
      }
      var count = 0
      child = item + 1
      while child < end {
        let match = Int(oldToNew[child])
        if match >= 0 && Int(new.tree.items[match].parent) == candidate { count += 1 }
        child = Int(old.tree.items[child].subtreeEnd)
      }
      if count * 2 > children { pairAndQueue(item, candidate) }
    }
  }
}

/// New items by the hash of their `xml:id`: a table open-addressed over a power of two, sized once.
struct ItemsByID {
  /// A hash and its item; -1 an empty slot, -2 a hash more than one item has.
  private struct Slot {
    var hash: UInt64 = 0
    var item: Int32 = -1
  }
  /// One array of slots, so that a probe reads one place.
  private var slots: [Slot]
  private let mask: Int

  /// A table for `capacity` items.
  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    slots = [Slot](repeating: Slot(), count: size)
    mask = size - 1
  }

  /// Adds `item` under `hash`; a second item of one hash (a broken document) leaves none there.
  mutating func add(_ hash: UInt64, _ item: Int32) {
    var slot = Int(truncatingIfNeeded: hash >> 1) & mask
    while slots[slot].item != -1 {
      if slots[slot].hash == hash {
        slots[slot].item = -2
        return
      }
      slot = (slot + 1) & mask
    }
    slots[slot] = Slot(hash: hash, item: item)
  }

  /// The item of `hash` (-2 when several have it), or nil.
  func item(of hash: UInt64) -> Int32? {
    var slot = Int(truncatingIfNeeded: hash >> 1) & mask
    while slots[slot].item != -1 {
      if slots[slot].hash == hash { return slots[slot].item }
      slot = (slot + 1) & mask
    }
    return nil
  }
}

/// New items by a hash, several per hash, taken in document order.
struct Candidates {
  private var first: [UInt64: Int32] = [:]
  private var last: [UInt64: Int32] = [:]
  private var next: [Int32: Int32] = [:]

  var isEmpty: Bool { first.isEmpty }

  mutating func add(_ hash: UInt64, _ item: Int) {
    if let tail = last[hash] {
      next[tail] = Int32(item)
    } else {
      first[hash] = Int32(item)
    }
    last[hash] = Int32(item)
  }

  /// The first item of `hash` that is `available` and `fits`, taken off. Items no longer available
  /// (taken elsewhere) are dropped from the front as they are met; items that are available but do not
  /// fit (another size, another element: rare for one hash) are passed over, at most a few.
  mutating func take(_ hash: UInt64, available: (Int) -> Bool, fits: (Int) -> Bool) -> Int? {
    while let head = first[hash], !available(Int(head)) { remove(hash, head, after: -1) }
    var previous: Int32 = -1
    var item = first[hash] ?? -1
    var looked = 0
    while item >= 0 && looked < 8 {
      if available(Int(item)) && fits(Int(item)) {
        remove(hash, item, after: previous)
        return Int(item)
      }
      looked += 1
      previous = item
      item = next[item] ?? -1
    }
    return nil
  }

  /// Takes `item` off the list of `hash`, where it follows `previous` (-1 at the front).
  private mutating func remove(_ hash: UInt64, _ item: Int32, after previous: Int32) {
    let following = next.removeValue(forKey: item) ?? -1
    if previous < 0 {
      first[hash] = following < 0 ? nil : following
    } else if following < 0 {
      next[previous] = nil
    } else {
      next[previous] = following
    }
    if following < 0 { last[hash] = previous < 0 ? nil : previous }
  }
}
