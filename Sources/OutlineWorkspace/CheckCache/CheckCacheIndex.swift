import OutlineCore
import OutlineFiles

/// Every entry of one cache folder, in one file read whole at a run's first
/// lookup and written once at its end (``CheckCache/finish()``).
///
/// It holds two tables. The records: each key (the SHA-256 of everything a
/// file's check depended on) with the day a run last used it and its entry's
/// ``CheckCacheEntry/encodedBody()``, each distinct body kept once (ten thousand
/// clean files checked against one model share one). And the files: each file's
/// place (a 64-bit hash of its path and where it was read from) with the
/// ``CheckCacheFileRecord`` of its last hashing, so that a run takes the digest of
/// a file whose `stat` is unchanged without reading it (two paths of one place can
/// only share a record when their `stat` is the same: the same file). Both tables
/// are sorted and of fixed width, read where they lie in the bytes; reading an index
/// costs its checksum and a pass over the rows' first words.
///
/// The file: a magic line, the format, the tool's version, the bodies (their
/// count, then each with its length), the records (their count, then 40 bytes
/// each: key, day, body number), the files (their count, then ``fileWidth``
/// bytes each), and the SHA-256 of all that before it, so that an index cut
/// short, altered or not an index at all is never read as a good one. An index
/// of another tool version holds only other keys (the version is part of every
/// key): it is read as empty, and replaced.
///
/// Records and files say the day (since 1970, UTC) a run last used them;
/// ``pruned(today:keeping:byteLimit:)`` drops those unused for ``keptDays`` days,
/// and the least recently used records beyond ``byteLimit``.
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

  /// A digest's 32 bytes as four words: a record's key, a file's content.
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
      append(to: &out)
      return out
    }

    /// Appends the digest's 32 bytes to `bytes`.
    func append(to bytes: inout [UInt8]) {
      for word in [words.0, words.1, words.2, words.3] {
        for shift in stride(from: 56, through: 0, by: -8) {
          bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
        }
      }
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

  /// A record's day and body (its number in ``bodies``).
  struct Slot: Sendable {
    var day: Int
    var body: Int
  }

  /// A file's record and the day a run last used it.
  struct FileSlot: Sendable {
    var record: CheckCacheFileRecord
    var day: Int
  }

  /// A sorted table of fixed-width rows in ``storage``.
  struct Table: Sendable {
    var start = 0
    var count = 0
  }

  /// The width of a record's row: key, day, body number.
  static let recordWidth = 40
  /// The width of a file's row: place, the record's fields, day, digest.
  static let fileWidth = 112

  /// The tool version the index is for.
  public var toolVersion: String
  /// The bytes read, then the bodies set since.
  var storage: [UInt8] = []
  /// Where each body lies in ``storage``.
  var bodies: [Range<Int>] = []
  /// The records and files as read.
  var readRecords = Table()
  var readFiles = Table()
  /// The first word of each record's key as read, and each file's place: what a lookup searches.
  var recordWords: [UInt64] = []
  var filePlaces: [UInt64] = []
  /// The records and files set or used since, which win over those read.
  var records: [Key: Slot] = [:]
  var files: [UInt64: FileSlot] = [:]

  /// An empty index for `toolVersion`.
  public init(toolVersion: String = ToolVersion.current) { self.toolVersion = toolVersion }

  /// How many records it holds.
  public var count: Int { allRecords().count }

  /// Its keys, in order.
  public var keys: [Key] { allRecords().map(\.key) }

  /// The places of its files, in order.
  public var places: [UInt64] { allFiles().map(\.place) }

  /// The bytes of the records' bodies.
  public var bodyBytes: Int {
    guard records.isEmpty else { return allRecords().reduce(0) { $0 + bodies[$1.slot.body].count } }
    // As read: the rows say it (a run's first lookup asks, whatever the index's size).
    var total = 0
    for index in 0..<readRecords.count {
      let body = Int(Self.word32(storage, readRecords.start + index * Self.recordWidth + 36))
      if bodies.indices.contains(body) { total += bodies[body].count }
    }
    return total
  }

  /// The day the record of `key` was last used, or nil when there is none.
  public func lastUsed(_ key: Key) -> Int? { slot(key)?.day }

  /// The earliest day a record or file was last used, or nil when there is none.
  public var earliestDay: Int? {
    guard records.isEmpty && files.isEmpty else {
      return (allRecords().lazy.map(\.slot.day) + allFiles().lazy.map(\.slot.day)).min()
    }
    var least: Int?
    for (table, width, at) in [(readRecords, Self.recordWidth, 32), (readFiles, Self.fileWidth, 76)] {
      for index in 0..<table.count {
        let day = Int(Self.word32(storage, table.start + index * width + at))
        least = min(least ?? day, day)
      }
    }
    return least
  }

  /// The entry of `key`, or nil when there is none; `.none` inside when its body is not a whole entry.
  public func entry(_ key: Key) -> CheckCacheEntry?? {
    guard let body = bodyNumber(key) else { return nil }
    return .some(entry(body: body))
  }

  /// The number of the body of `key`'s record (records with equal bodies may share one), or nil.
  public func bodyNumber(_ key: Key) -> Int? { slot(key)?.body }

  /// The entry of body `body`, or nil when it is not a whole entry.
  public func entry(body: Int) -> CheckCacheEntry? {
    guard bodies.indices.contains(body) else { return nil }
    return CheckCacheEntry.decodeBody(storage, in: bodies[body])
  }

  /// The body of `key`'s record, or nil when there is none.
  public func body(_ key: Key) -> ArraySlice<UInt8>? {
    guard let body = bodyNumber(key), bodies.indices.contains(body) else { return nil }
    return storage[bodies[body]]
  }

  /// The record of the file at `place`, or nil when there is none.
  public func file(_ place: UInt64) -> CheckCacheFileRecord? { fileSlot(place)?.record }

  /// The day the file at `place` was last used, or nil when there is none.
  public func fileLastUsed(_ place: UInt64) -> Int? { fileSlot(place)?.day }

  /// Keeps `body` (an entry's ``CheckCacheEntry/encodedBody()``) under `key`, last used on `day`.
  public mutating func set(_ key: Key, body: some Collection<UInt8>, day: Int) {
    let start = storage.count
    storage.append(contentsOf: body)
    bodies.append(start..<storage.count)
    records[key] = Slot(day: day, body: bodies.count - 1)
  }

  /// Keeps `entry` under `key`, last used on `day`.
  public mutating func set(_ key: Key, entry: CheckCacheEntry, day: Int) {
    set(key, body: entry.encodedBody(), day: day)
  }

  /// Says the record of `key` (when there is one) was used on `day`.
  public mutating func use(_ key: Key, day: Int) {
    guard var slot = slot(key) else { return }
    slot.day = day
    records[key] = slot
  }

  /// Keeps `record` as the file's at `place`, last used on `day`.
  public mutating func setFile(_ place: UInt64, _ record: CheckCacheFileRecord, day: Int) {
    files[place] = FileSlot(record: record, day: day)
  }

  /// Says the file at `place` (when there is one) was used on `day`.
  public mutating func useFile(_ place: UInt64, day: Int) {
    guard var slot = fileSlot(place) else { return }
    slot.day = day
    files[place] = slot
  }

  /// The index without the records and files unused for ``keptDays`` days before `today`,
  /// nor, beyond `byteLimit` bytes of bodies, the least recently used records; the records
  /// of `keeping` stay whatever their age and size.
  public func pruned(today: Int, keeping: Set<Key>, byteLimit: Int = byteLimit) -> CheckCacheIndex {
    var out = CheckCacheIndex(toolVersion: toolVersion)
    // The most recently used first (ties by key, so that the result does not depend on the order read).
    let order = allRecords().sorted { ($0.slot.day, $1.key) > ($1.slot.day, $0.key) }
    var kept = 0
    for (key, slot) in order where keeping.contains(key) {
      out.set(key, body: storage[bodies[slot.body]], day: slot.day)
      kept += bodies[slot.body].count
    }
    for (key, slot) in order where !keeping.contains(key) {
      let size = bodies[slot.body].count
      if slot.day < today - Self.keptDays || kept + size > byteLimit { continue }
      out.set(key, body: storage[bodies[slot.body]], day: min(slot.day, today))
      kept += size
    }
    for (place, slot) in allFiles() where slot.day >= today - Self.keptDays {
      out.setFile(place, slot.record, day: min(slot.day, today))
    }
    return out
  }

  /// The slot of `key`: set or used since read, else as read.
  func slot(_ key: Key) -> Slot? {
    if !records.isEmpty, let slot = records[key] { return slot }
    // The rows whose key starts with the same word, then the one whose whole key is `key`.
    var row = Self.first(key.words.0, in: recordWords)
    while row < recordWords.count && recordWords[row] == key.words.0 {
      let start = readRecords.start + row * Self.recordWidth
      if Key(storage, at: start) == key {
        return Slot(day: Int(Self.word32(storage, start + 32)), body: Int(Self.word32(storage, start + 36)))
      }
      row += 1
    }
    return nil
  }

  func fileSlot(_ place: UInt64) -> FileSlot? {
    if !files.isEmpty, let slot = files[place] { return slot }
    let row = Self.first(place, in: filePlaces)
    guard row < filePlaces.count && filePlaces[row] == place else { return nil }
    return Self.fileSlot(storage, readFiles.start + row * Self.fileWidth)
  }

  /// The first index of `sorted` whose word is not below `word`.
  static func first(_ word: UInt64, in sorted: [UInt64]) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < word { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Every record, in key order.
  func allRecords() -> [(key: Key, slot: Slot)] {
    var out: [(key: Key, slot: Slot)] = []
    out.reserveCapacity(readRecords.count + records.count)
    for index in 0..<readRecords.count {
      let row = readRecords.start + index * Self.recordWidth
      let key = Key(storage, at: row)
      if records[key] == nil {
        out.append(
          (key, Slot(day: Int(Self.word32(storage, row + 32)), body: Int(Self.word32(storage, row + 36)))))
      }
    }
    for (key, slot) in records { out.append((key, slot)) }
    return out.sorted { $0.key < $1.key }
  }

  /// Every file, in place order.
  func allFiles() -> [(place: UInt64, slot: FileSlot)] {
    var out: [(place: UInt64, slot: FileSlot)] = []
    out.reserveCapacity(readFiles.count + files.count)
    for index in 0..<readFiles.count {
      let row = readFiles.start + index * Self.fileWidth
      let place = filePlaces[index]
      if files[place] == nil { out.append((place, Self.fileSlot(storage, row))) }
    }
    for (place, slot) in files { out.append((place, slot)) }
    return out.sorted { $0.place < $1.place }
  }
}
