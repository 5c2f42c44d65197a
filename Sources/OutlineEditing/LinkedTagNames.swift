import OutlineCore
import OutlineSyntax

/// Linked editing of an element's start and end tag names: typing in one renames the other.
public enum LinkedTagNames {
  /// The characters an XML name may hold, as a regular expression for the client.
  public static let wordPattern = "[^\\s<>/=\"'!?]+"

  /// The start and end tag names of the element whose name holds `offset`;
  /// nil when the offset is on no name or the element has no end tag.
  public static func ranges(at offset: Int, in tree: MarkupTree) -> [TextRange]? {
    guard let (index, _) = tree.elementNamed(at: offset), let endName = tree.elements[index].endName else {
      return nil
    }
    return [tree.elements[index].name, endName]
  }
}
