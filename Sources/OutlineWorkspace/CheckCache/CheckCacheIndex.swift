import OutlineCore
import OutlineFiles

/// Every entry of one cache folder, in one file read whole at a run's first
/// lookup and written once at its end (``CheckCache/finish()``).
///
/// The file: a magic line, the format, the tool's version, the number of
/// records, then each record (the key's 32 bytes, the day it was last used, the
/// length of the entry's ``CheckCacheEntry/encodedBody()`` and that body), and
/// the SHA-256 of all that before it, so that an index cut short, altered or
/// not an index at all is never read as a good one. An index of another tool
/// version holds only other keys (the version is part of every key): it is
/// read as empty, and replaced.
///
/// Records say the day (since 1970, UTC) a run last used them; ``pruned(today:keeping:)``
/// drops those unused for ``keptDays`` days, and the least recently used beyond ``byteLimit``.
public struct CheckCacheIndex: Sendable {
  /// The first bytes of every index.
  public static let magic = Array("outline-lint cache index\n".utf8)
  /// The index's name in its folder.
  public static let fileName = "lint-index"
  /// Records no run used for this many days are dropped when the index is written.
  public static let keptDays = 7
  /// The most bytes of records an index keeps (besides the records of the run writing it).
  public static let byteLimit = 64 << 20

  /// Why an index's bytes were not taken.
  public enum Rejection: Error, Equatable, Sendable {
    /// Not an index of this format: cut short, altered or not an index at all.
    case corrupt
    /// Written by a newer version of the tool, in a format this one does not read.
    case newer
    /// A sound index of another version of the tool (or an older format): none of its keys can be this one's.
    case otherVersion
  }

  /// A key as the dictionary holds it: the digest's 32 bytes as four words.
  public struct Key: Hashable, Sendable, Comparable {
    var words: (UInt64, UInt64, UInt64, UInt64)

    /// The key of a 32-byte digest (nil for another length).
    public init?(_ digest: [UInt8]) {
      guard digest.count == 32 else { return nil }
      self.init(digest, at: 0)
    }

    init(_ bytes: [UInt8], at start: Int) {
      func word(_ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value = value << 8 | UInt64(bytes[start + offset + index]) }
        return value
      }
      words = (word(0), word(8), word(16), word(24))
    }

    /// The digest's 32 bytes.
    public var digest: [UInt8] {
      var out: [UInt8] = []
      out.reserveCapacity(32)
      for word in [words.0, words.1, words.2, words.3] {
        for shift in stride(from: 56, through: 0, by: -8) {
          out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
        }
      }
      return out
    }

    public static func == (left: Key, right: Key) -> Bool { left.words == right.words }

