// An entity's keys for the JSON form writer, laid out for the per-item loop: names matched as a length and the
// first eight bytes read as one word, pre-quoted keys copied eight bytes at a time from memory the table owns.

import Foundation
import OutlineCore

extension ObjectHead {
  /// An entity's keys, laid out for the per-item loop: names and quoted
  /// keys one after another with where each ends, so matching and writing
  /// touch no `Key` value (nor its reference counts).
  final class EntityTable {
    /// `,"@entity":"Name"`.
    let entity: [UInt8]
    let keys: [Key]
    let names: [UInt8]
    let nameEnds: [Int]
    let quoted: [UInt8]
    let quotedEnds: [Int]
    let ranks: [Int]
    let kinds: [Key.Kind]
    /// `entity` then `quoted`, in memory this table owns (with eight bytes to spare after the
    /// last, so each may be copied eight bytes at a time): each item's copies of them read no
    /// array (no uniqueness, bounds or reference count work).
    private let bytes: UnsafeMutablePointer<UInt8>
    /// Where each key's `,"name":` starts in `bytes`, and where the last ends.
    private let quotedStarts: UnsafeMutablePointer<Int>
    /// Each key's name: its length, its first eight bytes (fewer for a shorter name, the
    /// rest zero) as a little-endian word, and where it starts in `nameBytes`.
    let keyCount: Int
    private let nameLengths: UnsafeMutablePointer<Int>
    private let nameWords: UnsafeMutablePointer<UInt64>
    private let nameStarts: UnsafeMutablePointer<Int>
    private let nameBytes: UnsafeMutablePointer<UInt8>
    /// `kinds`, in memory this table owns.
    let kindOf: UnsafeMutablePointer<Key.Kind>
    /// The attribute that wrote each key of the tag being written (``ObjectHead/writeItem(_:table:into:)``).
    let slots: UnsafeMutablePointer<Int32>
    /// Room enough for the head of any object of the entity, but for its values: `@entity`,
    /// `@id` and every key, the quotes of every value and the eight bytes a word copy may
    /// write past its end.
    let headRoom: Int

    /// The element name of the entity's objects.
    let elementName: UnsafeBufferPointer<UInt8>

    init(entity: [UInt8], keys: [Key], elementName: [UInt8] = []) {
      let name = UnsafeMutablePointer<UInt8>.allocate(capacity: max(elementName.count, 1))
      name.initialize(from: elementName, count: elementName.count)
      self.elementName = UnsafeBufferPointer(start: name, count: elementName.count)
      self.entity = entity
      self.keys = keys
      names = keys.flatMap(\.name)
      quoted = keys.flatMap(\.quoted)
      var end = 0
      nameEnds = keys.map {
        end += $0.name.count
        return end
      }
      end = 0
      quotedEnds = keys.map {
        end += $0.quoted.count
        return end
      }
      ranks = keys.map(\.rank)
      kinds = keys.map(\.kind)
      let all = entity + quoted + [UInt8](repeating: 0, count: 8)
      bytes = .allocate(capacity: all.count)
      bytes.initialize(from: all, count: all.count)
      let starts = [entity.count] + quotedEnds.map { entity.count + $0 }
      quotedStarts = .allocate(capacity: starts.count)
      quotedStarts.initialize(from: starts, count: starts.count)
      keyCount = keys.count
      let count = max(keys.count, 1)
      nameLengths = .allocate(capacity: count)
      nameLengths.initialize(from: keys.map(\.name.count), count: keys.count)
      nameWords = .allocate(capacity: count)
      nameWords.initialize(from: keys.map { ObjectHead.prefixWord(of: $0.name) }, count: keys.count)
      nameStarts = .allocate(capacity: count)
      nameStarts.initialize(from: zip(nameEnds, keys).map { $0 - $1.name.count }, count: keys.count)
      nameBytes = .allocate(capacity: max(names.count, 1))
      nameBytes.initialize(from: names, count: names.count)
      kindOf = .allocate(capacity: count)
      kindOf.initialize(from: kinds, count: keys.count)
      slots = .allocate(capacity: count)
      slots.initialize(repeating: 0, count: count)
      headRoom = entity.count + quoted.count + ObjectHead.idKey.utf8CodeUnitCount + 2 * (keys.count + 1) + 16
    }

    deinit {
      elementName.deallocate()
      bytes.deallocate()
      quotedStarts.deallocate()
      nameLengths.deallocate()
      nameWords.deallocate()
      nameStarts.deallocate()
      nameBytes.deallocate()
      kindOf.deallocate()
      slots.deallocate()
    }

    /// Appends `,"@entity":"Name"`.
    @inline(__always)
    func appendEntity(to out: inout ByteOutput) {
      out.append(UnsafeBufferPointer(start: bytes, count: quotedStarts[0]))
    }

    /// Appends `,"name":` of key `index`.
    @inline(__always)
    func appendQuoted(_ index: Int, to out: inout ByteOutput) {
      let start = quotedStarts[index]
      out.append(UnsafeBufferPointer(start: bytes + start, count: quotedStarts[index + 1] - start))
    }

    /// Appends `,"@entity":"Name"` eight bytes at a time into room already reserved.
    @inline(__always)
    func appendEntityWords(to out: inout ByteOutput) {
      out.appendWords(bytes, quotedStarts[0])
    }

    /// Appends `,"name":` of key `index` eight bytes at a time into room already reserved.
    @inline(__always)
    func appendQuotedWords(_ index: Int, to out: inout ByteOutput) {
      let start = quotedStarts[index]
      out.appendWords(bytes + start, quotedStarts[index + 1] - start)
    }

    /// The key named by `name`, if the entity has one.
    func key(named name: UnsafeBufferPointer<UInt8>) -> Int? {
      names.withUnsafeBufferPointer { names in
        var start = 0
        for (index, end) in nameEnds.enumerated() {
          // The first byte is compared here: most names that differ do so there, without a call.
          if end - start == name.count && names[start] == name[0]
            && memcmp(names.baseAddress! + start, name.baseAddress!, name.count) == 0
          {
            return index
          }
          start = end
        }
        return nil
      }
    }

    /// The key named by the `length` bytes at `name`, whose first eight (fewer for a shorter
    /// name, the rest zero) are `word`; -1 when the entity has none.
    @inline(__always)
    func key(word: UInt64, length: Int, name: UnsafePointer<UInt8>) -> Int {
      for key in 0..<keyCount where nameWords[key] == word && nameLengths[key] == length {
        if length <= 8 || memcmp(nameBytes + nameStarts[key] + 8, name + 8, length - 8) == 0 { return key }
      }
      return -1
    }
  }
}
