/// Replace the bytes of ``range`` with ``newText``: the unit of every edit.
public struct TextEdit: Hashable, Sendable {
  /// The bytes replaced (an empty range inserts).
  public var range: TextRange
  /// The replacement.
  public var newText: String

  /// Creates an edit.
  public init(range: TextRange, newText: String) {
    self.range = range
    self.newText = newText
  }

  /// The edit replacing `range` of `bytes` with `replacement`, trimmed to the part that
  /// differs; nil when nothing does. Its edges never fall inside a UTF-8 sequence, nor between
  /// the `\r` and `\n` of a line end (a position there is one a client clamps to the line's
  /// end, which would lose or double the line break).
  public static func trimmed(_ range: TextRange, of bytes: [UInt8], to replacement: [UInt8]) -> TextEdit? {
    let start = range.start
    let end = range.end
    let length = end - start
    var prefix = 0
    while prefix < length && prefix < replacement.count && bytes[start + prefix] == replacement[prefix] {
      prefix += 1
    }
    if prefix == length && prefix == replacement.count { return nil }
    func splits(_ offset: Int, _ new: Int) -> Bool {
      (offset < bytes.count && bytes[offset] & 0xC0 == 0x80)
        || (new < replacement.count && replacement[new] & 0xC0 == 0x80)
        || (offset > 0 && offset < bytes.count && bytes[offset - 1] == 0x0D && bytes[offset] == 0x0A)
    }
    while prefix > 0 && splits(start + prefix, prefix) { prefix -= 1 }
    var suffix = 0
    while suffix < length - prefix && suffix < replacement.count - prefix
      && bytes[end - 1 - suffix] == replacement[replacement.count - 1 - suffix]
    {
      suffix += 1
    }
    while suffix > 0 && splits(end - suffix, replacement.count - suffix) { suffix -= 1 }
    return TextEdit(
      range: TextRange(start: start + prefix, end: end - suffix),
      newText: String(decoding: replacement[prefix..<(replacement.count - suffix)], as: UTF8.self))
  }

  /// Edits in order with those that touch (one ends where the next starts) made one: a client
  /// given an insertion and a replacement at one position may apply them in either order.
  public static func merged(_ edits: [TextEdit]) -> [TextEdit] {
    var result: [TextEdit] = []
    result.reserveCapacity(edits.count)
    for edit in edits.sorted(by: { $0.range < $1.range }) {
      if let last = result.last, last.range.end == edit.range.start {
        result[result.count - 1] = TextEdit(
          range: TextRange(start: last.range.start, end: edit.range.end), newText: last.newText + edit.newText
        )
      } else {
        result.append(edit)
      }
    }
    return result
  }

  /// Applies non-overlapping `edits` to `bytes`; fails on overlapping edits.
  public static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8]? {
    let sorted = edits.sorted { $0.range < $1.range }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var cursor = 0
    for edit in sorted {
      guard edit.range.start >= cursor, edit.range.end <= bytes.count else { return nil }
      result.append(contentsOf: bytes[cursor..<edit.range.start])
      result.append(contentsOf: edit.newText.utf8)
      cursor = edit.range.end
    }
    result.append(contentsOf: bytes[cursor...])
    return result
  }
}
