/// Read-only elements lent for the length of one call (a parser's event, a chunk of a file):
/// indices are checked, and no pointer is handed out.
///
/// The modules that read bytes at speed (OutlineCore, OutlineXML, OutlineValidation,
/// OutlineConvert, OutlineFiles, OutlineJSON) make views of their buffers and may reach the
/// buffer behind one (`package`); every other module sees only this face. A view must not be
/// kept past the call that lent it.
public struct BufferView<Element>: RandomAccessCollection {
  /// The elements viewed; valid while the lender's call lasts.
  @usableFromInline let base: UnsafeBufferPointer<Element>

  /// A view of `buffer`, for the modules that own raw buffers.
  @inlinable @inline(__always)
  package init(_ buffer: UnsafeBufferPointer<Element>) { base = buffer }

  /// An empty view.
  @inlinable
  public init() { base = UnsafeBufferPointer(start: nil, count: 0) }

  /// The buffer behind the view, for the modules that must have it.
  @inlinable @inline(__always)
  package var unsafeBuffer: UnsafeBufferPointer<Element> { base }

  @inlinable @inline(__always)
  public var startIndex: Int { 0 }

  @inlinable @inline(__always)
  public var endIndex: Int { base.count }

  @inlinable @inline(__always)
  public var count: Int { base.count }

  @inlinable @inline(__always)
  public var isEmpty: Bool { base.isEmpty }

  @inlinable @inline(__always)
  public func index(after index: Int) -> Int { index + 1 }

  @inlinable @inline(__always)
  public func index(before index: Int) -> Int { index - 1 }

  /// The element at `index`, which must lie inside the view.
  @inlinable @inline(__always)
  public subscript(index: Int) -> Element {
    precondition(index >= 0 && index < base.count, "index out of the view")
    return base[index]
  }

  /// The elements in `range` (which must lie inside the view) as a view of their own,
  /// indexed from zero.
  @inlinable @inline(__always)
  public func extracting(_ range: Range<Int>) -> BufferView {
    precondition(range.lowerBound >= 0 && range.upperBound <= base.count, "range out of the view")
    return BufferView(UnsafeBufferPointer(rebasing: base[range]))
  }

  /// The elements from `start` to the end, indexed from zero.
  @inlinable
  public func extracting(from start: Int) -> BufferView { extracting(start..<base.count) }

  /// The elements before `end`.
  @inlinable
  public func extracting(upTo end: Int) -> BufferView { extracting(0..<end) }

  @inlinable
  public func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    try body(base)
  }
}

/// Bytes lent for one call: see ``BufferView``.
public typealias ByteView = BufferView<UInt8>

extension BufferView where Element == UInt8 {
  /// The bytes decoded as UTF-8 (ill-formed sequences repaired).
  @inlinable
  public var string: String { String(decoding: base, as: UTF8.self) }

  /// A copy of the bytes.
  @inlinable
  public var array: [UInt8] { Array(base) }

  /// Whether the bytes spell `text` exactly.
  @inlinable
  public func equals(_ text: StaticString) -> Bool {
    guard base.count == text.utf8CodeUnitCount else { return false }
    return base.count == 0 || memcmp(base.baseAddress!, text.utf8Start, base.count) == 0
  }

  /// Whether the bytes are `bytes` exactly.
  @inlinable
  public func equals(_ bytes: [UInt8]) -> Bool {
    guard base.count == bytes.count else { return false }
    guard base.count > 0 else { return true }
    return bytes.withUnsafeBufferPointer { memcmp(base.baseAddress!, $0.baseAddress!, base.count) == 0 }
  }

  /// Whether the bytes are those of `other` exactly.
  @inlinable
  public func equals(_ other: ByteView) -> Bool {
    guard base.count == other.base.count else { return false }
    return base.count == 0 || memcmp(base.baseAddress!, other.base.baseAddress!, base.count) == 0
  }

  /// Whether the bytes from `index` on begin with `prefix`.
  @inlinable
  public func starts(with prefix: StaticString, at index: Int = 0) -> Bool {
    let length = prefix.utf8CodeUnitCount
    guard index >= 0, index <= base.count - length else { return false }
    return length == 0 || memcmp(base.baseAddress! + index, prefix.utf8Start, length) == 0
  }

