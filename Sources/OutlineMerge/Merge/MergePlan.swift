// What becomes of every item of a three-way merge: which merged items exist, their parents, their attributes
// and the conflicts before them. Node ids: base items first (their base index), then ours' additions, then
// theirs', then the `place` records of move conflicts. Every loop is over flat arrays; nothing recurses.

import OutlineCore
import OutlineSyntax

/// One attribute as the merge carries it: its name and decoded value.
struct MergedAttribute: Equatable {
  var name: String
  var value: String
}

/// The decisions of a three-way merge, item by item (see ``ThreeWayMerge``).
struct MergePlan {
  let base: DocumentItems
  let ours: DocumentItems
  let theirs: DocumentItems
  let oursMatching: Matching
  let theirsMatching: Matching

  /// Ids below this are base items.
  let oursStart: Int
  /// Ids from here on (below ``placeStart``) are theirs' additions.
  let theirsStart: Int
  /// Ids from here on are `place` records.
  let placeStart: Int

  /// Each node's item in ours, or -1.
  var oursImage: [Int32]
  /// Each node's item in theirs, or -1.
  var theirsImage: [Int32]
  /// Whether the node is in the merged document.
  var present: [Bool]
  /// Each node's merged parent, or -1.
  var parent: [Int32]
  /// The id of each item of theirs (an identical addition is ours' node).
  var theirsID: [Int32]
  /// The attributes of the nodes whose start tag is not ours' as it stands (nil: ours' tag).
  var rewritten: [Int: (name: String, attributes: [MergedAttribute])] = [:]
  /// The conflicts recorded just before each node.
  var records: [Int: [ConflictRecord]] = [:]
  /// For a node in a move conflict, its `place` record's id.
  var places: [Int: Int] = [:]
  /// The records of the `place` nodes, by `id - placeStart`.
  var placeRecords: [ConflictRecord] = []
  /// The comments of the three documents, each side's matched with the base's.
  var comments = CommentMatch()

  init(
    base: DocumentItems, ours: DocumentItems, theirs: DocumentItems, oursMatching: Matching,
    theirsMatching: Matching
  ) {
    self.base = base
    self.ours = ours
    self.theirs = theirs
    self.oursMatching = oursMatching
    self.theirsMatching = theirsMatching
    oursStart = base.count
    theirsStart = base.count + ours.count
    placeStart = base.count + ours.count + theirs.count
    oursImage = [Int32](repeating: -1, count: placeStart)
    theirsImage = [Int32](repeating: -1, count: placeStart)
    present = [Bool](repeating: false, count: placeStart)
    parent = [Int32](repeating: -1, count: placeStart)
    theirsID = [Int32](repeating: -1, count: theirs.count)
    mapImages()
    let oursMatching = oursMatching
    let oursStart = oursStart
    comments = CommentMatch(
      base: base, ours: ours, theirs: theirs,
      oursID: { item in
        let match = Int(oursMatching.newToOld[item])
        return match >= 0 ? match : oursStart + item
      }, theirsID: theirsID)
    decidePresence()
    decideParents()
    keepReachable()
    decideAttributes()
    checkIDs()
  }

  /// The id of ours' item `item`.
  func oursID(_ item: Int) -> Int {
    let match = Int(oursMatching.newToOld[item])
    return match >= 0 ? match : oursStart + item
  }

  // MARK: - Images

  private mutating func mapImages() {
    for item in 0..<ours.count {
      oursImage[oursID(item)] = Int32(item)
    }
    for item in 0..<theirs.count {
      let match = Int(theirsMatching.newToOld[item])
      theirsID[item] = Int32(match >= 0 ? match : theirsStart + item)
    }
    // Identical subtrees both sides added under the same parent are one addition: theirs' items
    // become ours' nodes, item by item.
    var candidates: [TwinKey: [Int]] = [:]
    for item in 1..<max(1, ours.count) where oursMatching.newToOld[item] < 0 && ours.inDocumentOrder[item] {
      let key = TwinKey(parent: oursID(Int(ours.tree.items[item].parent)), hash: ours.subtreeHash[item])
      candidates[key, default: []].append(item)
    }
    var item = 1
    while item < theirs.count {
      guard theirsMatching.newToOld[item] < 0 else {
        item += 1
        continue
      }
      let end = Int(theirs.tree.items[item].subtreeEnd)
      if !candidates.isEmpty, let twin = oursTwin(of: item, among: &candidates) {
        for offset in 0..<(end - item) { theirsID[item + offset] = Int32(oursID(twin + offset)) }
        item = end
      } else {
        item += 1
      }
    }
    for item in 0..<theirs.count { theirsImage[Int(theirsID[item])] = Int32(item) }
  }

