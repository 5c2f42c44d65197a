import Foundation

/// A document with problems on several lines, for the line-end tests in process and through the
/// binaries: the same problems must be found at the same lines and columns whichever line end
/// (`\n`, `\r\n`, a lone `\r`) it is written with.
public enum LineEndDocument {
  /// A duplicate order, text in an object across a line end, an unknown attribute after one;
  /// written with `\n`.
  public static let text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item title="a" order="0"/>
      <Item title="b" order="0">some
      text</Item>
      <Item title="c"
        colour="red" order="1"/>
    </outline>

    """

  /// ``text`` with every line ending with `ending`.
  public static func written(_ ending: String) -> String {
    text.replacingOccurrences(of: "\n", with: ending)
  }
}
