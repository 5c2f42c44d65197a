/// A 0-based line and column; the column's unit is chosen at the edge.
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The 0-based line.
  public var line: Int
  /// The 0-based column, in the unit it was computed in.
  public var column: Int

  /// Creates a position.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }

  public var description: String { "\(line + 1):\(column + 1)" }
}

/// What a column counts: LSP speaks UTF-16 or UTF-8, the command line counts characters.
public enum ColumnUnit: Sendable {
  /// UTF-8 bytes.
  case utf8
  /// UTF-16 code units (an astral character counts 2).
  case utf16
  /// Unicode scalars (what a person counts as characters in `path:line:col`).
  case scalar
}

/// The bytes of one document and their line index.
///
/// The bytes are kept exactly as read: no BOM stripped, no line endings
/// normalized, so every range in the toolchain is a range of the file.
public struct SourceText: Sendable, Equatable {
  /// The document's bytes.
  public private(set) var bytes: [UInt8]
  /// Where each line starts.
  public private(set) var lines: LineIndex
  /// Column counts along long lines, so a column is found without counting from the line's start.
  private var longLines: LongLineColumns

  /// Wraps `bytes` and indexes their lines.
  public init(bytes: [UInt8]) {
    self.bytes = bytes
    let lines = LineIndex(bytes)
    self.lines = lines
    self.longLines = bytes.withUnsafeBufferPointer { LongLineColumns(bytes: $0, lines: lines) }
  }

  /// Replaces the bytes of `range` (clamped to the text) with `replacement`
  /// in place: when the bytes are not shared, one move of the bytes after
  /// the range (amortized, as an array grows) and one shift of the later line
  /// starts; the long lines' columns are counted again only when lines come
  /// or go or the edited line is or becomes long.
  public mutating func replace(_ range: TextRange, with replacement: [UInt8]) {
    let range = clamp(range)
    let firstLine = lines.line(containing: range.start)
    let lastLine = lines.line(containing: range.end, notBefore: firstLine)
    let oldLength = lines.start(ofLine: lastLine + 1) - lines.start(ofLine: firstLine)
    let oldLineCount = lines.lineCount
    bytes.replaceSubrange(range.start..<range.end, with: replacement)
    bytes.withUnsafeBufferPointer { self.lines.replace(range, insertedCount: replacement.count, in: $0) }
    let newLength = oldLength + replacement.count - (range.end - range.start)
    let short = LongLineColumns.stride
    guard firstLine != lastLine || lines.lineCount != oldLineCount || oldLength > short || newLength > short
    else { return }
    let index = lines
    longLines = bytes.withUnsafeBufferPointer { LongLineColumns(bytes: $0, lines: index) }
  }

  /// Wraps the UTF-8 of `string`.
  public init(_ string: String) {
    self.init(bytes: Array(string.utf8))
  }

  /// The text as a Swift string (invalid UTF-8 repaired with U+FFFD).
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  /// The bytes of `range`, decoded as UTF-8.
  public func string(in range: TextRange) -> String {
    let clamped = clamp(range)
    return String(decoding: bytes[clamped.start..<clamped.end], as: UTF8.self)
  }

  /// `range` limited to the text.
  public func clamp(_ range: TextRange) -> TextRange {
    let start = max(0, min(range.start, bytes.count))
    return TextRange(start: start, end: max(start, min(range.end, bytes.count)))
  }

  /// The line and column of `utf8Offset`; on a long line the column is
  /// counted from the nearest checkpoint, not from the line's start.
  public func position(of utf8Offset: Int, unit: ColumnUnit) -> SourcePosition {
    bytes.withUnsafeBufferPointer { buffer in position(of: utf8Offset, unit: unit, in: buffer, lineHint: 0) }
  }

  private func position(
    of utf8Offset: Int, unit: ColumnUnit, in buffer: UnsafeBufferPointer<UInt8>, lineHint: Int
  )
    -> SourcePosition
  {
    let offset = max(0, min(utf8Offset, buffer.count))
    let line = lines.line(containing: offset, notBefore: lineHint)
    let column = longLines.column(
      of: offset, onLine: line, startingAt: lines.start(ofLine: line), unit: unit, in: buffer)
    return SourcePosition(line: line, column: column)
  }