    public static func < (left: Key, right: Key) -> Bool {
      (left.words.0, left.words.1, left.words.2, left.words.3)
        < (right.words.0, right.words.1, right.words.2, right.words.3)
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(words.0)
      hasher.combine(words.1)
      hasher.combine(words.2)
      hasher.combine(words.3)
    }
  }

  /// Where a record's body lies in ``storage``, and the day it was last used.
  struct Slot: Sendable {
    var day: Int
    var range: Range<Int>
  }

  /// The tool version the index is for.
  public var toolVersion: String
  /// The bodies, each where its slot says (replaced ones stay until the index is written).
  var storage: [UInt8] = []
  var slots: [Key: Slot] = [:]

  /// An empty index for `toolVersion`.
  public init(toolVersion: String = ToolVersion.current) { self.toolVersion = toolVersion }

  /// How many records it holds.
  public var count: Int { slots.count }

  /// Its keys, in order.
  public var keys: [Key] { slots.keys.sorted() }

  /// The bytes of the records' bodies.
  public var bodyBytes: Int { slots.values.reduce(0) { $0 + $1.range.count } }

  /// The day the record of `key` was last used, or nil when there is none.
  public func lastUsed(_ key: Key) -> Int? { slots[key]?.day }

  /// The earliest day a record was last used, or nil when there is none.
  public var earliestDay: Int? { slots.values.lazy.map(\.day).min() }

  /// The entry of `key`, or nil when there is none; `.none` inside when its body is not a whole entry.
  public func entry(_ key: Key) -> CheckCacheEntry?? {
    guard let slot = slots[key] else { return nil }
    return .some(CheckCacheEntry.decodeBody(storage, in: slot.range))
  }

  /// The body of `key`'s record, or nil when there is none.
  public func body(_ key: Key) -> ArraySlice<UInt8>? {
    slots[key].map { storage[$0.range] }
  }

  /// Keeps `body` (an entry's ``CheckCacheEntry/encodedBody()``) under `key`, last used on `day`.
  public mutating func set(_ key: Key, body: some Collection<UInt8>, day: Int) {
    let start = storage.count
    storage.append(contentsOf: body)
    slots[key] = Slot(day: day, range: start..<storage.count)
  }

  /// Keeps `entry` under `key`, last used on `day`.
  public mutating func set(_ key: Key, entry: CheckCacheEntry, day: Int) {
    set(key, body: entry.encodedBody(), day: day)
  }

  /// Says the record of `key` (when there is one) was used on `day`.
  public mutating func use(_ key: Key, day: Int) {
    slots[key]?.day = day
  }

  /// The index without the records unused for ``keptDays`` days before `today`, nor, beyond
  /// `byteLimit` bytes of bodies, the least recently used; the records of `keeping` stay
  /// whatever their age and size.
  public func pruned(today: Int, keeping: Set<Key>, byteLimit: Int = byteLimit) -> CheckCacheIndex {
    var out = CheckCacheIndex(toolVersion: toolVersion)
    // The most recently used first (ties by key, so that the result does not depend on the order read).
    let order = slots.sorted { ($0.value.day, $1.key) > ($1.value.day, $0.key) }
    var kept = 0
    for (key, slot) in order where keeping.contains(key) {
      out.set(key, body: storage[slot.range], day: slot.day)
      kept += slot.range.count
    }
    for (key, slot) in order where !keeping.contains(key) {
      if slot.day < today - Self.keptDays || kept + slot.range.count > byteLimit { continue }
      out.set(key, body: storage[slot.range], day: min(slot.day, today))
      kept += slot.range.count
    }
    return out
  }

  /// The index's file.
  public func encoded() -> [UInt8] {
    var out = EntryWriter()
    out.bytes.reserveCapacity(storage.count + slots.count * 48 + 128)
    out.bytes = Self.magic
    out.number(Int(CheckCacheEntry.format))
    out.text(toolVersion)
    out.number(slots.count)
    for key in keys {
      let slot = slots[key]!
      out.bytes += key.digest
      out.number(slot.day)
      out.number(slot.range.count)
      out.bytes += storage[slot.range]
    }
    var digest = SHA256Digest()
    digest.add(out.bytes)
    out.bytes += digest.finish()
    return out.bytes
  }

  /// The index in `bytes`, when they are a whole, unaltered index of this format for `toolVersion`.
  /// Each record's body is read only when asked for (``entry(_:)``).
  public static func decode(_ bytes: [UInt8], toolVersion: String = ToolVersion.current) -> Result<
    CheckCacheIndex, Rejection
  > {
    var input = EntryReader(bytes: bytes)
    guard input.expect(magic), let format = input.number() else { return .failure(.corrupt) }
    if format > Int(CheckCacheEntry.format) { return .failure(.newer) }
    guard bytes.count >= 32 + input.offset else { return .failure(.corrupt) }
    var digest = SHA256Digest()
    digest.add(bytes[..<(bytes.count - 32)])
    guard digest.finish().elementsEqual(bytes[(bytes.count - 32)...]) else { return .failure(.corrupt) }
    if format < Int(CheckCacheEntry.format) { return .failure(.otherVersion) }
    input.end = bytes.count - 32
    guard let version = input.text(), let count = input.count(least: 48) else { return .failure(.corrupt) }
    if version != toolVersion { return .failure(.otherVersion) }
    var index = CheckCacheIndex(toolVersion: version)
    index.slots.reserveCapacity(count)
    for _ in 0..<count {
      guard input.end - input.offset >= 32 else { return .failure(.corrupt) }
      let key = Key(bytes, at: input.offset)
      input.offset += 32
      guard let day = input.number(), let length = input.number(), input.end - input.offset >= length,
        index.slots[key] == nil
      else { return .failure(.corrupt) }
      index.slots[key] = Slot(day: day, range: input.offset..<(input.offset + length))
      input.offset += length
    }
    guard input.offset == input.end else { return .failure(.corrupt) }
    index.storage = bytes
    return .success(index)
  }
}