  /// Where an addition stands and what it holds: its parent's node and its subtree's hash.
  private struct TwinKey: Hashable {
    var parent: Int
    var hash: UInt64
  }

  /// Ours' addition, not yet twinned, identical to theirs' added `item` under the same parent
  /// (taken out of `candidates`).
  private func oursTwin(of item: Int, among candidates: inout [TwinKey: [Int]]) -> Int? {
    guard theirs.inDocumentOrder[item] else { return nil }
    let key = TwinKey(
      parent: Int(theirsID[Int(theirs.tree.items[item].parent)]), hash: theirs.subtreeHash[item])
    guard let list = candidates[key] else { return nil }
    let size = Int(theirs.tree.items[item].subtreeEnd) - item
    guard
      let index = list.firstIndex(where: {
        Int(ours.tree.items[$0].subtreeEnd) - $0 == size && ours.sameName($0, as: item, in: theirs)
      })
    else { return nil }
    candidates[key]!.remove(at: index)
    return list[index]
  }

  // MARK: - Presence

  /// Whether ours changed base item `node`: its subtree, its parent, or a comment it added before
  /// it or anywhere inside it.
  private func oursChanged(_ node: Int) -> Bool {
    let item = Int(oursImage[node])
    return ours.subtreeHash[item] != base.subtreeHash[node] || oursParentID(node) != baseParentID(node)
      || comments.oursAddedWithin[item]
  }

  private func theirsChanged(_ node: Int) -> Bool {
    let item = Int(theirsImage[node])
    return theirs.subtreeHash[item] != base.subtreeHash[node] || theirsParentID(node) != baseParentID(node)
      || comments.theirsAddedWithin[item]
  }

  func baseParentID(_ node: Int) -> Int { Int(base.tree.items[node].parent) }

  func oursParentID(_ node: Int) -> Int {
    let parent = Int(ours.tree.items[Int(oursImage[node])].parent)
    return parent < 0 ? -1 : oursID(parent)
  }

  func theirsParentID(_ node: Int) -> Int {
    let parent = Int(theirs.tree.items[Int(theirsImage[node])].parent)
    return parent < 0 ? -1 : Int(theirsID[parent])
  }

  private mutating func decidePresence() {
    for node in 0..<placeStart {
      let inOurs = oursImage[node] >= 0
      let inTheirs = theirsImage[node] >= 0
      guard node < oursStart else {
        present[node] = inOurs || inTheirs
        continue
      }
      if inOurs == inTheirs {
        present[node] = inOurs
        continue
      }
      // Removed on one side. Removed with its parent there, it follows its parent (parents come
      // first): kept when the parent is, a conflict where the other side moved it.
      let parentID = baseParentID(node)
      let remover = inOurs ? "theirs" : "ours"
      let parentGone = parentID >= 0 && (inOurs ? theirsImage[parentID] < 0 : oursImage[parentID] < 0)
      let moved = (inOurs ? oursParentID(node) : theirsParentID(node)) != parentID
      if parentGone && !moved {
        present[node] = present[parentID]
      } else if inOurs ? oursChanged(node) : theirsChanged(node) {
        present[node] = true
        records[node, default: []].append(ConflictRecord(.removed, [("side", remover)]))
      }
    }
  }

  // MARK: - Parents

