/// The one hash of the validator's tables (``IDTable``, ``UniquenessTables``): seeded, so that
/// keys crafted to collide cannot make a file slow to check.
enum SeededHash {
  /// A seeded multiply-xorshift hash over eight bytes at a time, with murmur3's finalizer.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
    var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
    func mix(_ word: UInt64) {
      hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash >> 31
    }
    guard let base = bytes.baseAddress else { return hash }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var at = 0
    while at + 8 <= count {
      mix(raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
      at += 8
    }
    // The last bytes in one or two loads, not one at a time: the eight before the end
    // (overlapping the word before), or two overlapping four-byte loads. Every byte is in a
    // word mixed, and the length is mixed in first.
    if at < count {
      if count >= 8 {
        mix(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
      } else if count >= 4 {
        mix(
          UInt64(raw.loadUnaligned(as: UInt32.self))
            | UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << 32)
      } else {
        var tail: UInt64 = 0
        for index in 0..<count { tail |= UInt64(base[index]) << UInt64(8 * index) }
        mix(tail)
      }
    } else {
      mix(0)
    }
    // A full avalanche (murmur3's finalizer): the slot comes from the low bits,
    // and keys that differ only in their high bytes (integers) must spread.
    hash ^= hash >> 33
    hash = hash &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 33
    hash = hash &* 0xC4CE_B9FE_1A85_EC53
    return hash ^ (hash >> 33)
  }
}

/// The seed of the validator's hash tables (``IDTable``, ``UniquenessTables``):
/// drawn once per process, on first use.
///
/// Random per process, so ids or keys crafted to collide cannot make a file
/// slow to check; not per table, which cost a `getrandom` system call for
/// each table of each document (three a file when linting many small files).
enum HashSeed {
  static let process = UInt64.random(in: .min ... .max)
}
