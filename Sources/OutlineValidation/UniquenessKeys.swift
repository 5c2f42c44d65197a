import Foundation
import OutlineXML

/// A uniqueness table's keys, one after the other, in memory of their own that grows by
/// `realloc` (a large block moves without a copy). Every object of a constrained entity appends
/// its key here: an array's append checked its uniqueness and capacity for each byte run and
/// copied the whole when it grew.
final class KeyBytes {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int

  init() {
    capacity = 256
    base = Self.resized(nil, to: capacity)
  }

  deinit { free(base) }

  private static func resized(_ block: UnsafeMutablePointer<UInt8>?, to size: Int) -> UnsafeMutablePointer<
    UInt8
  > {
    guard let moved = realloc(block, size) else { fatalError("out of memory for uniqueness keys") }
    return moved.assumingMemoryBound(to: UInt8.self)
  }

  /// Room for `extra` bytes more.
  @inline(__always)
  func reserve(_ extra: Int) {
    if count &+ extra > capacity { grow(count + extra) }
  }

  private func grow(_ needed: Int) {
    capacity = max(needed, capacity * 2)
    base = Self.resized(base, to: capacity)
  }

  /// A field: its kind, its length (four bytes), its bytes, so no two tuples run together.
  @inline(__always)
  func appendField(_ bytes: UnsafeRawBufferPointer, tag: UInt8) {
    reserve(5 + bytes.count)
    let at = base + count
    at[0] = tag
    UnsafeMutableRawPointer(at + 1).storeBytes(
      of: UInt32(truncatingIfNeeded: bytes.count).littleEndian, as: UInt32.self)
    if let source = bytes.baseAddress, bytes.count > 0 {
      UnsafeMutableRawPointer(at + 5).copyMemory(from: source, byteCount: bytes.count)
    }
    count += 5 + bytes.count
  }

  /// A field of a raw attribute value's decoded bytes (references resolved, white space
  /// normalized: ``XMLEscaping/appendDecodedAttribute(_:to:)``'s bytes), written in place: the
  /// decoded value is never longer than the raw one.
  func appendDecodedField(_ raw: UnsafeBufferPointer<UInt8>, tag: UInt8) {
    reserve(5 + raw.count)
    let at = base + count
    at[0] = tag
    var written = 5
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      if byte == UInt8(ascii: "&"), let (scalar, length) = XMLEscaping.reference(in: raw, at: index) {
        UTF8.encode(scalar) { unit in
          at[written] = unit
          written += 1
        }
        index += length
        continue
      }
      if byte == 0x0D {
        at[written] = 0x20
        // A CR LF pair is one line end, so one space.
        if index + 1 < raw.count && raw[index + 1] == 0x0A { index += 1 }
      } else {
        at[written] = byte == 0x0A || byte == 0x09 ? 0x20 : byte
      }
      written += 1
      index += 1
    }
    UnsafeMutableRawPointer(at + 1).storeBytes(
      of: UInt32(truncatingIfNeeded: written - 5).littleEndian, as: UInt32.self)
    count += written
  }

  /// A field of eight bytes (a number).
  @inline(__always)
  func appendField(_ value: UInt64, tag: UInt8) {
    withUnsafeBytes(of: value.littleEndian) { appendField($0, tag: tag) }
  }

  /// Drops every byte from `end` on.
  func truncate(to end: Int) { count = end }

  /// The bytes of `range`.
  func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
  }

  /// Whether the bytes of two ranges are the same.
  func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
    a.count == b.count && memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
  }
}

enum HashOrder {
  /// `hash << 32 | index` for every index of `hashes`, sorted by hash (stable, so equal hashes
  /// stay in index order): an LSD radix sort, three passes of 11 bits over memory of its own.
  static func sorted(count: Int, hash: (Int) -> UInt32) -> [UInt64] {
    var values = [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
      for index in 0..<count { buffer[index] = UInt64(hash(index)) << 32 | UInt64(index) }
      initialized = count
    }
    guard count > 1 else { return values }
    var spare = [UInt64](repeating: 0, count: count)
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: 2049)
    defer { counts.deallocate() }
    for shift in [32, 43, 54] as [UInt64] {
      values.withUnsafeBufferPointer { from in
        spare.withUnsafeMutableBufferPointer { to in
          counts.initialize(repeating: 0, count: 2049)
          for value in from { counts[Int((value >> shift) & 0x7FF) &+ 1] &+= 1 }
          for bucket in 1...2048 { counts[bucket] &+= counts[bucket - 1] }
          for value in from {
            let bucket = Int((value >> shift) & 0x7FF)
            to[counts[bucket]] = value
            counts[bucket] &+= 1
          }
        }
      }
      swap(&values, &spare)
    }
    return values
  }
}
