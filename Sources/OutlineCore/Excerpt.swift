/// Short, escaped quotations of text read from files, for messages.
///
/// A message may quote a value, a path or a key it read, but never more than
/// ``limit`` characters of it, and never a control character as such: a
/// hostile file cannot fill a terminal or forge a `path:line:col` line.
public enum Excerpt {
  /// The most characters of the original quoted (before escaping).
  public static let limit = 60

  /// The most characters of a path quoted: paths are quoted whole up to this.
  public static let pathLimit = 1024

  /// `text` between single quotes, control characters escaped (`\n`, `\t`,
  /// `\u{1B}`), cut after `limit` characters with `...`.
  public static func quoted(_ text: some StringProtocol, limit: Int = limit) -> String {
    "'" + escaped(text, limit: limit) + "'"
  }

  /// A path between single quotes as ``quoted(_:limit:)`` writes it, cut only after
  /// ``pathLimit`` characters.
  public static func quotedPath(_ path: some StringProtocol) -> String {
    quoted(path, limit: pathLimit)
  }

  /// `text` cut after `limit` characters with `...`, not escaped: for text the
  /// caller quotes in a syntax of its own (a key in a JSON path, as a JSON string).
  public static func truncated(_ text: some StringProtocol, limit: Int = limit) -> String {
    var scalars = text.unicodeScalars.makeIterator()
    var result = String.UnicodeScalarView()
    for _ in 0..<max(0, limit) {
      guard let scalar = scalars.next() else { return String(result) }
      result.append(scalar)
    }
    return scalars.next() == nil ? String(result) : String(result) + "..."
  }

  /// `text` (a message written by another program, libxml2's, that quotes names and values
  /// whole) with every run of more than `limit` characters between spaces and quotes cut
  /// after `limit` with `...`: `Entity 'zzz...' not defined`.
  public static func shorteningWords(_ text: String, limit: Int = limit) -> String {
    var result = String.UnicodeScalarView()
    var run = 0
    var cut = false
    for scalar in text.unicodeScalars {
      if scalar == " " || scalar == "'" || scalar == "\"" {
        run = 0
        cut = false
        result.append(scalar)
        continue
      }
      if cut { continue }
      if run == limit {
        result.append(contentsOf: "...".unicodeScalars)
        cut = true
        continue
      }
      run += 1
      result.append(scalar)
    }
    return String(result)
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
