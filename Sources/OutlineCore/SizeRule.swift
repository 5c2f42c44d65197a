/// The size rule: the largest attribute value and node every face accepts.
///
/// An attribute value, a run of text (character data and CDATA sections
/// together), a comment or a processing instruction may take at most
/// ``maximumValueBytes`` bytes as written in the `.outline` file: UTF-8,
/// with its escapes (`&amp;` counts 5 bytes), without the value's quotes
/// and, for a comment or instruction, with its `<!--`/`-->` or `<?`/`?>`.
/// One more byte is OL107 at the value's range, in `lint`, `fmt`, `convert`
/// (both ways: a JSON string is measured as the XML it would be written as),
/// `import`, `export` and the language server alike.
public enum SizeRule {
  /// The largest value or node, in bytes as written: 16 MiB.
  public static let maximumValueBytes = 16 << 20

  /// How far past the rule the XML parser follows a single unfinished node
  /// before it stops reading the document (256 MiB), well below libxml2's
  /// own limit of 1 GB under `XML_PARSE_HUGE`.
  public static let parserHoldLimit = 256 << 20

  /// Whether `byteCount` bytes break the rule.
  @inlinable
  public static func exceeds(_ byteCount: Int) -> Bool { byteCount > maximumValueBytes }

  /// A byte count for messages: `16 MiB`, `256 MiB`, or the bytes when not whole MiB.
  public static func describe(_ byteCount: Int) -> String {
    byteCount % (1 << 20) == 0 ? "\(byteCount >> 20) MiB" : "\(byteCount) bytes"
  }

  /// The message of an OL107 for `what` (e.g. "The value of 'title'") of `byteCount` bytes.
  public static func message(_ what: String, byteCount: Int) -> String {
    "\(what) is \(byteCount) bytes, over the limit of \(describe(maximumValueBytes)) (\(maximumValueBytes) bytes)"
  }
}
