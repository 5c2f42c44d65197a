import OutlineCore

/// The quick fix of OL206: remove the value written for a derived attribute,
/// with the white space before it, so the tag reads as if it was never there.
enum RemoveAttributeFix {
  /// Codes whose diagnostic range is an attribute name this fix removes.
  static let codes: Set<String> = ["OL206"]

  /// The edit removing the attribute whose name starts at `nameStart`, or nil
  /// when the bytes there are not `name="value"` (or with single quotes).
  static func edit(removingAttributeAt nameStart: Int, in source: SourceText) -> TextEdit? {
    let bytes = source.bytes
    var at = nameStart
    while at < bytes.count, bytes[at] != UInt8(ascii: "=") {
      if isSpace(bytes[at]) || bytes[at] == UInt8(ascii: ">") { break }
      at += 1
    }
    while at < bytes.count, isSpace(bytes[at]) { at += 1 }
    guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { return nil }
    at += 1
    while at < bytes.count, isSpace(bytes[at]) { at += 1 }
    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
      return nil
    }
    let quote = bytes[at]
    at += 1
    while at < bytes.count, bytes[at] != quote { at += 1 }
    guard at < bytes.count else { return nil }
    var start = nameStart
    while start > 0, isSpace(bytes[start - 1]) { start -= 1 }
    return TextEdit(range: TextRange(start: start, end: at + 1), newText: "")
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
