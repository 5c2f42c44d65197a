// The comments and processing instructions between items, slot by slot: before each item (its lead: after its
// previous sibling, else after its parent's start tag; the root's lead is the prolog), after each item's last child
// (its trailing), and after the root (the epilog). Each side's markup is matched with the base's here (same slot
// and text first, then same text anywhere), so a merge knows what each side added, removed or only moved.

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

/// The comments and processing instructions of one document, each with its slot.
///
/// A slot is `node * 2` before a node (merge numbering, see ``MergePlan``), `node * 2 + 1` after
/// its last child (inside it), -1 after the root. The XML declaration is not markup here.
struct SlotMarkup {
  /// Each one's bytes, in document order within each slot.
  var ranges: [Range<Int>] = []
  /// Each one's hash (of its whole text).
  var hashes: [UInt64] = []
  /// Each one's slot.
  var slots: [Int] = []
  /// The item of the document whose slot holds it (-1 for the epilog).
  var items: [Int32] = []

  init() {}

  /// The markup of `document`, its items numbered by `id`.
  init(_ document: DocumentItems, id: (Int) -> Int) {
    let tree = document.tree
    guard !tree.items.isEmpty, !tree.comments.isEmpty || !tree.instructions.isEmpty else { return }
    let trivia = TriviaSlots(tree)
    let bytes = document.source.bytes
    for item in tree.items.indices {
      let node = id(item)
      append(bytes, trivia.lead(item, tree), slot: node * 2, item: item)
      if let trailing = trivia.trailing(item, tree) {
        append(bytes, trailing, slot: node * 2 + 1, item: item)
      }
    }
    append(bytes, TriviaSlots.epilog(tree, bytes), slot: -1, item: -1)
  }

  private mutating func append(_ bytes: [UInt8], _ range: Range<Int>, slot: Int, item: Int) {
    for markup in TriviaSlots.markup(bytes, range) where !Self.isDeclaration(bytes, markup) {
      ranges.append(markup)
      hashes.append(ContentHash.bytes(bytes, TextRange(start: markup.lowerBound, end: markup.upperBound)))
      slots.append(slot)
      items.append(Int32(item))
    }
  }

  /// Whether `range` is the XML declaration (`<?xml ...?>`), which only stands first.
  private static func isDeclaration(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    let opener = Array("<?xml".utf8)
    guard range.count > opener.count + 1, bytes[range.prefix(opener.count)].elementsEqual(opener) else {
      return false
    }
    let next = bytes[range.lowerBound + opener.count]
    return next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D || next == UInt8(ascii: "?")
  }

  var count: Int { ranges.count }

  /// The node whose slot holds markup `index` (the root for the epilog).
  func node(_ index: Int) -> Int { slots[index] < 0 ? 0 : slots[index] >> 1 }
}

/// The markup of the base and of each side, matched: which of the base's each side kept (and
/// where), and which of each side's are its own additions.
struct CommentMatch {
  var base = SlotMarkup()
  var ours = SlotMarkup()
  var theirs = SlotMarkup()
  /// For each markup of the base, its copy in ours, or -1 when ours removed (or edited) it.
  var baseInOurs: [Int32] = []
  /// For each markup of the base, its copy in theirs, or -1.
  var baseInTheirs: [Int32] = []
  /// For each markup of ours, the base's it is, or -1 for one ours added.
  var oursInBase: [Int32] = []
  /// For each markup of theirs, the base's it is, or -1 for one theirs added.
  var theirsInBase: [Int32] = []
  /// Whether ours added markup before each of its items or anywhere inside it.
  var oursAddedWithin: [Bool] = []
  /// Whether theirs added markup before each of its items or anywhere inside it.
  var theirsAddedWithin: [Bool] = []

  init() {}

  init(
    base baseItems: DocumentItems, ours oursItems: DocumentItems, theirs theirsItems: DocumentItems,
    oursID: (Int) -> Int, theirsID: [Int32]
  ) {
    base = SlotMarkup(baseItems) { $0 }
    ours = SlotMarkup(oursItems, id: oursID)
    theirs = SlotMarkup(theirsItems) { Int(theirsID[$0]) }
    (baseInOurs, oursInBase) = Self.match(base, ours)
    (baseInTheirs, theirsInBase) = Self.match(base, theirs)
    oursAddedWithin = Self.addedWithin(ours, oursInBase, oursItems.tree)
    theirsAddedWithin = Self.addedWithin(theirs, theirsInBase, theirsItems.tree)
  }

  /// Which of `side`'s markup is which of the base's: the same text in the same slot first (in
  /// order), then the same text anywhere (a comment that only moved).
  static func match(_ base: SlotMarkup, _ side: SlotMarkup) -> (baseToSide: [Int32], sideToBase: [Int32]) {
    var baseToSide = [Int32](repeating: -1, count: base.count)
    var sideToBase = [Int32](repeating: -1, count: side.count)
    guard base.count > 0, side.count > 0 else { return (baseToSide, sideToBase) }
    struct Key: Hashable {
      var slot: Int
      var hash: UInt64
    }
    pairInOrder(
      base: 0..<base.count, side: 0..<side.count,
      baseKey: { Key(slot: base.slots[$0], hash: base.hashes[$0]) },
      sideKey: { Key(slot: side.slots[$0], hash: side.hashes[$0]) },
      baseToSide: &baseToSide, sideToBase: &sideToBase)
    let unpairedBase = (0..<base.count).filter { baseToSide[$0] < 0 }
    guard !unpairedBase.isEmpty else { return (baseToSide, sideToBase) }
    pairInOrder(
      base: unpairedBase, side: (0..<side.count).filter { sideToBase[$0] < 0 },
      baseKey: { base.hashes[$0] }, sideKey: { side.hashes[$0] },
      baseToSide: &baseToSide, sideToBase: &sideToBase)
    return (baseToSide, sideToBase)
  }

  /// Pairs each of `side`'s indices with the next base index of the same key not yet paired,
  /// both in the order given.
  private static func pairInOrder<Key: Hashable>(
    base: some Sequence<Int>, side: some Sequence<Int>, baseKey: (Int) -> Key, sideKey: (Int) -> Key,
    baseToSide: inout [Int32], sideToBase: inout [Int32]
  ) {
    var withKey: [Key: [Int]] = [:]
    for index in base { withKey[baseKey(index), default: []].append(index) }
    var taken: [Key: Int] = [:]
    for index in side {
      let key = sideKey(index)
      guard let list = withKey[key] else { continue }
      let next = taken[key, default: 0]
      guard next < list.count else { continue }
      taken[key] = next + 1
      baseToSide[list[next]] = Int32(index)
      sideToBase[index] = Int32(list[next])
    }
  }

  /// For each item of a side, whether that side added markup before it or in its subtree: items
  /// come in pre-order, so one backward loop carries the flag up to every ancestor.
  static func addedWithin(_ side: SlotMarkup, _ sideToBase: [Int32], _ tree: ItemTree) -> [Bool] {
    var within = [Bool](repeating: false, count: tree.items.count)
    var any = false
    for index in 0..<side.count where sideToBase[index] < 0 && side.items[index] >= 0 {
      within[Int(side.items[index])] = true
      any = true
    }
    guard any else { return within }
    for item in tree.items.indices.reversed() where within[item] {
      let parent = Int(tree.items[item].parent)
      if parent >= 0 { within[parent] = true }
    }
    return within
  }
}
