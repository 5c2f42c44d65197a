/// Line ends as XML normalizes them and the Language Server Protocol counts
/// them: `\n`, `\r\n`, or a `\r` alone. ``LineIndex`` finds lines by them;
/// what edits text line by line asks here.
public enum LineEnds {
  /// Whether a line starts at `offset` of `bytes`: at the text's start, or
  /// right after a line end (not between the two bytes of a `\r\n`).
  public static func startsLine(_ bytes: [UInt8], at offset: Int) -> Bool {
    guard offset > 0 else { return true }
    guard offset <= bytes.count else { return false }
    switch bytes[offset - 1] {
    case 0x0A: return true
    case 0x0D: return offset == bytes.count || bytes[offset] != 0x0A
    default: return false
    }
  }

  /// The length of the line end at `offset` of `bytes`: 2 for `\r\n`, 1 for
  /// `\n` or a lone `\r`, 0 where none starts.
  public static func length(_ bytes: [UInt8], at offset: Int) -> Int {
    guard offset >= 0, offset < bytes.count else { return 0 }
    switch bytes[offset] {
    case 0x0A: return 1
    case 0x0D: return offset + 1 < bytes.count && bytes[offset + 1] == 0x0A ? 2 : 1
    default: return 0
    }
  }

  /// The document's line end: the one its first line ends with; `\n` for a text of one line.
  public static func first(in bytes: [UInt8]) -> [UInt8] {
    guard let index = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return [0x0A] }
    switch length(bytes, at: index) {
    case 2: return [0x0D, 0x0A]
    default: return [bytes[index]]
    }
  }

  /// `text`, whose lines end with `\n`, with each `\n` written as `ending`; a `\n` that is the
  /// end of a `\r\n` already stays as it is, so converting twice changes nothing.
  public static func converting(_ text: [UInt8], to ending: [UInt8]) -> [UInt8] {
    if ending == [0x0A] { return text }
    var out: [UInt8] = []
    out.reserveCapacity(text.count + text.count / 16)
    var previous: UInt8 = 0
    for byte in text {
      if byte == 0x0A && previous != 0x0D { out.append(contentsOf: ending) } else { out.append(byte) }
      previous = byte
    }
    return out
  }

  /// `bytes` with every line end (`\r\n`, a lone `\r`, `\n`) written as `ending`: what XML
  /// reads a comment's or processing instruction's line ends as (`\n`, XML 1.0 §2.11), written
  /// back in a document's own line end.
  public static func normalized(_ bytes: some Collection<UInt8>, to ending: [UInt8] = [0x0A]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var previous: UInt8 = 0
    for byte in bytes {
      if byte == 0x0D {
        out.append(contentsOf: ending)
      } else if byte == 0x0A {
        if previous != 0x0D { out.append(contentsOf: ending) }
      } else {
        out.append(byte)
      }
      previous = byte
    }
    return out
  }

  /// The ranges of the lines of `bytes`, each with its line end.
  public static func lines(_ bytes: [UInt8]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    var index = 0
    while index < bytes.count {
      let end = length(bytes, at: index)
      if end > 0 {
        lines.append(start..<(index + end))
        index += end
        start = index
      } else {
        index += 1
      }
    }
    lines.append(start..<bytes.count)
    return lines
  }
}
