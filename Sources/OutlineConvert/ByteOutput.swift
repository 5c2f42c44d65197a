import OutlineCore

/// Bytes appended at the end of a growing buffer, without an array's uniqueness and capacity
/// checks on each of the millions of small appends a formatter makes. The owner frees it.
struct ByteOutput {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  /// Frees the buffer; the output must not be used after.
  func free() { base.deallocate() }

  var last: UInt8? { count > 0 ? base[count - 1] : nil }
  var isEmpty: Bool { count == 0 }

  /// The bytes written.
  var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  mutating func removeAll() { count = 0 }

  @inline(__always)
  mutating func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, count + extra))
    grown.update(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = max(capacity * 2, count + extra)
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

  /// Appends `byte` into room already reserved.
  @inline(__always)
  mutating func appendUnchecked(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }

  /// Writes `word`'s eight bytes at the end, into room already reserved, without counting them:
  /// ``advance(_:)`` counts those that belong.
  @inline(__always)
  func storeWord(_ word: UInt64) {
    UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
  }

  /// Counts `bytes` more, written by ``storeWord(_:)``.
  @inline(__always)
  mutating func advance(_ bytes: Int) { count += bytes }

  /// Appends the `length` bytes at `source` eight at a time into room already reserved for
  /// `length` plus eight: `source` must be readable up to `length` rounded up to eight.
  @inline(__always)
  mutating func appendWords(_ source: UnsafePointer<UInt8>, _ length: Int) {
    var at = 0
    while at < length {
      UnsafeMutableRawPointer(base + count + at).storeBytes(
        of: UnsafeRawPointer(source + at).loadUnaligned(as: UInt64.self), as: UInt64.self)
      at += 8
    }
    count += length
  }

  mutating func appendSpaces(_ width: Int) {
    guard width > 0 else { return }
    reserve(width)
    (base + count).update(repeating: 0x20, count: width)
    count += width
  }
}
