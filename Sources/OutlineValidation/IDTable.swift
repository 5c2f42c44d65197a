import Foundation
import OutlineCore
import OutlineXML

/// The ids a document defines, kept compactly: their bytes one after the
/// other, a 24-byte entry each, and an open-addressing index of 8-byte
/// slots. A million-item file with 200,000 ids costs about 12 MB here where a
/// `[String: Definition]` cost about 40 MB at its last resize, and defining
/// an id makes no `String`.
///
/// The hash is seeded at random per process (``HashSeed``), so ids crafted to collide cannot
/// make a file slow to check.
struct IDTable {
  /// Where an id is defined, and the entity of the object that has it.
  struct Definition {
    var entity: Int?
    var range: TextRange
    /// The definition's number, in definition order (0 for the first id).
    var index: Int
  }

  private struct Entry {
    var textStart: UInt32
    var textLength: UInt32
    var rangeStart: Int
    var rangeLength: UInt32
    var entity: Int32
  }

  private var text: [UInt8] = []
  private var entries: [Entry] = []
  /// The low 32 bits of the id's hash in the high half, entry index + 1 in
  /// the low half; 0 is empty. A probe compares the hashes before it reads
  /// an entry, and growing moves slots without hashing again. The count is a
  /// power of two, at least twice the entries.
  private var slots = [UInt64](repeating: 0, count: Self.firstSlots)
  private let seed = HashSeed.process
  /// Decoded ids, reused.
  private var scratch: [UInt8] = []
  /// The document's size in bytes when known ahead (a large file), else 0: from its
  /// ``projectionSample``th id on, the table grows to as many as the whole document holds at
  /// the rate seen so far, in steps of at most eight times, instead of doubling its way there
  /// (each doubling copied the entries and ids, rehashed the slots and touched pages anew: at
  /// a million items, most of lint's memory traffic). Ids crowded at the start cannot size it
  /// for the whole file: a step is at most eight times what the table holds.
  var expectedDocumentBytes = 0
  private static let projectionSample = 4096

  var count: Int { entries.count }
  /// How many slots the index has (a power of two, at least twice the ids).
  var slotCount: Int { slots.count }

  /// Forgets every id: the table is then as a new one. The storage of a table
  /// that never grew is kept (a validator reused for the next document); a
  /// larger one's is freed.
  mutating func removeAll() {
    expectedDocumentBytes = 0
    guard !entries.isEmpty || !text.isEmpty else { return }
    if slots.count == Self.firstSlots {
      slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
      entries.removeAll(keepingCapacity: true)
      text.removeAll(keepingCapacity: text.capacity <= 1 << 14)
    } else {
      slots = [UInt64](repeating: 0, count: Self.firstSlots)
      entries = []
      text = []
    }
  }

  private static let firstSlots = 256

  /// Defines the id whose raw attribute value is `raw`; returns the earlier
  /// definition instead when the id is already defined.
  mutating func define(raw: UnsafeBufferPointer<UInt8>, entity: Int?, range: TextRange) -> Definition? {
    if XMLEscaping.isPlainAttribute(raw) { return define(raw, entity: entity, range: range) }
    var decoded = scratch
    scratch = []
    decoded.removeAll(keepingCapacity: true)
    XMLEscaping.appendDecodedAttribute(raw, to: &decoded)
    defer { scratch = decoded }
    return decoded.withUnsafeBufferPointer { define($0, entity: entity, range: range) }
  }

  private mutating func define(_ id: UnsafeBufferPointer<UInt8>, entity: Int?, range: TextRange)
    -> Definition?
  {
    if (entries.count + 1) * 2 > slots.count { grow(at: range.start) }
    let hashed = UInt32(truncatingIfNeeded: hash(id))
    let (slot, found) = probe(id, hashed: hashed)
    if let found { return definition(found, index: Self.entry(slots[slot])) }
    let textStart = text.count
    text.append(contentsOf: id)
    entries.append(
      Entry(
        textStart: UInt32(truncatingIfNeeded: textStart), textLength: UInt32(truncatingIfNeeded: id.count),
        rangeStart: range.start, rangeLength: UInt32(truncatingIfNeeded: range.length),
        entity: Int32(entity ?? -1)))
    slots[slot] = UInt64(hashed) << 32 | UInt64(entries.count)
    return nil
  }