  /// The first index at or after `start` whose byte is `byte`, or nil.
  @inlinable
  public func firstIndex(of byte: UInt8, from start: Int) -> Int? {
    guard start >= 0, start < base.count else { return nil }
    guard let found = memchr(base.baseAddress! + start, Int32(byte), base.count - start) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base.baseAddress!)
  }

  /// The first index at or after `start` where `needle` begins, or nil.
  @inlinable
  public func firstIndex(of needle: StaticString, from start: Int) -> Int? {
    let length = needle.utf8CodeUnitCount
    guard length > 0 else { return start <= base.count ? start : nil }
    let first = needle.utf8Start.pointee
    var index = start
    while let found = firstIndex(of: first, from: index) {
      if starts(with: needle, at: found) { return found }
      index = found + 1
    }
    return nil
  }

  /// The eight bytes at `index` as one little-endian word, zeros past the end: for scanners
  /// that test a word at a time (``WordScan``).
  @inlinable @inline(__always)
  public func word(at index: Int) -> UInt64 {
    precondition(index >= 0 && index <= base.count, "index out of the view")
    if index + 8 <= base.count {
      return UInt64(littleEndian: UnsafeRawPointer(base.baseAddress! + index).loadUnaligned(as: UInt64.self))
    }
    var word: UInt64 = 0
    var shift: UInt64 = 0
    for position in index..<base.count {
      word |= UInt64(base[position]) << shift
      shift += 8
    }
    return word
  }
}

extension BufferView where Element == UInt8 {
  /// The first index in `range` (which must lie inside the view) whose byte satisfies
  /// `predicate`, or nil: one check of the range, none per byte.
  @inlinable
  public func firstIndex(in range: Range<Int>, where predicate: (UInt8) throws -> Bool) rethrows -> Int? {
    precondition(range.lowerBound >= 0 && range.upperBound <= base.count, "range out of the view")
    guard let bytes = base.baseAddress else { return nil }
    var index = range.lowerBound
    while index < range.upperBound {
      if try predicate(bytes[index]) { return index }
      index += 1
    }
    return nil
  }

  /// The last index in `range` (which must lie inside the view) whose byte satisfies
  /// `predicate`, or nil: one check of the range, none per byte.
  @inlinable
  public func lastIndex(in range: Range<Int>, where predicate: (UInt8) throws -> Bool) rethrows -> Int? {
    precondition(range.lowerBound >= 0 && range.upperBound <= base.count, "range out of the view")
    guard let bytes = base.baseAddress else { return nil }
    var index = range.upperBound
    while index > range.lowerBound {
      index -= 1
      if try predicate(bytes[index]) { return index }
    }
    return nil
  }

  /// Feeds the bytes to `hasher`, as `Hasher.combine(bytes:)` does.
  @inlinable
  public func hashBytes(into hasher: inout Hasher) {
    hasher.combine(bytes: UnsafeRawBufferPointer(base))
  }
}

extension Array where Element == UInt8 {
  /// Lends the bytes as a view for the length of `body`.
  @inlinable
  public func withByteView<R>(_ body: (ByteView) throws -> R) rethrows -> R {
    try withUnsafeBufferPointer { try body(ByteView($0)) }
  }

  /// Lends the bytes of `range` as a view (indexed from zero) for the length of `body`.
  @inlinable
  public func withByteView<R>(_ range: Range<Int>, _ body: (ByteView) throws -> R) rethrows -> R {
    try withUnsafeBufferPointer { try body(ByteView($0).extracting(range)) }
  }
}

extension ArraySlice where Element == UInt8 {
  /// Lends the bytes as a view (indexed from zero) for the length of `body`.
  @inlinable
  public func withByteView<R>(_ body: (ByteView) throws -> R) rethrows -> R {
    try withUnsafeBufferPointer { try body(ByteView($0)) }
  }
}

extension Array {
  /// Lends the elements as a view for the length of `body`.
  @inlinable
  public func withView<R>(_ body: (BufferView<Element>) throws -> R) rethrows -> R {
    try withUnsafeBufferPointer { try body(BufferView($0)) }
  }

  /// Calls `body` with each element of `range` (which must lie inside the array), in order, to
  /// change it in place: the range is checked once, not each element.
  @inlinable
  public mutating func updateEach(in range: Range<Int>, _ body: (inout Element) throws -> Void) rethrows {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of the array")
    try withUnsafeMutableBufferPointer { elements in
      // The range was checked against the count: the elements are reached by address.
      guard let first = elements.baseAddress else { return }
      var index = range.lowerBound
      while index < range.upperBound {
        try body(&first[index])
        index += 1
      }
    }
  }
}
