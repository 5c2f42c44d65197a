// The order of each merged item's children: the sequence of the side that reordered them (ours when both did or
// neither), with the other side's items inserted after the sibling they follow there (ours' additions before
// theirs' at one place), and the `order` values each relationship group then gets.

import OutlineCore
import OutlineSyntax

/// The children of every merged item, in the order they are written, and the `order` values.
struct MergeSequences {
  /// The children of each node that has some, in the order to write them.
  var children: [Int: [Int]] = [:]
  /// The `order` text of a node where it is not ours' value as written (always for a rewritten node).
  var orders: [Int: String] = [:]
  /// The `order` conflicts, before the first child of the list both sides reordered differently.
  var records: [Int: [ConflictRecord]] = [:]
  /// Whether a node's children are ours' item's, in ours' document order, with ours' `order`
  /// values (the base's children, untouched on both sides): then ``children`` has no entry.
  var inOursOrder: [Bool]

  init(plan: MergePlan) {
    inOursOrder = [Bool](repeating: false, count: plan.placeStart)
    var firstChild = [Int32](repeating: -1, count: plan.placeStart)
    var next = [Int32](repeating: -1, count: plan.placeStart)
    for node in (0..<plan.placeStart).reversed() where plan.present[node] && plan.parent[node] >= 0 {
      let up = Int(plan.parent[node])
      next[node] = firstChild[up]
      firstChild[up] = Int32(node)
    }
    for node in 0..<plan.placeStart where plan.present[node] {
      if plan.places.isEmpty && Self.untouched(node, firstChild: firstChild, next: next, plan) {
        inOursOrder[node] = true
        // A rewritten child's tag is written anew with ours' order value.
        var item = Int(plan.oursImage[node]) + 1
        let end = Int(plan.ours.tree.items[item - 1].subtreeEnd)
        while item < end {
          let id = plan.oursID(item)
          if plan.rewritten[id] != nil, let text = Self.orderText(plan.ours, item) { orders[id] = text }
          item = Int(plan.ours.tree.items[item].subtreeEnd)
        }
        continue
      }
      var members: [Int] = []
      var child = Int(firstChild[node])
      while child >= 0 {
        members.append(child)
        child = Int(next[child])
      }
      let hasTheirsPlaces = plan.theirsImage[node] >= 0 && !plan.places.isEmpty
      if members.isEmpty && !hasTheirsPlaces { continue }
      arrange(node, members: members, plan: plan)
    }
  }

  /// Whether base node `node` has children, all of the base, in the base's sibling order and with
  /// the base's `order` values on both sides, and no others: what ``arrange(_:members:plan:)``
  /// would leave as ours has it, told without a list.
  static func untouched(_ node: Int, firstChild: [Int32], next: [Int32], _ plan: MergePlan) -> Bool {
    guard node < plan.oursStart, plan.oursImage[node] >= 0, plan.theirsImage[node] >= 0 else { return false }
    let oursItem = Int(plan.oursImage[node])
    let theirsItem = Int(plan.theirsImage[node])
    let base = plan.base.tree.items
    let ours = plan.ours.tree.items
    let theirs = plan.theirs.tree.items
    var merged = 0
    var child = Int(firstChild[node])
    while child >= 0 {
      merged += 1
      child = Int(next[child])
    }
    guard merged > 0, merged == plan.ours.tree.childCount(of: oursItem),
      merged == plan.base.tree.childCount(of: node), merged == plan.theirs.tree.childCount(of: theirsItem)
    else { return false }
    var item = oursItem + 1
    let end = Int(ours[oursItem].subtreeEnd)
    while item < end {
      let id = plan.oursID(item)
      guard id < plan.oursStart, Int(plan.parent[id]) == node, Int(base[id].parent) == node else {
        return false
      }
      let other = Int(plan.theirsImage[id])
      guard other >= 0, Int(theirs[other].parent) == theirsItem,
        plan.ours.siblingRank[item] == plan.base.siblingRank[id],
        plan.theirs.siblingRank[other] == plan.base.siblingRank[id],
        sameOrder(plan.ours, item, plan.base, id), sameOrder(plan.theirs, other, plan.base, id)
      else { return false }
      item = Int(ours[item].subtreeEnd)
    }
    return true
  }

