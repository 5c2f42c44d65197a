/// The shape of a JSON text, read without decoding it (a reply nested 100,000 deep is measured,
/// not built): how deep its arrays and objects nest, and its longest string.
public struct JSONShape: Equatable, CustomStringConvertible {
  /// The deepest nesting of arrays and objects (a top-level `[]` is 1).
  public var depth = 0
  /// The most characters of one string, keys included (an escape is one character; a
  /// character outside the Basic Multilingual Plane written as two `\u` escapes is two).
  public var longestString = 0

  public var description: String { "depth \(depth), longest string \(longestString)" }

  /// The shape of the JSON text `bytes`.
  public init(_ bytes: some Sequence<UInt8>) {
    var open = 0
    var inString = false
    var escaped = false
    var length = 0
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
          // `\uXXXX` counts once, at its backslash: its four digits are ASCII and counted below.
          if byte == UInt8(ascii: "u") { length -= 4 }
          length += 1
          continue
        }
        switch byte {
        case UInt8(ascii: "\\"): escaped = true
        case UInt8(ascii: "\""):
          inString = false
          longestString = max(longestString, length)
        default:
          // A character is counted at its first byte.
          if byte & 0xC0 != 0x80 { length += 1 }
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        length = 0
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        open += 1
        depth = max(depth, open)
      case UInt8(ascii: "]"), UInt8(ascii: "}"): open -= 1
      default: break
      }
    }
  }
}
