import OutlineCore
import OutlineModel
import OutlineXML

/// Siblings whose order numbers a migration changed, under one parent.
public struct Renumbered: Sendable, Equatable {
  /// Where the parent starts in the older text.
  public var offset: Int
  /// The parent, e.g. `Folder 'Work'` or `the root`.
  public var parent: String
  /// How many of its children got a new number.
  public var count: Int
}

/// Where an object of the older version goes under its parent.
enum Placement: Equatable {
  /// Kept: its sibling group in the older version and in the target (containment relationship indexes, -1 when none).
  case kept(source: Int, target: Int)
  /// Dropped: its entity or the containment holding it is gone.
  case dropped
  /// Not an object the plan knows: left as it is.
  case unknown
}

extension MigrationPlan {
  /// Whether dropping objects or merging sibling groups can leave order numbers to renumber:
  /// an entity is removed, an entity has fewer containments, or one changes cardinality.
  public var mayRenumber: Bool {
    for plan in entities.values {
      guard let target = plan.target else { return true }
      let older = source.entities[plan.source]
      let newer = self.target.entities[target]
      if newer.containments.count < older.containments.count { return true }
      let toMany = Set(
        newer.containments.map { newer.relationships[$0].name }.filter { name in
          newer.relationshipIndex[name].map { newer.relationships[$0].isToMany } ?? false
        })
      for index in older.containments where !older.relationships[index].isToMany {
        if toMany.contains(older.relationships[index].name) { return true }
      }
    }
    return false
  }

  /// The plan of the root element's entity (its `entity`, else the older version's default root).
  func rootPlan(_ tag: StartTag) -> EntityPlan? {
    if let index = tag.index(of: "entity") { return entities[tag.value(of: index)] }
    return source.defaultRootEntity.map { entities[source.entities[$0].name] } ?? nil
  }

  /// Where an object of `child` goes under an object of `parent`.
  func placement(parent: EntityPlan?, child: EntityPlan?) -> Placement {
    guard let child, child.source >= 0 else { return .unknown }
    guard let childTarget = child.target else { return .dropped }
    guard let parent, parent.source >= 0 else { return .unknown }
    let sourceKey = key(source.containment(of: parent.source, holding: child.source))
    guard let parentTarget = parent.target else { return .kept(source: sourceKey, target: -1) }
    let targetMatch = target.containment(of: parentTarget, holding: childTarget)
    if sourceKey >= 0 && targetMatch == .none { return .dropped }
    return .kept(source: sourceKey, target: key(targetMatch))
  }

  private func key(_ match: ContainmentMatch) -> Int {
    if case .relationship(let index) = match { return index }
    return -1
  }

  /// The integer value of the order attribute of `entity` (older version) on `tag`, with its index.
  func orderValue(_ tag: StartTag, entity: EntityPlan) -> (index: Int, value: Int)? {
    guard let name = entity.sourceOrder else { return nil }
    for index in 0..<tag.attributes.count where XMLName.equals(tag.name(of: index), name) {
      return Self.integer(tag.rawValue(of: index)).map { (index, $0) }
    }
    return nil
  }

  /// The value of decimal digits (an optional `-` first); nil for anything else.
  private static func integer(_ bytes: ByteView) -> Int? {
    var value = 0
    var negative = false
    var digits = 0
    for (offset, byte) in bytes.enumerated() {
      if offset == 0 && byte == UInt8(ascii: "-") {
        negative = true
        continue
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
    }
    return digits == 0 ? nil : negative ? -value : value
  }
}

/// A first pass over the older document that finds the sibling groups whose
/// order numbers a migration must renumber: those that lose objects, and
/// those where several groups of the older version become one. For each such
/// parent (by the start tag's ordinal) it keeps, per older group, where its
/// survivors start in the merged group and the order numbers dropped from
/// it, so the second pass gives each survivor its new number as it streams
/// by: its old number, minus the dropped numbers below it, plus the start.
/// Memory holds the open elements, the affected parents, the ids of dropped objects and the
/// ids of kept ones (so an id defined twice keeps the references to the kept object): the ids
/// grow with the document, one entry an id.
final class OrderCensus: XMLEventHandler {
  /// Per older sibling group of an affected parent: its survivors' first number, and the sorted dropped numbers.
  struct Shift {
    var start: Int
    var dropped: [Int]

