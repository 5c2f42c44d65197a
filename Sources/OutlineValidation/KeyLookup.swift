import OutlineModel
import OutlineXML

/// The validator's view of the model's attribute and relationship names,
/// laid out for the lookup every attribute of every start tag makes: one
/// flat list of (length, first eight bytes) per key, compared as integers
/// before any byte comparison, where ``ModelIndex/attribute(_:of:)``
/// compares each name's bytes in its own array. The same answers.
struct KeyLookup {
  private struct Key {
    var length: Int
    /// The name's first eight bytes, little-endian, zero-padded.
    var prefix: UInt64
  }

  /// Per entity, where its keys start in `keys` (one more entry for the end).
  private var starts: [Int] = [0]
  private var keys: [Key] = []
  /// Per entity, how many of its keys are attributes (they come first).
  private var attributeCounts: [Int] = []
  /// Per entity, a bit per attribute (of the first 64) whose values need
  /// nothing beyond being read: stored, and neither typed nor constrained.
  private(set) var plain: [UInt64] = []

  init() {}

  init(_ schema: ModelIndex) {
    for entity in schema.keys.indices {
      for name in schema.keys[entity] {
        keys.append(Key(length: name.count, prefix: name.withUnsafeBufferPointer { Self.prefix($0) }))
      }
      starts.append(keys.count)
      attributeCounts.append(schema.attributeCount[entity])
      var bits: UInt64 = 0
      for (index, facts) in schema.attributes[entity].prefix(64).enumerated() where facts.isPlain {
        bits |= 1 << UInt64(index)
      }
      plain.append(bits)
    }
  }

  /// The first eight bytes of `bytes`, little-endian, zero-padded.
  @inline(__always)
  static func prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    guard let base = bytes.baseAddress else { return 0 }
    let count = bytes.count
    let raw = UnsafeRawPointer(base)
    if count >= 8 { return UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) }
    if count >= 4 {
      // Two overlapping four-byte loads: the bytes they share are the same.
      let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
      let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
      return low | high << UInt64(8 * (count - 4))
    }
    var word: UInt64 = 0
    for index in 0..<count { word |= UInt64(base[index]) << UInt64(8 * index) }
    return word
  }

  /// The attribute of `entity` whose name `name` spells (as ``ModelIndex/attribute(_:of:)``).
  @inline(__always)
  func attribute(_ name: UnsafeBufferPointer<UInt8>, of entity: Int, in schema: ModelIndex) -> Int? {
    find(name, entity: entity, from: 0, to: attributeCounts[entity], schema: schema)
  }

  /// The relationship of `entity` whose name `name` spells (as ``ModelIndex/relationship(_:of:)``).
  func relationship(_ name: UnsafeBufferPointer<UInt8>, of entity: Int, in schema: ModelIndex) -> Int? {
    let first = attributeCounts[entity]
    return find(name, entity: entity, from: first, to: starts[entity + 1] - starts[entity], schema: schema)
      .map { $0 - first }
  }

  @inline(__always)
  private func find(
    _ name: UnsafeBufferPointer<UInt8>, entity: Int, from: Int, to: Int, schema: ModelIndex
  ) -> Int? {
    let prefix = Self.prefix(name)
    let base = starts[entity]
    return keys.withUnsafeBufferPointer { keys in
      for index in from..<to {
        let key = keys[base + index]
        guard key.length == name.count, key.prefix == prefix else { continue }
        if name.count <= 8 || XMLName.equals(name, schema.keys[entity][index]) { return index }
      }
      return nil
    }
  }
}
