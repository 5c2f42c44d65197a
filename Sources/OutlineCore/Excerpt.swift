/// Short, escaped quotations of text read from files, for messages.
///
/// A message may quote a value, a path or a key it read, but never more than
/// ``limit`` characters of it, and never a control character as such: a
/// hostile file cannot fill a terminal or forge a `path:line:col` line.
public enum Excerpt {
  /// The most characters of the original quoted (before escaping).
  public static let limit = 60

  /// `text` between single quotes, control characters escaped (`\n`, `\t`,
  /// `\u{1B}`), cut after `limit` characters with `...`.
  public static func quoted(_ text: some StringProtocol, limit: Int = limit) -> String {
    "'" + escaped(text, limit: limit) + "'"
  }

  /// `text` with control characters escaped, cut after `limit` characters with `...`.
  public static func escaped(_ text: some StringProtocol, limit: Int = limit) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count == limit {
        result += "..."
        break
      }
      count += 1
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\\": result += "\\\\"
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
          || scalar.value == 0x2029
        {
          result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