  /// Whether two items have the same `order` value as written (or none).
  static func sameOrder(_ one: DocumentItems, _ item: Int, _ other: DocumentItems, _ otherItem: Int) -> Bool {
    let mine = one.tree.items[item].orderRange
    let theirs = other.tree.items[otherItem].orderRange
    guard let mine, let theirs else { return mine == nil && theirs == nil }
    return one.source.bytes[mine.start..<mine.end].elementsEqual(
      other.source.bytes[theirs.start..<theirs.end])
  }

  /// A node's relationship among its parent's children (a `place` record has none).
  static func relationship(_ node: Int, _ plan: MergePlan) -> Int32 {
    if node >= plan.placeStart { return .max }
    if plan.oursImage[node] >= 0 { return plan.ours.tree.items[Int(plan.oursImage[node])].relationship }
    return plan.theirs.tree.items[Int(plan.theirsImage[node])].relationship
  }

  private mutating func arrange(_ node: Int, members memberList: [Int], plan: MergePlan) {
    let oursItem = Int(plan.oursImage[node])
    let theirsItem = Int(plan.theirsImage[node])
    let fromOurs = oursItem >= 0 ? plan.ours.sequence(of: oursItem).map(plan.oursID) : []
    var fromTheirs: [Int] = []
    if theirsItem >= 0 {
      for child in plan.theirs.sequence(of: theirsItem) {
        let id = Int(plan.theirsID[child])
        if let place = plan.places[id], Int(plan.parent[id]) != node {
          fromTheirs.append(place)
        } else {
          fromTheirs.append(id)
        }
      }
    }
    var members = Set(memberList)
    for id in fromTheirs where id >= plan.placeStart { members.insert(id) }
    if members.isEmpty { return }

    let sequence: [Int]
    if fromOurs == fromTheirs && members.count == fromOurs.count && fromOurs.allSatisfy(members.contains) {
      sequence = fromOurs
    } else {
      let fromBase = node < plan.oursStart && node < plan.base.count ? plan.base.sequence(of: node) : []
      let theirsReordered = Self.reordered(fromTheirs, against: fromBase)
      let oursReordered = Self.reordered(fromOurs, against: fromBase)
      let oursLead = oursReordered || !theirsReordered || theirsItem < 0
      sequence = Self.combine(
        primary: oursLead ? fromOurs : fromTheirs, secondary: oursLead ? fromTheirs : fromOurs,
        primaryIsOurs: oursLead, members: members, all: memberList)
      if oursReordered && theirsReordered && theirsItem >= 0 {
        recordOrderConflict(
          node, sequence: sequence, fromOurs: fromOurs, fromTheirs: fromTheirs, base: fromBase, plan)
      }
    }
    numberGroups(sequence, fromOurs: fromOurs, fromTheirs: fromTheirs, plan: plan)
    if sequence == fromOurs && oursItem >= 0 {
      // Ours' own sequence: written in ours' document order.
      children[node] = plan.ours.tree.children(of: oursItem).map(plan.oursID)
    } else {
      children[node] = sequence
    }
  }

  /// Both sides reordered the base's children of `node`: when they disagree on the order of
  /// those both kept, ours' order stands with an `order` conflict naming both sides' orders.
  private mutating func recordOrderConflict(
    _ node: Int, sequence: [Int], fromOurs: [Int], fromTheirs: [Int], base: [Int], _ plan: MergePlan
  ) {
    let inBase = Set(base)
    let inTheirs = Set(fromTheirs)
    let oursKept = fromOurs.filter { inBase.contains($0) && inTheirs.contains($0) }
    let inOurs = Set(oursKept)
    let theirsKept = fromTheirs.filter(inOurs.contains)
    guard oursKept != theirsKept, let first = sequence.first(where: { $0 < plan.placeStart }) else { return }
    func labels(_ list: [Int]) -> String { list.map(plan.label).joined(separator: ", ") }
    records[first, default: []].append(
      ConflictRecord(
        .order,
        [
          ("parent", plan.label(node)), ("base", labels(base.filter(inOurs.contains))),
          ("ours", labels(oursKept)), ("theirs", labels(theirsKept)),
        ]))
  }

