import Dispatch

/// The offsets at which lines start, built in one pass over the bytes.
///
/// A line ends at `\n`; a `\r\n` pair belongs to the line it ends, so a CRLF
/// file has the same line numbers as its LF twin. Lines are 0-based inside.
/// The index can be built incrementally, chunk by chunk, so that a streaming
/// parse never has to hold the whole file to report positions. Offsets are
/// stored in 32 bits (4 bytes a line): texts are limited to 4 GiB, as
/// libxml2's own counters are.
public struct LineIndex: Sendable, Equatable {
  /// The offset of the first byte of each line; always starts with 0.
  private var lineStarts: [UInt32] = [0]
  /// How many bytes have been indexed.
  public private(set) var byteCount = 0

  /// An empty index, ready for ``append(_:)``.
  public init() {}

  /// Indexes all of `bytes`.
  public init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
    if let index = bytes.withContiguousStorageIfAvailable({ Self.indexing($0) }) {
      self = index
    } else {
      self = ContiguousArray(bytes).withUnsafeBufferPointer { Self.indexing($0) }
    }
  }

  /// Texts of at least this many bytes are searched in two halves on two cores.
  static let splitBytes = 8 << 20

  /// The index of `bytes`; a large text's second half is searched on another core.
  private static func indexing(_ bytes: UnsafeBufferPointer<UInt8>) -> LineIndex {
    var index = LineIndex()
    guard bytes.count >= splitBytes else {
      index.append(bytes)
      return index
    }
    let middle = bytes.count / 2
    let halves = Halves(bytes)
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      let text = halves.bytes
      if half == 0 {
        halves.first.append(UnsafeBufferPointer(rebasing: text[..<middle]))
      } else {
        halves.second.append(UnsafeBufferPointer(rebasing: text[middle...]))
      }
    }
    index.lineStarts = halves.first.lineStarts
    index.lineStarts.reserveCapacity(index.lineStarts.count + halves.second.lineStarts.count - 1)
    let shift = UInt32(truncatingIfNeeded: middle)
    for start in halves.second.lineStarts.dropFirst() { index.lineStarts.append(start &+ shift) }
    index.byteCount = bytes.count
    return index
  }

  /// The two halves' indexes, each filled by one thread and read after both ended.
  private final class Halves: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    var first = LineIndex()
    var second = LineIndex()
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
  }

  /// Indexes the next chunk of the text.
  public mutating func append(_ chunk: UnsafeBufferPointer<UInt8>) {
    guard let base = chunk.baseAddress else { return }
    var index = 0
    let count = chunk.count
    while index < count {
      guard let hit = memchr(base + index, 0x0A, count - index) else { break }
      let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      lineStarts.append(UInt32(truncatingIfNeeded: byteCount + position + 1))
      index = position + 1
    }
    byteCount += count
  }

  /// Indexes the text after the bytes `range` were replaced by `replacement`:
  /// the line starts inside the range give way to those of the replacement,
  /// and those after it move by the change in length. Time proportional to
  /// the change plus one shift of the later line starts.
  public mutating func replace(_ range: TextRange, with replacement: UnsafeBufferPointer<UInt8>) {
    let start = max(0, min(range.start, byteCount))
    let end = max(start, min(range.end, byteCount))
    let delta = replacement.count - (end - start)
    // Lines starting in start+1...end began after a newline inside the range.
    let first = line(containing: start) + 1
    var after = line(containing: end, notBefore: first - 1) + 1
    if after < first { after = first }
    var inserted: [UInt32] = []
    if let base = replacement.baseAddress {
      var index = 0
      while index < replacement.count {
        guard let hit = memchr(base + index, 0x0A, replacement.count - index) else { break }
        let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        inserted.append(UInt32(truncatingIfNeeded: start + position + 1))
        index = position + 1
      }
    }
    lineStarts.replaceSubrange(first..<after, with: inserted)
    if delta != 0 {
      let shift = UInt32(truncatingIfNeeded: delta)
      lineStarts.withUnsafeMutableBufferPointer { starts in
        for index in (first + inserted.count)..<starts.count { starts[index] &+= shift }
      }
    }
    byteCount += delta
  }

  /// The lines longer than `length` bytes (their line ending counted), in
  /// order: one pass over the line starts, not a search per line.
  func lines(longerThan length: Int) -> [Int] {
    var long: [Int] = []
    lineStarts.withUnsafeBufferPointer { starts in
      var previous = 0
      for line in 1..<starts.count {
        let start = Int(starts[line])
        if start - previous > length { long.append(line - 1) }
        previous = start
      }
      if byteCount - previous > length { long.append(starts.count - 1) }
    }
    return long
  }

  /// The number of lines (a final newline opens an empty last line).
  public var lineCount: Int { lineStarts.count }

  /// The 0-based line holding `utf8Offset` (clamped to the text).
  public func line(containing utf8Offset: Int) -> Int {
    line(containing: utf8Offset, notBefore: 0)
  }

  /// The line holding `utf8Offset`, known to be `hint` or after it: a walk
  /// through a document in order finds most lines at the hint or the next.
  public func line(containing utf8Offset: Int, notBefore hint: Int) -> Int {
    let offset = max(0, min(utf8Offset, byteCount))
    var low = max(0, min(hint, lineStarts.count - 1))
    if Int(lineStarts[low]) > offset { low = 0 }
    for _ in 0..<2 {
      guard low + 1 < lineStarts.count, Int(lineStarts[low + 1]) <= offset else { return low }
      low += 1
    }
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if Int(lineStarts[mid]) <= offset { low = mid } else { high = mid - 1 }
    }
    return low
  }

  /// The offset where `line` starts, clamped to the text.
  public func start(ofLine line: Int) -> Int {
    if line < 0 { return 0 }
    if line >= lineStarts.count { return byteCount }
    return Int(lineStarts[line])
  }

  /// The offset where `line` ends, before its `\n` or `\r\n`.
  public func contentEnd(ofLine line: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var end = line + 1 < lineStarts.count ? Int(lineStarts[line + 1]) - 1 : byteCount
    if end > start(ofLine: line), end - 1 < bytes.count, bytes[end - 1] == 0x0D { end -= 1 }
    return max(end, start(ofLine: line))
  }
}