  /// The offset of `position`, clamped to the end of its line and to the text.
  public func offset(of position: SourcePosition, unit: ColumnUnit) -> Int {
    if position.line >= lines.lineCount { return bytes.count }
    return bytes.withUnsafeBufferPointer { buffer in
      let lineStart = lines.start(ofLine: position.line)
      let lineEnd = lines.contentEnd(ofLine: position.line, in: buffer)
      return ColumnCounter.offset(
        advancing: max(0, position.column), unit: unit, in: buffer, from: lineStart, limit: lineEnd)
    }
  }

  /// The positions of `range`'s ends; the end's line is found from the
  /// start's when they share it (most ranges do), without a second search.
  /// `lineHint` is a line the start is known to be on or after.
  public func positions(of range: TextRange, unit: ColumnUnit, lineHint: Int = 0)
    -> (start: SourcePosition, end: SourcePosition)
  {
    bytes.withUnsafeBufferPointer { buffer in
      let startOffset = max(0, min(range.start, buffer.count))
      let start = position(of: startOffset, unit: unit, in: buffer, lineHint: lineHint)
      let end = max(0, min(range.end, buffer.count))
      // Counting on from the start only when the end is near: the range of
      // an item in a chain written on one line spans the rest of the line.
      guard end >= startOffset, end - startOffset <= LongLineColumns.stride,
        end < lines.start(ofLine: start.line + 1) || start.line + 1 >= lines.lineCount
      else { return (start, position(of: end, unit: unit, in: buffer, lineHint: start.line)) }
      let column = start.column + ColumnCounter.count(unit: unit, in: buffer, from: startOffset, to: end)
      return (start, SourcePosition(line: start.line, column: column))
    }
  }

  /// The line and column of `utf8Offset` in `bytes` indexed by `lines`;
  /// `lineHint` is a line the offset is known to be on or after.
  public static func position(
    of utf8Offset: Int, unit: ColumnUnit, lines: LineIndex, bytes: UnsafeBufferPointer<UInt8>,
    lineHint: Int = 0
  ) -> SourcePosition {
    let offset = max(0, min(utf8Offset, bytes.count))
    let line = lines.line(containing: offset, notBefore: lineHint)
    let lineStart = lines.start(ofLine: line)
    let column = ColumnCounter.count(unit: unit, in: bytes, from: lineStart, to: offset)
    return SourcePosition(line: line, column: column)
  }
}

extension SourceText {
  /// ``position(of:unit:lines:bytes:lineHint:)`` in bytes lent as a view.
  @inlinable
  public static func position(
    of utf8Offset: Int, unit: ColumnUnit, lines: LineIndex, bytes: ByteView, lineHint: Int = 0
  ) -> SourcePosition {
    position(of: utf8Offset, unit: unit, lines: lines, bytes: bytes.unsafeBuffer, lineHint: lineHint)
  }
}

extension ColumnCounter {
  /// ``count(unit:in:from:to:)`` in bytes lent as a view; `from..<to` must lie inside it.
  @inlinable
  public static func count(unit: ColumnUnit, in bytes: ByteView, from: Int, to: Int) -> Int {
    precondition(from >= 0 && from <= to && to <= bytes.count, "range out of the view")
    return count(unit: unit, in: bytes.unsafeBuffer, from: from, to: to)
  }
}

/// Column counts at every ``stride`` bytes of each line longer than that: a
/// column on a long line (a document written on one line) is the count at the
/// checkpoint before it plus at most `stride` bytes counted, so finding many
/// positions costs time linear in their number, not in the line's length
/// times their number. Built in one pass over the long lines only, found in
/// one pass over the line starts.
struct LongLineColumns: Sendable, Equatable {
  /// Bytes between checkpoints.
  static let stride = 1024
  /// The index in `scalars` and `utf16` of each long line's first checkpoint.
  private var firstCheckpoint: [Int: Int] = [:]
  /// Scalars from the line's start to each checkpoint.
  private var scalars: [UInt32] = []
  /// UTF-16 code units from the line's start to each checkpoint.
  private var utf16: [UInt32] = []