  /// Whether `side` puts the base's children it kept in another order than the base.
  static func reordered(_ side: [Int], against base: [Int]) -> Bool {
    if base.isEmpty || side.isEmpty { return false }
    let inSide = Set(side)
    let kept = base.filter(inSide.contains)
    let baseSet = Set(kept)
    return side.filter(baseSet.contains) != kept
  }

  /// `primary`'s members, with `secondary`'s other members after the sibling they follow in
  /// `secondary`; ours' items first where both sides put some after one sibling.
  static func combine(
    primary: [Int], secondary: [Int], primaryIsOurs: Bool, members: Set<Int>, all: [Int]
  ) -> [Int] {
    var result = primary.filter(members.contains)
    var placed = Set(result)
    let inSecondary = Set(secondary)
    var anchor: Int?
    for id in secondary where members.contains(id) {
      if placed.contains(id) {
        anchor = id
        continue
      }
      var at = anchor.flatMap { result.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
      if primaryIsOurs {
        // Ours' additions at this place come first.
        while at < result.count && !inSecondary.contains(result[at]) { at += 1 }
      }
      result.insert(id, at: at)
      placed.insert(id)
      anchor = id
    }
    for id in all where !placed.contains(id) {
      result.append(id)
      placed.insert(id)
    }
    return result
  }

  /// The `order` values of each relationship group of `sequence`: ours' as written when the
  /// group is ours' sequence, theirs' when it is theirs', else `0..n-1`.
  private mutating func numberGroups(_ sequence: [Int], fromOurs: [Int], fromTheirs: [Int], plan: MergePlan) {
    var groups: [Int32: [Int]] = [:]
    var relationships: [Int32] = []
    for id in sequence where id < plan.placeStart {
      let relationship = Self.relationship(id, plan)
      if groups[relationship] == nil { relationships.append(relationship) }
      groups[relationship, default: []].append(id)
    }
    for relationship in relationships {
      let group = groups[relationship]!
      let oursGroup = fromOurs.filter { Self.relationship($0, plan) == relationship }
      let theirsGroup = fromTheirs.filter {
        $0 < plan.placeStart && Self.relationship($0, plan) == relationship
      }
      // A side that only renumbered a group ours left as the base had it (`outline-lint --fix`):
      // theirs' values.
      let theirsNumbering =
        group == oursGroup && group == theirsGroup
        && group.allSatisfy { id in
          id < plan.oursStart && plan.theirsImage[id] >= 0
            && Self.orderText(plan.ours, Int(plan.oursImage[id])) == Self.orderText(plan.base, id)
        }
      for (rank, id) in group.enumerated() {
        let oursItem = Int(plan.oursImage[id])
        let theirsItem = Int(plan.theirsImage[id])
        let oursText = oursItem >= 0 ? Self.orderText(plan.ours, oursItem) : nil
        let hasOrder = oursItem >= 0 ? oursText != nil : Self.orderText(plan.theirs, theirsItem) != nil
        guard hasOrder else { continue }
        let text: String
        if theirsNumbering, let theirsText = Self.orderText(plan.theirs, theirsItem) {
          text = theirsText
        } else if group == oursGroup, let oursText {
          text = oursText
        } else if group == theirsGroup, theirsItem >= 0,
          let theirsText = Self.orderText(plan.theirs, theirsItem)
        {
          text = theirsText
        } else {
          text = String(rank)
        }
        if text != oursText || plan.rewritten[id] != nil { orders[id] = text }
      }
    }
  }

  /// The `order` value of `item` as written, or nil when it has none.
  static func orderText(_ document: DocumentItems, _ item: Int) -> String? {
    guard let range = document.tree.items[item].orderRange else { return nil }
    return document.text(range)
  }
}
