// Aligning the children of one matched pair: identical subtrees in step first (a walk that looks a few siblings
// ahead after a difference, no table), then what is left by identical subtree, identical own content and title
// (tables over what is left only), and, when `positional`, the children left between the same matched siblings,
// then those whose attributes mostly agree.

extension MatchBuilder {
  /// Matches the children of old item `oldParent` with those of new item `newParent`. Without
  /// `positional`, only exact phases run and a pair that leaves children on both sides is kept in
  /// ``leftovers`` for later.
  mutating func alignChildren(_ oldParent: Int, _ newParent: Int, positional: Bool) {
    var oldChildren: [Int] = []
    old.forEachChild(of: oldParent) { if oldToNew[$0] < 0 { oldChildren.append($0) } }
    guard !oldChildren.isEmpty else { return }
    var newChildren: [Int] = []
    new.forEachChild(of: newParent) { if newToOld[$0] < 0 { newChildren.append($0) } }
    guard !newChildren.isEmpty else { return }
    // One child left on each side (a chain, a change deep down): the exact phases without tables.
    if oldChildren.count == 1 && newChildren.count == 1 {
      let (oldChild, newChild) = (oldChildren[0], newChildren[0])
      if identical(oldChild, newChild) { return pairSubtrees(oldChild, newChild) }
      let title = old.titleHash(of: oldChild)
      if (old.ownHash[oldChild] == new.ownHash[newChild]
        || (title != 0 && title == new.titleHash(of: newChild)))
        && old.sameName(oldChild, as: newChild, in: new)
      {
        return pairAndQueue(oldChild, newChild)
      }
    }
    // In step: identical subtrees one after the other, resynchronized over a small window after
    // a difference (the nearest pair of identical subtrees ahead), as a line diff would.
    var oldAt = 0
    var newAt = 0
    walk: while oldAt < oldChildren.count && newAt < newChildren.count {
      if identical(oldChildren[oldAt], newChildren[newAt]) {
        pairSubtrees(oldChildren[oldAt], newChildren[newAt])
        oldAt += 1
        newAt += 1
        continue
      }
      for distance in 1...Self.window {
        for oldSkip in 0...distance {
          let (oldNext, newNext) = (oldAt + oldSkip, newAt + distance - oldSkip)
          guard oldNext < oldChildren.count && newNext < newChildren.count else { continue }
          if identical(oldChildren[oldNext], newChildren[newNext]) {
            (oldAt, newAt) = (oldNext, newNext)
            continue walk
          }
        }
      }
      oldAt += 1
      newAt += 1
    }
    let oldMiddle = oldChildren.filter { oldToNew[$0] < 0 }
    let newMiddle = newChildren.filter { newToOld[$0] < 0 }
    guard !oldMiddle.isEmpty && !newMiddle.isEmpty else { return }

    // Identical subtrees, then identical own content, then the same title.
    for phase in 0..<3 {
      var candidates = Candidates()
      for child in newMiddle where newToOld[child] < 0 {
        let key = key(new, child, phase: phase)
        if key != 0 { candidates.add(key, child) }
      }
      if candidates.isEmpty { break }
      for child in oldMiddle where oldToNew[child] < 0 {
        let key = key(old, child, phase: phase)
        guard key != 0,
          let match = candidates.take(
            key, available: { newToOld[$0] < 0 },
            fits: { phase == 0 ? identical(child, $0) : old.sameName(child, as: $0, in: new) })
        else { continue }
        if phase == 0 { pairSubtrees(child, match) } else { pairAndQueue(child, match) }
      }
    }
    guard oldMiddle.contains(where: { oldToNew[$0] < 0 }) && newMiddle.contains(where: { newToOld[$0] < 0 })
    else { return }
    guard positional else { return leftovers.append((Int32(oldParent), Int32(newParent))) }
    pairInGaps(oldParent, newParent)
    pairAgreeing(oldMiddle, newMiddle)
  }

  /// How many siblings ahead, on both sides together, the walk looks for the next identical pair.
  static let window = 12

  /// The key of `child` in an exact phase: its subtree hash, its own content's, its title's (0: none).
  private func key(_ document: DocumentItems, _ child: Int, phase: Int) -> UInt64 {
    switch phase {
    case 0: document.subtreeHash[child]
    case 1: document.ownHash[child]
    default: document.titleHash(of: child)
    }
  }

  /// Children left between the same two matched siblings (in both documents' sibling order), of one
  /// element name, pair up in order: an item edited in place.
  private mutating func pairInGaps(_ oldParent: Int, _ newParent: Int) {
    var candidates = Candidates()
    var anchor = -1
    for child in new.sequence(of: newParent) {
      if let match = Optional(Int(newToOld[child])), match >= 0 {
        if Int(old.tree.items[match].parent) == oldParent { anchor = child }
      } else {
        candidates.add(gapKey(anchor, new, child), child)
      }
    }
    guard !candidates.isEmpty else { return }
    anchor = -1
    for child in old.sequence(of: oldParent) {
      let match = Int(oldToNew[child])
      if match >= 0 {
        if Int(new.tree.items[match].parent) == newParent { anchor = match }
        continue
      }
      if let found = candidates.take(
        gapKey(anchor, old, child), available: { newToOld[$0] < 0 },
        fits: { old.sameName(child, as: $0, in: new) })
      {
        pairAndQueue(child, found)
      }
    }
  }

  /// A gap (named by the new sibling before it) and an element name, as one key.
  private func gapKey(_ anchor: Int, _ document: DocumentItems, _ child: Int) -> UInt64 {
    ContentHash.mix(UInt64(bitPattern: Int64(anchor)))
      ^ ContentHash.bytes(document.source.bytes, document.tree.items[child].nameRange)
  }

  /// Children left anywhere among their siblings, of one element name, whose attributes mostly
  /// agree: moved among their siblings and edited. Each looks at the first few of its name.
  private mutating func pairAgreeing(_ oldChildren: [Int], _ newChildren: [Int]) {
    var candidates = Candidates()
    for child in newChildren where newToOld[child] < 0 {
      candidates.add(ContentHash.bytes(new.source.bytes, new.tree.items[child].nameRange), child)
    }
    guard !candidates.isEmpty else { return }
    for child in oldChildren where oldToNew[child] < 0 {
      let name = ContentHash.bytes(old.source.bytes, old.tree.items[child].nameRange)
      if let found = candidates.take(
        name, available: { newToOld[$0] < 0 }, fits: { mostlyAgree(child, $0) })
      {
        pairAndQueue(child, found)
      }
    }
  }

  /// Whether at least half of the attributes of the two items (those of either) have one value in both.
  func mostlyAgree(_ oldItem: Int, _ newItem: Int) -> Bool {
    guard old.sameName(oldItem, as: newItem, in: new) else { return false }
    let oldAttributes = old.attributes(of: oldItem)
    let newAttributes = new.attributes(of: newItem)
    var values: [UInt64: UInt64] = [:]
    for attribute in newAttributes {
      values[ContentHash.bytes(new.source.bytes, attribute.name)] = ContentHash.value(
        new.source.bytes, attribute.value)
    }
    var agree = 0
    for attribute in oldAttributes
    where values[ContentHash.bytes(old.source.bytes, attribute.name)]
      == ContentHash.value(old.source.bytes, attribute.value)
    {
      agree += 1
    }
    let all = oldAttributes.count + newAttributes.count - agree
    return all == 0 || agree * 2 >= all
  }
}
