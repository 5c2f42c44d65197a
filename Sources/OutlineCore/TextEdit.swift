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
