import Foundation
import OutlineCore
import OutlineSyntax
import OutlineXML

/// The items that define an id, by the hash of the id: where an id edit
/// (``AttributeEdit``) finds the objects sharing its old or new value
/// without visiting every item. Made on the first id edit of an analysis
/// and kept with it while edits carry the analysis over (item numbers stay);
/// a full pass drops it.
public final class IDDirectory: @unchecked Sendable {
  /// An item defining an id, numbered as the tree was after the first `epoch` splices.
  private struct Entry {
    var item: Int32
    var epoch: Int32
  }

  /// Per hash of a decoded id: the items defining such an id.
  private var items: [Int: [Entry]] = [:]
  /// The splices of the tree since (``splice(_:replacing:by:)``), applied to an entry's number when it is read:
  /// a markup edit renumbers every later item, and renumbering every entry would cost as much as a pass.
  private var splices: [(lower: Int32, upper: Int32, shift: Int32)] = []

  /// The directory of `tree`'s ids, read from `source` (the text after
  /// `change`), `item`'s id being `oldRaw` (its value before the change).
  init(tree: ItemTree, source: SourceText, change: AppliedChange, item edited: Int, oldRaw: [UInt8]) {
    source.bytes.withByteView { bytes in
      tree.items.withView { list in
        for index in list.indices {
          guard let range = list[index].idRange else { continue }
          let key: Int
          if index == edited {
            key = oldRaw.withByteView { Self.key(ofRaw: $0) }
          } else {
            let now = AttributeEdit.moved(range, by: change)
            key = Self.key(ofRaw: bytes.extracting(now.start..<now.end))
          }
          items[key, default: []].append(Entry(item: Int32(index), epoch: 0))
        }
      }
    }
  }

  /// The directory of `tree`'s ids, `key` giving the key of item `index`'s id at `range` (offsets of `tree`).
  init(tree: ItemTree, key: (_ index: Int, _ range: TextRange) -> Int) {
    tree.items.withView { list in
      for index in list.indices {
        guard let range = list[index].idRange else { continue }
        items[key(index, range), default: []].append(Entry(item: Int32(index), epoch: 0))
      }
    }
  }

  /// The number of `entry`'s item now; nil when a splice removed it.
  private func current(_ entry: Entry) -> Int32? {
    var item = entry.item
    var index = Int(entry.epoch)
    while index < splices.count {
      let splice = splices[index]
      index += 1
      if item < splice.lower { continue }
      if item < splice.upper { return nil }
      item += splice.shift
    }
    return item
  }

  /// The items whose id may be `id` (decoded), in document order; others with the same hash included.
  func candidates(_ id: [UInt8]) -> [Int32] {
    let list = items[id.withByteView { Self.key(ofDecoded: $0) }] ?? []
    return list.compactMap(current).sorted()
  }

  /// Moves `item` from the ids like `old` to those like `new` (both decoded).
  func move(_ item: Int, from old: [UInt8], to new: [UInt8]) {
    let from = old.withByteView { Self.key(ofDecoded: $0) }
    let to = new.withByteView { Self.key(ofDecoded: $0) }
    guard from != to else { return }
    items[from]?.removeAll { current($0) == Int32(item) }
    if items[from]?.isEmpty == true { items[from] = nil }
    items[to, default: []].append(Entry(item: Int32(item), epoch: Int32(splices.count)))
  }

  /// Follows a splice of the tree: the items `old` replaced by `count` new
  /// ones, whose ids are `added` (keys and new numbers); later items renumbered.
  func splice(_ added: [(key: Int, item: Int32)], replacing old: Range<Int>, by count: Int) {
    splices.append((Int32(old.lowerBound), Int32(old.upperBound), Int32(count - old.count)))
    if splices.count > 64 { compact() }
    for (key, item) in added {
      items[key, default: []].append(Entry(item: item, epoch: Int32(splices.count)))
    }
  }

  /// Renumbers every entry after the splices so far and forgets them.
  private func compact() {
    for key in Array(items.keys) {
      let list = items[key]!.compactMap { entry in current(entry).map { Entry(item: $0, epoch: 0) } }
      items[key] = list.isEmpty ? nil : list
    }
    splices = []
  }

  /// The key of a raw `xml:id` value: the hash of its decoded bytes.
  static func key(ofRaw raw: ByteView) -> Int {
    guard raw.firstIndex(of: UInt8(ascii: "&"), from: 0) != nil else { return key(ofDecoded: raw) }
    let decoded = Array(XMLEscaping.decodeAttribute(raw).utf8)
    return decoded.withByteView { key(ofDecoded: $0) }
  }

  private static func key(ofDecoded id: ByteView) -> Int {
    var hasher = Hasher()
    id.hashBytes(into: &hasher)
    return hasher.finalize()
  }
}
