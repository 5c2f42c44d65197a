/// Text whose lines can be fetched one at a time: a ``SourceText`` in memory,
/// or a file that was validated as it streamed by and is read back only at
/// the lines a diagnostic points to.
public protocol DocumentLines: Sendable {
  /// Where each line starts.
  var lines: LineIndex { get }
  /// The bytes of `line` (0-based) without its `\n` or `\r\n`.
  func lineBytes(_ line: Int) -> [UInt8]
  /// The bytes of `range` (clamped to the text), whatever lines they span.
  func bytes(in range: Range<Int>) -> [UInt8]
}

extension DocumentLines {
  /// The line and column of `utf8Offset`.
  public func linePosition(of utf8Offset: Int, unit: ColumnUnit) -> SourcePosition {
    let offset = max(0, min(utf8Offset, lines.byteCount))
    let line = lines.line(containing: offset)
    let lineStart = lines.start(ofLine: line)
    // Only the bytes before the offset are read, not the whole line.
    var window = ByteWindow(source: self)
    let within = min(offset, window.contentEnd(ofLine: line))
    let column = window.count(unit, from: lineStart, to: within)
    // An offset inside the line end counts past the line's last character.
    return SourcePosition(line: line, column: column + (offset - within))
  }

  /// The text of `line` (0-based), invalid UTF-8 repaired.
  public func lineText(_ line: Int) -> String { String(decoding: lineBytes(line), as: UTF8.self) }
}

extension SourceText: DocumentLines {
  public func lineBytes(_ line: Int) -> [UInt8] {
    guard line >= 0, line < lines.lineCount else { return [] }
    return bytes.withUnsafeBufferPointer { buffer in
      Array(buffer[lines.start(ofLine: line)..<lines.contentEnd(ofLine: line, in: buffer)])
    }
  }

  public func bytes(in range: Range<Int>) -> [UInt8] {
    let clamped = clamp(TextRange(start: range.lowerBound, end: range.upperBound))
    return Array(bytes[clamped.start..<clamped.end])
  }
}
