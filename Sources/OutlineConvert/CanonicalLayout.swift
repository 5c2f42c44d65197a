/// The canonical XML layout shared by `fmt` and JSON -> XML.
public enum CanonicalLayout {
  /// Indentation stops growing at this depth, so a chain of 100,000 items
  /// formats in linear size (2 spaces a level would make it 10 GB).
  public static let maximumIndentDepth = 100

  /// The spaces before an element at `depth` (the root is 0): 2 a level, up to the cap.
  public static func indentWidth(depth: Int) -> Int { 2 * min(depth, maximumIndentDepth) }
}
