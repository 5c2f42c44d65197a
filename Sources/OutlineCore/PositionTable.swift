/// Lines and columns of many offsets in one document, found in one forward pass.
///
/// A report prints a position for every diagnostic, its end and its related
/// places. Counting each column from its line's start costs the length of the
/// line every time: quadratic on a document written on one line. Here the
/// offsets are sorted once and the text is read forward once, each column
/// counted on from the one before it, so the whole table costs the bytes up to
/// the last offset plus the sort.
public struct PositionTable: Sendable {
  /// The offsets asked for, clamped to the text, sorted, without repeats.
  private let offsets: [Int]
  /// The position of each of `offsets`.
  private let positions: [SourcePosition]
  /// The text, for offsets that were not asked for.
  private let source: any DocumentLines
  /// The unit the columns count.
  private let unit: ColumnUnit

  /// Computes the positions of `offsets` in `source`.
  public init(offsets: [Int], in source: any DocumentLines, unit: ColumnUnit) {
    self.source = source
    self.unit = unit
    // No offsets, no lines asked for: a file's lines may be indexed only when first needed.
    if offsets.isEmpty {
      self.offsets = []
      positions = []
      return
    }
    let lines = source.lines
    var sorted = offsets.map { max(0, min($0, lines.byteCount)) }
    sorted.sort()
    var unique: [Int] = []
    unique.reserveCapacity(sorted.count)
    for offset in sorted where unique.last != offset { unique.append(offset) }
    var positions: [SourcePosition] = []
    positions.reserveCapacity(unique.count)
    var window = ByteWindow(source: source)
    var line = -1
    var contentEnd = 0
    var counted = 0  // the offset up to which `column` has counted
    var column = 0
    for offset in unique {
      let found = lines.line(containing: offset, notBefore: max(line, 0))
      if found != line {
        line = found
        counted = lines.start(ofLine: line)
        column = 0
        contentEnd = window.contentEnd(ofLine: line)
      }
      let target = min(offset, contentEnd)
      if target > counted {
        column += window.count(unit, from: counted, to: target)
        counted = target
      }
      // An offset inside the line end counts past the line's last character.
      positions.append(SourcePosition(line: line, column: column + max(0, offset - target)))
    }
    self.offsets = unique
    self.positions = positions
  }

  /// The position of `utf8Offset`; an offset that was not asked for is computed on its own.
  public func position(of utf8Offset: Int) -> SourcePosition {
    let offset = max(0, min(utf8Offset, source.lines.byteCount))
    let low = Partition.point(offsets.count) { offsets[$0] < offset }
    if low < offsets.count, offsets[low] == offset { return positions[low] }
    return source.linePosition(of: offset, unit: unit)
  }
}

/// Reads a document's bytes forward through a window of 64 KiB, so a pass
/// that moves forward reads each byte about once, however the text is stored.
public struct ByteWindow {
  /// How many bytes a refill asks for.
  static let size = 1 << 16
  /// The text.
  public let source: any DocumentLines
  /// The offset of `bytes[0]`.
  private var start = 0
  /// The bytes in the window.
  private var bytes: [UInt8] = []

  /// A window on `source`, empty until the first read.
  public init(source: any DocumentLines) {
    self.source = source
  }

  /// Makes sure the window holds `offset`; false past the end of the text.
  private mutating func load(_ offset: Int) -> Bool {
    if offset >= start && offset < start + bytes.count { return true }
    let end = min(source.lines.byteCount, offset + Self.size)
    guard offset < end else { return false }
    bytes = source.bytes(in: offset..<end)
    start = offset
    return !bytes.isEmpty
  }

  /// Calls `body` with the bytes `from..<to`, in one or more consecutive pieces.
  public mutating func forEachPiece(from: Int, to: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    var at = from
    while at < to, load(at) {
      let end = min(to, start + bytes.count)
      bytes.withUnsafeBufferPointer { buffer in
        body(UnsafeBufferPointer(rebasing: buffer[(at - start)..<(end - start)]))
      }
      at = end
    }
  }

  /// How many `unit`s the bytes `from..<to` hold.
  public mutating func count(_ unit: ColumnUnit, from: Int, to: Int) -> Int {
    if unit == .utf8 { return max(0, to - from) }
    var total = 0
    forEachPiece(from: from, to: to) { piece in
      total += ColumnCounter.count(unit: unit, in: piece, from: 0, to: piece.count)
    }
    return total
  }

  /// The byte at `offset`, read on its own when the window does not hold it.
  mutating func byte(at offset: Int) -> UInt8? {
    if offset >= start && offset < start + bytes.count { return bytes[offset - start] }
    guard offset >= 0, offset < source.lines.byteCount else { return nil }
    return source.bytes(in: offset..<(offset + 1)).first
  }

  /// Where `line`'s content ends, before its `\n` or `\r\n` (as ``LineIndex/contentEnd(ofLine:in:)``).
  public mutating func contentEnd(ofLine line: Int) -> Int {
    let lines = source.lines
    let lineStart = lines.start(ofLine: line)
    var end = line + 1 < lines.lineCount ? lines.start(ofLine: line + 1) - 1 : lines.byteCount
    if end > lineStart, byte(at: end - 1) == 0x0D { end -= 1 }
    return max(end, lineStart)
  }
}
