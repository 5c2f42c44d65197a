import OutlineCore

/// Values at and over the size rule's limit (OL107) as written, for the size tests in process
/// and through the binaries.
public enum OversizedValue {
  /// The limit on a value as written.
  public static let limit = SizeRule.maximumValueBytes

  /// Where libxml2 used to fail ("Huge input lookup").
  public static let fiftyMegabytes = 50_000_000

  /// Just over the limit always; ``fiftyMegabytes`` too with the scale tests.
  public static let sizesOverTheLimit = SlowTests.enabled ? [limit + 1, fiftyMegabytes] : [limit + 1]

  /// A value of exactly `bytes` bytes as written in XML: `a`s, then `&amp;`.
  public static func xml(_ bytes: Int) -> String { String(repeating: "a", count: bytes - 5) + "&amp;" }

  /// OPML with one outline whose `text` is `bytes` long (line 5, column 16).
  public static func opml(_ bytes: Int) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <opml version="2.0">
    <head><title>t</title></head>
    <body>
    <outline text="\(String(repeating: "a", count: bytes))"/>
    </body>
    </opml>

    """
  }
}
