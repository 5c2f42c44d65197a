import Foundation

/// Values no XML writer may change: tab, line feed, carriage return, a `\r\n` pair, `]]>`, markup
/// characters, quotes, non-ASCII. The OPML round-trip tests share them, in process and through
/// the binaries.
public enum OPMLEveryValue {
  public static let values = [
    "tab\there", "line\nfeed", "carriage\rreturn", "crlf\r\npair", "\r\n\r\n", "trailing\r", "]]> and ]]",
    "<tag> & \"double\" 'single'", "café 中 🚆", "  spaced  ", "\t\n\r\r\n ]]> < > & \" ' é",
  ]

  /// `value` escaped for an attribute by hand (not by the code under test).
  public static func attribute(_ value: String) -> String {
    value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\t", with: "&#9;")
      .replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\r", with: "&#13;")
  }

  /// `value` escaped for text by hand.
  public static func text(_ value: String) -> String {
    value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\r", with: "&#13;")
  }

  /// An OPML file holding every value as a head field, an `<opml>` and `<body>` attribute and an
  /// `<outline>` attribute.
  public static let opml: String = {
    let indexed = values.enumerated()
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="2.0"\(indexed.map { " o\($0)=\"\(attribute($1))\"" }.joined())>
        <head><title>\(text(values.last!))</title>\(indexed.map { "<h\($0)>\(text($1))</h\($0)>" }.joined())</head>
        <body\(indexed.map { " b\($0)=\"\(attribute($1))\"" }.joined())>
          \(indexed.map { "<outline text=\"\(attribute($1))\" n\($0)=\"\(attribute($1))\"/>" }.joined(separator: "\n    "))
        </body>
      </opml>

      """
  }()
}