  private mutating func decideParents() {
    for node in 0..<placeStart where present[node] && node != 0 {
      let fromOurs = oursImage[node] >= 0 ? oursParentID(node) : nil
      let fromTheirs = theirsImage[node] >= 0 ? theirsParentID(node) : nil
      guard let fromOurs else {
        parent[node] = Int32(fromTheirs ?? -1)
        continue
      }
      guard let fromTheirs, node < oursStart else {
        parent[node] = Int32(fromOurs)
        continue
      }
      let before = baseParentID(node)
      if fromOurs == fromTheirs || fromTheirs == before {
        parent[node] = Int32(fromOurs)
      } else if fromOurs == before {
        parent[node] = Int32(fromTheirs)
      } else if present[fromTheirs] {
        parent[node] = Int32(fromOurs)
        recordMove(node, theirsParent: fromTheirs)
      } else {
        parent[node] = Int32(fromOurs)
      }
    }
  }

  private mutating func recordMove(_ node: Int, theirsParent: Int) {
    let oursLabel = label(Int(parent[node]))
    let theirsLabel = label(theirsParent)
    let move = String(placeRecords.count + 1)
    records[node, default: []].append(
      ConflictRecord(.moved, [("move", move), ("ours", oursLabel), ("theirs", theirsLabel)]))
    places[node] = placeStart + placeRecords.count
    placeRecords.append(
      ConflictRecord(.place, [("move", move), ("item", label(node)), ("ours", oursLabel)]))
  }

  /// How records name a node: its title, else its element name.
  func label(_ node: Int) -> String {
    if node == 0 { return "the root object" }
    if oursImage[node] >= 0 {
      let item = Int(oursImage[node])
      return ours.title(of: item) ?? ours.elementName(of: item)
    }
    if theirsImage[node] >= 0 {
      let item = Int(theirsImage[node])
      return theirs.title(of: item) ?? theirs.elementName(of: item)
    }
    return base.title(of: node) ?? base.elementName(of: node)
  }

  /// A node whose parents do not lead to the root (each side moved one item under the other)
  /// goes where ours has it, with a move conflict; one whose parent is gone goes to ours' parent.
  private mutating func keepReachable() {
    var rounds = 0
    while rounds < 4 {
      rounds += 1
      let reached = reachable()
      var changed = false
      for node in 0..<placeStart where present[node] && !reached[node] && node != 0 {
        let fromOurs = oursImage[node] >= 0 ? oursParentID(node) : -1
        if fromOurs >= 0 && Int(parent[node]) != fromOurs && present[fromOurs] {
          if records[node]?.contains(where: { $0.kind == .moved }) != true && theirsImage[node] >= 0 {
            recordMove(node, theirsParent: Int(parent[node]))
          }
          parent[node] = Int32(fromOurs)
          changed = true
        }
      }
      if !changed { break }
    }
    // Whatever is still cut off (a chain through removed parents) is kept under the root, never lost.
    let reached = reachable()
    for node in 0..<placeStart where present[node] && !reached[node] && node != 0 {
      let top = topOfUnreached(node, reached)
      if top == node { parent[node] = 0 }
    }
  }

  private func topOfUnreached(_ node: Int, _ reached: [Bool]) -> Int {
    var current = node
    var steps = 0
    while steps < placeStart {
      let up = Int(parent[current])
      if up < 0 || !present[up] || reached[up] { return current }
      if up == node { return node }
      current = up
      steps += 1
    }
    return node
  }

  /// Which nodes the root reaches through present parents.
  func reachable() -> [Bool] {
    var children = [Int32](repeating: -1, count: placeStart)
    var next = [Int32](repeating: -1, count: placeStart)
    for node in 0..<placeStart where present[node] && parent[node] >= 0 {
      let up = Int(parent[node])
      next[node] = children[up]
      children[up] = Int32(node)
    }
    var reached = [Bool](repeating: false, count: placeStart)
    guard placeStart > 0, present[0] else { return reached }
    var stack = [0]
    reached[0] = true
    while let node = stack.popLast() {
      var child = Int(children[node])
      while child >= 0 {
        if present[child] && !reached[child] {
          reached[child] = true
          stack.append(child)
        }
        child = Int(next[child])
      }
    }
    return reached
  }
}