  /// Brings in the slot where the id whose raw attribute value is `raw` would be defined (or
  /// found) next: a hint to the caches that changes nothing. At a million items the slots
  /// outgrow the caches, and each definition otherwise waits on memory. Mutating only so
  /// that the table is reached in place, never copied.
  mutating func prefetch(raw: UnsafeBufferPointer<UInt8>) {
    // A table about to grow moves its slots: a hint for the old ones would be wasted.
    guard (entries.count + 1) * 2 <= slots.count, XMLEscaping.isPlainAttribute(raw) else { return }
    let slot = Int(UInt32(truncatingIfNeeded: hash(raw))) & (slots.count - 1)
    slots.withUnsafeBufferPointer { CacheHint.prefetchForWrite($0.baseAddress! + slot) }
  }

  /// The definition of `id`, if any.
  func definition(of id: String) -> Definition? {
    var id = id
    return id.withUTF8 { bytes in
      let (slot, found) = probe(bytes, hashed: UInt32(truncatingIfNeeded: hash(bytes)))
      return found.map { definition($0, index: Self.entry(slots[slot])) }
    }
  }

  /// The definition numbered `index` and its id.
  func definition(at index: Int) -> (id: String, definition: Definition) {
    let entry = entries[index]
    let id = text.withUnsafeBufferPointer {
      String(
        decoding: UnsafeBufferPointer(
          rebasing: $0[Int(entry.textStart)..<Int(entry.textStart + entry.textLength)]),
        as: UTF8.self)
    }
    return (id, definition(entry, index: index))
  }

  /// The slot holding `id`'s entry, or the empty slot where it would go.
  private func probe(_ id: UnsafeBufferPointer<UInt8>, hashed: UInt32) -> (slot: Int, found: Entry?) {
    let mask = slots.count - 1
    var slot = Int(hashed) & mask
    while slots[slot] != 0 {
      if UInt32(truncatingIfNeeded: slots[slot] >> 32) == hashed {
        let entry = entries[Self.entry(slots[slot])]
        if matches(entry, id) { return (slot, entry) }
      }
      slot = (slot + 1) & mask
    }
    return (slot, nil)
  }

  /// The entry index a used slot holds.
  private static func entry(_ slot: UInt64) -> Int { Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1 }

  private func definition(_ entry: Entry, index: Int) -> Definition {
    Definition(
      entity: entry.entity >= 0 ? Int(entry.entity) : nil,
      range: TextRange(start: entry.rangeStart, end: entry.rangeStart + Int(entry.rangeLength)), index: index)
  }

  private func matches(_ entry: Entry, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
    guard Int(entry.textLength) == id.count else { return false }
    guard let base = id.baseAddress else { return true }
    return text.withUnsafeBufferPointer {
      memcmp($0.baseAddress! + Int(entry.textStart), base, id.count) == 0
    }
  }

  /// Grows the slots for the id defined at `offset`: twice as many, or as many as the
  /// document's ids need at the rate so far (``expectedDocumentBytes``), an eighth more.
  private mutating func grow(at offset: Int) {
    var capacity = slots.count * 2
    if expectedDocumentBytes > 0, entries.count >= Self.projectionSample, offset > 0,
      offset < expectedDocumentBytes
    {
      let expected = Double(entries.count) * (Double(expectedDocumentBytes) / Double(offset)) * 1.125
      let limit = Double(entries.count * 8)
      while Double(capacity) < min(expected, limit) * 2 { capacity *= 2 }
      entries.reserveCapacity(Int(min(expected, limit)))
      text.reserveCapacity(
        Int(min(Double(text.count) * expected / Double(entries.count), Double(text.count * 8))))
      Self.adviseCapacity(&entries)
      Self.adviseCapacity(&text)
    }
    grow(to: capacity)
  }

  private mutating func grow(to capacity: Int) {
    let mask = capacity - 1
    var grown = [UInt64](unsafeUninitializedCapacity: capacity) { buffer, count in
      LargePages.advise(UnsafeMutableRawPointer(buffer.baseAddress!), count: capacity * 8)
      buffer.initialize(repeating: 0)
      count = capacity
    }
    for used in slots where used != 0 {
      var slot = Int(truncatingIfNeeded: used >> 32) & mask
      while grown[slot] != 0 { slot = (slot + 1) & mask }
      grown[slot] = used
    }
    slots = grown
  }

  /// Advises the room `array` reserved past its elements, not yet touched, for large pages.
  private static func adviseCapacity<Element>(_ array: inout [Element]) {
    let capacity = array.capacity
    let used = array.count
    array.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let stride = MemoryLayout<Element>.stride
      LargePages.advise(UnsafeMutableRawPointer(base + used), count: (capacity - used) * stride)
    }
  }

  private func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { SeededHash.hash(bytes, seed: seed) }
}
