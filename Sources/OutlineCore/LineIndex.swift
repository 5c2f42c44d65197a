import Dispatch

/// The offsets at which lines start, built in one pass over the bytes.
///
/// A line ends at `\n`, at `\r\n` or at a lone `\r`, as XML normalizes line
/// ends and as the Language Server Protocol counts lines: a CRLF file has the
/// same line numbers as its LF twin, and a file of classic Mac line ends (CR
/// only) is as many lines as it shows. Lines are 0-based inside.
/// The index can be built incrementally, chunk by chunk, so that a streaming
/// parse never has to hold the whole file to report positions. Offsets are
/// stored in 32 bits (4 bytes a line): texts are limited to 4 GiB, as
/// libxml2's own counters are.
public struct LineIndex: Sendable, Equatable {
  /// The offset of the first byte of each line; always starts with 0.
  private var lineStarts: [UInt32] = [0]
  /// How many bytes have been indexed.
  public private(set) var byteCount = 0
  /// Whether the last byte indexed is a `\r`: a `\n` next makes the two one line end.
  private var endsWithCR = false

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
    // A `\r\n` split by the middle is one line end, not two.
    if bytes[middle - 1] == 0x0D && bytes[middle] == 0x0A { index.lineStarts.removeLast() }
    index.lineStarts.reserveCapacity(index.lineStarts.count + halves.second.lineStarts.count - 1)
    let shift = UInt32(truncatingIfNeeded: middle)
    for start in halves.second.lineStarts.dropFirst() { index.lineStarts.append(start &+ shift) }
    index.byteCount = bytes.count
    index.endsWithCR = halves.second.endsWithCR
    return index
  }

  /// The two halves' indexes, each filled by one thread and read after both ended.
  private final class Halves: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    var first = LineIndex()
    var second = LineIndex()
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
  }

  /// Indexes the next chunk of the text, lent as a view.
  @inlinable
  public mutating func append(_ chunk: ByteView) { append(chunk.unsafeBuffer) }

  /// Indexes the next chunk of the text.
  public mutating func append(_ chunk: UnsafeBufferPointer<UInt8>) {
    guard chunk.baseAddress != nil, chunk.count > 0 else { return }
    var from = 0
    if endsWithCR && chunk[0] == 0x0A {
      // The `\r` that ended the last chunk opened a line here; with this `\n` they end one.
      lineStarts[lineStarts.count - 1] = UInt32(truncatingIfNeeded: byteCount + 1)
      from = 1
    }
    Self.lineStarts(in: chunk, ends: from..<chunk.count, at: byteCount, into: &lineStarts)
    endsWithCR = chunk[chunk.count - 1] == 0x0D
    byteCount += chunk.count
  }

  /// Appends to `starts`, shifted by `shift`, the start of the line after
  /// each line end whose last byte is in `ends` of `text`: after a `\n`, and
  /// after a `\r` that no `\n` follows in `text`. Lines of LF only are found
  /// with `memchr` alone; a text with a `\r` looks for both.
  private static func lineStarts(
    in text: UnsafeBufferPointer<UInt8>, ends: Range<Int>, at shift: Int, into starts: inout [UInt32]
  ) {
    guard let base = text.baseAddress, !ends.isEmpty else { return }
    func next(_ byte: UInt8, from index: Int) -> Int {
      guard index < ends.upperBound, let hit = memchr(base + index, Int32(byte), ends.upperBound - index)
      else { return ends.upperBound }
      return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
    var lf = next(0x0A, from: ends.lowerBound)
    var cr = next(0x0D, from: ends.lowerBound)
    while lf < ends.upperBound || cr < ends.upperBound {
      if lf < cr {
        starts.append(UInt32(truncatingIfNeeded: shift + lf + 1))
        lf = next(0x0A, from: lf + 1)
      } else {
        // A `\r` right before a `\n` is part of its line end; a lone one is a line end.
        if cr + 1 >= text.count || base[cr + 1] != 0x0A {
          starts.append(UInt32(truncatingIfNeeded: shift + cr + 1))
        }
        cr = next(0x0D, from: cr + 1)
      }
    }
  }

  /// Indexes `text`, the text after the bytes `range` were replaced by
  /// `insertedCount` bytes (now at `range.start` of `text`): the line starts
  /// those bytes and their two neighbours decide give way to those of the
  /// new bytes (a `\r` and a `\n` on either side of the edit may have met or
  /// parted), and those after move by the change in length. Time
  /// proportional to the change plus one shift of the later line starts.
  public mutating func replace(
    _ range: TextRange, insertedCount: Int, in text: UnsafeBufferPointer<UInt8>
  ) {
    let start = max(0, min(range.start, byteCount))
    let end = max(start, min(range.end, byteCount))
    let delta = insertedCount - (end - start)
    // A line start at p depends on the bytes at p - 1 and p: the old ones in
    // max(start, 1)...end change, and the new ones in max(start, 1)...start + insertedCount.
    let lowest = UInt32(truncatingIfNeeded: max(start, 1))
    let highest = UInt32(truncatingIfNeeded: end)
    let first = firstStart(atLeast: lowest)
    var after = first
    while after < lineStarts.count && lineStarts[after] <= highest { after += 1 }
    var inserted: [UInt32] = []
    let newEnd = min(start + insertedCount, text.count)
    Self.lineStarts(in: text, ends: max(start - 1, 0)..<newEnd, at: 0, into: &inserted)
    lineStarts.replaceSubrange(first..<after, with: inserted)
    if delta != 0 {
      let shift = UInt32(truncatingIfNeeded: delta)
      lineStarts.withUnsafeMutableBufferPointer { starts in
        for index in (first + inserted.count)..<starts.count { starts[index] &+= shift }
      }
    }
    byteCount += delta
    endsWithCR = text.last == 0x0D
  }

  /// The index of the first line start at `offset` or after it.
  private func firstStart(atLeast offset: UInt32) -> Int {
    Partition.point(lineStarts.count) { lineStarts[$0] < offset }
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

  /// The offset where `line` ends, before its `\n`, `\r\n` or `\r`.
  public func contentEnd(ofLine line: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var end = line + 1 < lineStarts.count ? Int(lineStarts[line + 1]) - 1 : byteCount
    if end > start(ofLine: line), end - 1 < bytes.count, bytes[end - 1] == 0x0D { end -= 1 }
    return max(end, start(ofLine: line))
  }
}
