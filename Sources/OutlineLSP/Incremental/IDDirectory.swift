import Foundation
import OutlineCore
import OutlineSyntax
import OutlineXML

/// The items that define an id, by the hash of the id: where an id edit
/// (``AttributeEdit``) finds the objects sharing its old or new value
/// without visiting every item. Made on the first id edit of an analysis
/// and kept with it while edits carry the analysis over (item numbers stay);
/// a full pass drops it.
final class IDDirectory: @unchecked Sendable {
  /// Per hash of a decoded id: the items defining such an id, in document order.
  private var items: [Int: [Int32]] = [:]

  /// The directory of `tree`'s ids, read from `source` (the text after
  /// `change`), `item`'s id being `oldRaw` (its value before the change).
  init(tree: ItemTree, source: SourceText, change: AppliedChange, item edited: Int, oldRaw: [UInt8]) {
    source.bytes.withUnsafeBufferPointer { bytes in
      tree.items.withUnsafeBufferPointer { list in
        for index in list.indices {
          guard let range = list[index].idRange else { continue }
          let key: Int
          if index == edited {
            key = oldRaw.withUnsafeBufferPointer { Self.key(ofRaw: $0) }
          } else {
            let now = AttributeEdit.moved(range, by: change)
            key = Self.key(ofRaw: UnsafeBufferPointer(rebasing: bytes[now.start..<now.end]))
          }
          items[key, default: []].append(Int32(index))
        }
      }
    }
  }

  /// The directory of `tree`'s ids, `key` giving the key of item `index`'s id at `range` (offsets of `tree`).
  init(tree: ItemTree, key: (_ index: Int, _ range: TextRange) -> Int) {
    tree.items.withUnsafeBufferPointer { list in
      for index in list.indices {
        guard let range = list[index].idRange else { continue }
        items[key(index, range), default: []].append(Int32(index))
      }
    }
  }

  /// Follows a splice of the tree: the items `old` replaced by `count` new
  /// ones, whose ids are `added` (keys and new numbers); later items renumbered.
  func splice(_ added: [(key: Int, item: Int32)], replacing old: Range<Int>, by count: Int) {
    let lower = Int32(old.lowerBound)
    let upper = Int32(old.upperBound)
    let shift = Int32(count - old.count)
    for key in Array(items.keys) {
      var list = items[key]!
      guard let first = list.firstIndex(where: { $0 >= lower }) else { continue }
      list.removeAll { $0 >= lower && $0 < upper }
      if shift != 0 { for index in first..<list.count { list[index] += shift } }
      items[key] = list.isEmpty ? nil : list
    }
    for (key, item) in added {
      var list = items[key] ?? []
      let position = list.firstIndex { $0 > item } ?? list.count
      list.insert(item, at: position)
      items[key] = list
    }
  }

  /// The items whose id may be `id` (decoded), in document order; others with the same hash included.
  func candidates(_ id: [UInt8]) -> [Int32] {
    items[id.withUnsafeBufferPointer { Self.key(ofDecoded: $0) }] ?? []
  }

  /// Moves `item` from the ids like `old` to those like `new` (both decoded).
  func move(_ item: Int, from old: [UInt8], to new: [UInt8]) {
    let from = old.withUnsafeBufferPointer { Self.key(ofDecoded: $0) }
    let to = new.withUnsafeBufferPointer { Self.key(ofDecoded: $0) }
    guard from != to else { return }
    items[from]?.removeAll { $0 == Int32(item) }
    if items[from]?.isEmpty == true { items[from] = nil }
    var list = items[to] ?? []
    let position = list.firstIndex { $0 > Int32(item) } ?? list.count
    list.insert(Int32(item), at: position)
    items[to] = list
  }

  /// The key of a raw `xml:id` value: the hash of its decoded bytes.
  static func key(ofRaw raw: UnsafeBufferPointer<UInt8>) -> Int {
    guard !raw.isEmpty, memchr(raw.baseAddress!, Int32(UInt8(ascii: "&")), raw.count) != nil else {
      return key(ofDecoded: raw)
    }
    let decoded = Array(XMLEscaping.decodeAttribute(raw).utf8)
    return decoded.withUnsafeBufferPointer { key(ofDecoded: $0) }
  }

  private static func key(ofDecoded id: UnsafeBufferPointer<UInt8>) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(id))
    return hasher.finalize()
  }
}