    /// The new number of a survivor numbered `old`.
    func renumbered(_ old: Int) -> Int {
      start + old - Partition.point(dropped.count) { dropped[$0] < old }
    }
  }

  /// Per parent ordinal (the count of start tags before it), per older containment: its shift.
  private(set) var shifts: [Int: [Int: Shift]] = [:]
  /// The ids of the objects dropped (and of those inside them): references to them go too, as
  /// Core Data nullifies a relationship to a deleted object.
  private(set) var droppedIDs: Set<String> = []
  /// The parents (by ordinal) whose children would be renumbered but are not numbered 0..n-1
  /// in the older text (a duplicate, a gap, a missing or unreadable order, turned off there):
  /// the shift keeps no order among them, so the migration refuses.
  private(set) var misnumbered: Set<Int> = []

  /// The ids of objects kept: an id defined twice (OL500 turned off), once on a dropped object
  /// and once on a kept one, still names the kept one, and references to it stay.
  private var keptIDs: Set<String> = []

  /// Notes the `xml:id` of a dropped object.
  private func noteDropped(_ tag: StartTag) {
    for index in 0..<tag.attributes.count where XMLName.equals(tag.name(of: index), "xml:id") {
      droppedIDs.insert(tag.value(of: index))
    }
  }

  /// Notes the `xml:id` of a kept object, when objects are dropped at all.
  private func noteKept(_ tag: StartTag) {
    for index in 0..<tag.attributes.count where XMLName.equals(tag.name(of: index), "xml:id") {
      keptIDs.insert(tag.value(of: index))
    }
  }

  private struct Group {
    var source: Int
    var target: Int
    var first: Int
    var survivors = 0
    var dropped: [Int] = []
    /// Every child's order (survivors and dropped), and how many children had none readable.
    var orders: [Int] = []
    var unnumbered = 0

    /// Whether the children's orders are exactly 0..n-1, each once.
    var isNumberedInSequence: Bool {
      guard unnumbered == 0 else { return false }
      var seen = [Bool](repeating: false, count: orders.count)
      for order in orders {
        guard order >= 0, order < seen.count, !seen[order] else { return false }
        seen[order] = true
      }
      return true
    }
  }

  private struct Frame {
    var ordinal: Int
    var plan: MigrationPlan.EntityPlan?
    /// Its children's older groups, in the order they first appear (a parent has few).
    var groups: [Group] = []

    /// The index of the group of older containment `source`, made when absent.
    mutating func group(_ source: Int, target: Int, first: Int) -> Int {
      if let index = groups.firstIndex(where: { $0.source == source }) { return index }
      groups.append(Group(source: source, target: target, first: first))
      return groups.count - 1
    }
  }

  private let plan: MigrationPlan
  @exclusivity(unchecked) private var stack: [Frame] = []
  @exclusivity(unchecked) private var ordinal = 0
  @exclusivity(unchecked) private var droppedDepth = 0

  init(plan: MigrationPlan) { self.plan = plan }

  /// The census of the text `feed` hands out in chunks, its tags found by a
  /// byte scan (``TagStream``), not parsed. A text whose scan stops (at a
  /// DOCTYPE) or that does not parse is refused by the migration's own parse.
  static func take(plan: MigrationPlan, feed: ((ByteView) -> Void) -> Void) -> OrderCensus {
    let census = OrderCensus(plan: plan)
    let tags = TagStream(handler: census)
    feed { tags.feed($0) }
    if !census.droppedIDs.isEmpty { census.droppedIDs.subtract(census.keptIDs) }
    return census
  }

  @exclusivity(unchecked) private var lastPlan: (name: [UInt8], plan: MigrationPlan.EntityPlan?)?

  private func entityPlan(for name: ByteView) -> MigrationPlan.EntityPlan? {
    if let lastPlan, XMLName.equals(name, lastPlan.name) { return lastPlan.plan }
    let found = plan.entities[XMLName.string(name)]
    lastPlan = (Array(name), found)
    return found
  }