  init(bytes: UnsafeBufferPointer<UInt8>, lines: LineIndex) {
    for line in lines.lines(longerThan: Self.stride) {
      let start = lines.start(ofLine: line)
      let end = lines.start(ofLine: line + 1)
      firstCheckpoint[line] = scalars.count
      var scalarCount = 0
      var utf16Count = 0
      var at = start
      while at + Self.stride <= end {
        scalarCount += ColumnCounter.count(unit: .scalar, in: bytes, from: at, to: at + Self.stride)
        utf16Count += ColumnCounter.count(unit: .utf16, in: bytes, from: at, to: at + Self.stride)
        scalars.append(UInt32(truncatingIfNeeded: scalarCount))
        utf16.append(UInt32(truncatingIfNeeded: utf16Count))
        at += Self.stride
      }
    }
  }

  /// The column of `offset` on `line`, which starts at `lineStart`.
  func column(
    of offset: Int, onLine line: Int, startingAt lineStart: Int, unit: ColumnUnit,
    in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int {
    let distance = offset - lineStart
    guard unit != .utf8, distance >= Self.stride, let first = firstCheckpoint[line] else {
      return ColumnCounter.count(unit: unit, in: bytes, from: lineStart, to: offset)
    }
    let passed = distance / Self.stride
    let counted = Int((unit == .utf16 ? utf16 : scalars)[first + passed - 1])
    return counted
      + ColumnCounter.count(unit: unit, in: bytes, from: lineStart + passed * Self.stride, to: offset)
  }
}

/// Counts columns over UTF-8 bytes without decoding into a String.
public enum ColumnCounter {
  /// How many `unit`s the bytes `from..<to` hold.
  public static func count(unit: ColumnUnit, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int)
    -> Int
  {
    if unit == .utf8 { return to - from }
    var columns = 0
    var index = from
    // Eight bytes at a time: every byte that is not a continuation byte
    // (10xxxxxx) starts a character; in UTF-16 a 4-byte lead (11110xxx) makes two units.
    if let base = bytes.baseAddress {
      while index + 8 <= to {
        let word = WordScan.load(base + index)
        let continuation = word & ~(word << 1) & WordScan.highs
        columns += 8 - continuation.nonzeroBitCount
        if unit == .utf16 {
          columns += (word & (word << 1) & (word << 2) & (word << 3) & WordScan.highs).nonzeroBitCount
        }
        index += 8
      }
    }
    while index < to {
      let byte = bytes[index]
      if byte & 0xC0 != 0x80 {
        columns += (unit == .utf16 && byte >= 0xF0) ? 2 : 1
      }
      index += 1
    }
    return columns
  }

  /// The offset reached by advancing `columns` `unit`s from `from`, not past `limit`; a column
  /// inside a character stands for the character's start (the second unit of a UTF-16
  /// surrogate pair, or a UTF-8 continuation byte), so an edit there never cuts a character.
  public static func offset(
    advancing columns: Int, unit: ColumnUnit, in bytes: UnsafeBufferPointer<UInt8>, from: Int,
    limit: Int
  ) -> Int {
    if unit == .utf8 {
      var index = min(from + columns, limit)
      // Back over at most the three continuation bytes a character can have.
      var back = 0
      while index > from && index < limit && back < 3 && bytes[index] & 0xC0 == 0x80 {
        index -= 1
        back += 1
      }
      return index
    }
    var remaining = columns
    var index = from
    while index < limit && remaining > 0 {
      let byte = bytes[index]
      let width: Int
      switch byte {
      case 0xF0...: width = 4
      case 0xE0...: width = 3
      case 0xC0...: width = 2
      default: width = 1
      }
      let units = (unit == .utf16 && width == 4) ? 2 : 1
      if units > remaining { break }
      remaining -= units
      index = min(index + width, limit)
    }
    return index
  }
}
