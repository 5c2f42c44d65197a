// The comments and processing instructions between items, slot by slot: before each item (its lead: after its
// previous sibling, else after its parent's start tag; the root's lead is the prolog), after each item's last child
// (its trailing), and after the root (the epilog). Ours' markup is written from ours' bytes where ours has the
// item; the markup theirs added is found here, slot by slot, so the writer puts it in the same slot.

import OutlineCore
import OutlineSyntax

/// Where the white space and markup around each item of one document stand.
struct TriviaSlots {
  /// Where the markup before each item starts: its previous sibling's end, else its parent's start
  /// tag's end (0 for the root).
  let leadStart: [Int32]
  /// Where each item's last child ends, or -1 when it has none.
  let lastChildEnd: [Int32]

  init(_ tree: ItemTree) {
    var leadStart = [Int32](repeating: 0, count: tree.items.count)
    var lastChildEnd = [Int32](repeating: -1, count: tree.items.count)
    let items = tree.items
    for index in items.indices {
      let parent = Int(items[index].parent)
      guard parent >= 0 else { continue }
      let previous = lastChildEnd[parent]
      leadStart[index] = previous >= 0 ? previous : Int32(items[parent].startTag.end)
      lastChildEnd[parent] = Int32(items[index].fullRange.end)
    }
    self.leadStart = leadStart
    self.lastChildEnd = lastChildEnd
  }

  /// The white space and markup just before `item`'s start tag.
  func lead(_ item: Int, _ tree: ItemTree) -> Range<Int> {
    Int(leadStart[item])..<tree.items[item].startTag.start
  }

  /// The white space and markup between `item`'s last child (its start tag when it has none) and
  /// its end tag; nil when it has no end tag.
  func trailing(_ item: Int, _ tree: ItemTree) -> Range<Int>? {
    guard let end = tree.items[item].endTag else { return nil }
    let last = Int(lastChildEnd[item])
    return (last >= 0 ? last : tree.items[item].startTag.end)..<end.start
  }

  /// What follows the root's end: the epilog.
  static func epilog(_ tree: ItemTree, _ bytes: [UInt8]) -> Range<Int> {
    guard let root = tree.items.first else { return bytes.count..<bytes.count }
    return min(root.fullRange.end, bytes.count)..<bytes.count
  }

  /// Each comment or processing instruction in `bytes[range]`, white space between markup.
  static func markup(_ bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
    guard bytes[range].contains(UInt8(ascii: "<")) else { return [] }
    var found: [Range<Int>] = []
    var at = range.lowerBound
    while at < range.upperBound {
      guard bytes[at] == UInt8(ascii: "<") else {
        at += 1
        continue
      }
      let end = markupEnd(bytes, from: at, before: range.upperBound)
      found.append(at..<end)
      at = end
    }
    return found
  }

  /// Where the comment or instruction that starts at `start` ends (after `-->` or `?>`).
  static func markupEnd(_ bytes: [UInt8], from start: Int, before limit: Int) -> Int {
    let isComment = start + 3 < limit && bytes[start + 1] == UInt8(ascii: "!")
    let closer: [UInt8] = isComment ? Array("-->".utf8) : Array("?>".utf8)
    var end = start + 2
    while end < limit && !bytes[end..<min(end + closer.count, limit)].elementsEqual(closer) { end += 1 }
    return min(end + closer.count, limit)
  }
}

/// The comments and instructions theirs added, each in the slot of the merged node it goes with.
///
/// In one slot, theirs' markup less the base's there is what theirs added; less what ours added
/// there too (the same comment added on both sides is one). A comment the base has elsewhere (as
/// many times as theirs has it) only moved, or stands before an item theirs added in front of it:
/// ours' copy is the one written.
struct AddedComments {
  /// Before each node, after ours' own markup there: ranges of theirs' bytes.
  var lead: [Int: [Range<Int>]] = [:]
  /// After each node's last child.
  var trailing: [Int: [Range<Int>]] = [:]
  /// After the root's end tag.
  var epilog: [Range<Int>] = []

  init(plan: MergePlan, ours oursSlots: TriviaSlots) {
    let theirs = plan.theirs
    guard !theirs.tree.comments.isEmpty || !theirs.tree.instructions.isEmpty, theirs.count > 0 else { return }
    let base = plan.base
    let ours = plan.ours
    let baseSlots = TriviaSlots(base.tree)
    let theirsSlots = TriviaSlots(theirs.tree)
    var excess = Self.excess(base, theirs)
    func hash(_ document: DocumentItems, _ range: Range<Int>) -> UInt64 {
      ContentHash.bytes(document.source.bytes, TextRange(start: range.lowerBound, end: range.upperBound))
    }
    func added(theirs mine: Range<Int>, base before: Range<Int>?, ours kept: Range<Int>?) -> [Range<Int>] {
      let markup = TriviaSlots.markup(theirs.source.bytes, mine)
      guard !markup.isEmpty else { return [] }
      var inBase = before.map { TriviaSlots.markup(base.source.bytes, $0).map { hash(base, $0) } } ?? []
      var oursAdded = kept.map { TriviaSlots.markup(ours.source.bytes, $0).map { hash(ours, $0) } } ?? []
      for value in inBase {
        if let index = oursAdded.firstIndex(of: value) { oursAdded.remove(at: index) }
      }
      var result: [Range<Int>] = []
      for range in markup {
        let value = hash(theirs, range)
        if let index = inBase.firstIndex(of: value) {
          inBase.remove(at: index)
        } else if let index = oursAdded.firstIndex(of: value) {
          oursAdded.remove(at: index)
        } else if excess[value, default: 0] > 0 {
          excess[value]! -= 1
          result.append(range)
        }
      }
      return result
    }
    for item in 0..<theirs.count {
      let node = Int(plan.theirsID[item])
      guard plan.present[node] else { continue }
      let inBase = node < plan.oursStart
      let oursItem = Int(plan.oursImage[node])
      let lead = added(
        theirs: theirsSlots.lead(item, theirs.tree), base: inBase ? baseSlots.lead(node, base.tree) : nil,
        ours: oursItem >= 0 ? oursSlots.lead(oursItem, ours.tree) : nil)
      if !lead.isEmpty { self.lead[node] = lead }
      guard let mine = theirsSlots.trailing(item, theirs.tree) else { continue }
      let trailing = added(
        theirs: mine, base: inBase ? baseSlots.trailing(node, base.tree) : nil,
        ours: oursItem >= 0 ? oursSlots.trailing(oursItem, ours.tree) : nil)
      if !trailing.isEmpty { self.trailing[node] = trailing }
    }
    epilog = added(
      theirs: TriviaSlots.epilog(theirs.tree, theirs.source.bytes),
      base: TriviaSlots.epilog(base.tree, base.source.bytes),
      ours: TriviaSlots.epilog(ours.tree, ours.source.bytes))
  }

  /// How many more times theirs has each comment and instruction than the base.
  private static func excess(_ base: DocumentItems, _ theirs: DocumentItems) -> [UInt64: Int] {
    var counts: [UInt64: Int] = [:]
    for (document, step) in [(theirs, 1), (base, -1)] {
      for range in document.tree.comments + document.tree.instructions {
        counts[ContentHash.bytes(document.source.bytes, range), default: 0] += step
      }
    }
    return counts
  }
}