  func startElement(_ tag: StartTag) {
    defer { ordinal += 1 }
    if droppedDepth > 0 {
      droppedDepth += 1
      noteDropped(tag)
      return
    }
    guard !stack.isEmpty else {
      noteKept(tag)
      stack.append(Frame(ordinal: ordinal, plan: plan.rootPlan(tag)))
      return
    }
    let child = entityPlan(for: tag.name)
    let placement = placement(parent: stack[stack.count - 1].plan, child: child)
    let order = child.flatMap { plan.orderValue(tag, entity: $0) }?.value
    switch placement {
    case .unknown:
      noteKept(tag)
    case .dropped:
      droppedDepth = 1
      noteDropped(tag)
      if child?.sourceOrder != nil, case .kept(let source, _) = sourceOnly(child) {
        let top = stack.count - 1
        let index = stack[top].group(source, target: -2, first: ordinal)
        if let order {
          stack[top].groups[index].dropped.append(order)
          stack[top].groups[index].orders.append(order)
        } else {
          stack[top].groups[index].unnumbered += 1
        }
      }
      return
    case .kept(let source, let target):
      noteKept(tag)
      let top = stack.count - 1
      let index = stack[top].group(source, target: target, first: ordinal)
      stack[top].groups[index].target = target
      if let order {
        stack[top].groups[index].survivors += 1
        stack[top].groups[index].orders.append(order)
      } else if child?.sourceOrder != nil {
        stack[top].groups[index].unnumbered += 1
      }
    }
    stack.append(Frame(ordinal: ordinal, plan: child))
  }

  /// The last placement asked, by the older entities' indexes: siblings are mostly alike.
  @exclusivity(unchecked) private var lastPlacement: (parent: Int, child: Int, placement: Placement)?

  private func placement(parent: MigrationPlan.EntityPlan?, child: MigrationPlan.EntityPlan?) -> Placement {
    guard let parent, let child else { return plan.placement(parent: parent, child: child) }
    if let lastPlacement, lastPlacement.parent == parent.source, lastPlacement.child == child.source {
      return lastPlacement.placement
    }
    let found = plan.placement(parent: parent, child: child)
    lastPlacement = (parent.source, child.source, found)
    return found
  }

  /// The older sibling group of a dropped child (its target group does not matter).
  private func sourceOnly(_ child: MigrationPlan.EntityPlan?) -> Placement {
    guard let child, child.source >= 0, let parent = stack.last?.plan, parent.source >= 0 else {
      return .unknown
    }
    if case .relationship(let index) = plan.source.containment(of: parent.source, holding: child.source) {
      return .kept(source: index, target: -1)
    }
    return .kept(source: -1, target: -1)
  }

  func endElement(range: TextRange?) {
    if droppedDepth > 0 {
      droppedDepth -= 1
      return
    }
    guard let frame = stack.popLast(), !frame.groups.isEmpty else { return }
    // A dropped group's target is unknown (-2) until a survivor names it: then it is its own.
    var byTarget: [Int: [(source: Int, group: Group)]] = [:]
    for group in frame.groups {
      byTarget[group.target == -2 ? -2 - group.source : group.target, default: []].append(
        (group.source, group))
    }
    var result: [Int: Shift] = [:]
    for (_, members) in byTarget {
      guard members.count > 1 || members.contains(where: { !$0.group.dropped.isEmpty }) else { continue }
      var start = 0
      if members.contains(where: { !$0.group.isNumberedInSequence }) { misnumbered.insert(frame.ordinal) }
      for member in members.sorted(by: { $0.group.first < $1.group.first }) {
        result[member.source] = Shift(start: start, dropped: member.group.dropped.sorted())
        start += member.group.survivors
      }
    }
    if !result.isEmpty { shifts[frame.ordinal] = result }
  }

  func comment(range: TextRange, content: ByteView) {}
  func text(range: TextRange) {}
  func doctype(range: TextRange) {}
  func syntaxError(message: String, range: TextRange, isFatal: Bool) {}
}
