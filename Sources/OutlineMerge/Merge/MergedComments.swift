// Which comments and processing instructions a merged document holds, three-way like everything else: one a
// side added is kept; one of the base both sides kept is kept (ours' copy, else theirs' where ours' slot is not
// written); one of the base a side removed and the other kept is removed, unless it went with an item the merge
// keeps anyway (a `removed` conflict keeps the item as the other side has it, comments and all).

import OutlineCore
import OutlineSyntax

/// The comments of a merge as the writer needs them: theirs' to write, by slot, and ours' to leave out.
///
/// Ours' markup is written from ours' bytes wherever ours' item is written, but for the markup in
/// ``oursDropped``. Theirs' markup listed here goes after ours' in the same slot, each on a line of
/// its own. A comment both sides added to one slot is written once; a comment one side edited is
/// an addition of that side, so it stays even where the other side removed the comment it was.
struct MergedComments {
  /// Before each node, after ours' own markup there: ranges of theirs' bytes.
  var lead: [Int: [Range<Int>]] = [:]
  /// After each node's last child.
  var trailing: [Int: [Range<Int>]] = [:]
  /// After the root's end tag.
  var epilog: [Range<Int>] = []
  /// Ours' markup that theirs removed, sorted: not written.
  private(set) var oursDropped: [Range<Int>] = []
  /// The starts of ``oursDropped``.
  private var droppedStarts: Set<Int> = []

  init(plan: MergePlan) {
    let match = plan.comments
    guard match.ours.count > 0 || match.theirs.count > 0 else { return }
    var write = [Bool](repeating: false, count: match.theirs.count)
    struct Key: Hashable {
      var slot: Int
      var hash: UInt64
    }
    var oursAdded: [Key: Int] = [:]
    for index in 0..<match.ours.count where match.oursInBase[index] < 0 {
      oursAdded[Key(slot: match.ours.slots[index], hash: match.ours.hashes[index]), default: 0] += 1
    }
    for index in 0..<match.theirs.count where match.theirsInBase[index] < 0 {
      let key = Key(slot: match.theirs.slots[index], hash: match.theirs.hashes[index])
      if let count = oursAdded[key], count > 0 {
        oursAdded[key] = count - 1
      } else {
        write[index] = true
      }
    }
    for index in 0..<match.base.count {
      let inOurs = Int(match.baseInOurs[index])
      let inTheirs = Int(match.baseInTheirs[index])
      let node = match.base.node(index)
      if inOurs >= 0 && inTheirs >= 0 {
        // Kept on both sides: ours' copy, or theirs' where ours' item is not written.
        if !plan.present[match.ours.node(inOurs)] && plan.present[match.theirs.node(inTheirs)] {
          write[inTheirs] = true
        }
      } else if inOurs >= 0 {
        // Theirs removed it: gone, unless theirs removed it with its item and the merge keeps that item.
        if !(plan.theirsImage[node] < 0 && plan.present[node]) {
          oursDropped.append(match.ours.ranges[inOurs])
        }
      } else if inTheirs >= 0 {
        if plan.oursImage[node] < 0 && plan.present[node] { write[inTheirs] = true }
      }
    }
    for index in 0..<match.theirs.count where write[index] {
      let range = match.theirs.ranges[index]
      let slot = match.theirs.slots[index]
      if slot < 0 {
        epilog.append(range)
      } else if slot & 1 == 0 {
        lead[slot >> 1, default: []].append(range)
      } else {
        trailing[slot >> 1, default: []].append(range)
      }
    }
    oursDropped.sort { $0.lowerBound < $1.lowerBound }
    droppedStarts = Set(oursDropped.map(\.lowerBound))
  }

  /// Ours' dropped markup inside `range`, in order.
  func dropped(in range: Range<Int>) -> ArraySlice<Range<Int>> {
    guard !oursDropped.isEmpty else { return [] }
    let first = Partition.point(oursDropped.count) { oursDropped[$0].lowerBound < range.lowerBound }
    var end = first
    while end < oursDropped.count && oursDropped[end].upperBound <= range.upperBound { end += 1 }
    return oursDropped[first..<end]
  }

  /// Whether ours' `bytes[range]` holds markup that is written.
  func holdsKeptMarkup(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    guard bytes[range].contains(UInt8(ascii: "<")) else { return false }
    guard !oursDropped.isEmpty else { return true }
    return TriviaSlots.markup(bytes, range).contains { !droppedStarts.contains($0.lowerBound) }
  }
}
