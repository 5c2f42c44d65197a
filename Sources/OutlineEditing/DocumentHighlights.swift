import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// Document highlight: the matching start and end tag names, or every use of an id.
public enum DocumentHighlights {
  /// One range to highlight.
  public struct Highlight: Sendable, Equatable {
    /// What the range is.
    public enum Kind: Sendable, Equatable {
      /// A tag name or another plain mention.
      case text
      /// A reference that reads the id.
      case read
      /// The `xml:id` that defines it.
      case write
    }

    /// The bytes.
    public var range: TextRange
    /// What they are.
    public var kind: Kind
  }

  /// The highlights for `offset`: both names of the element whose tag name
  /// holds it; or, on an `xml:id` value or an id in a relationship
  /// attribute, its definition (every one of an id defined more than once)
  /// and every reference to it (ids need `references`).
  public static func highlights(at offset: Int, markup: MarkupTree, references: ReferenceIndex?)
    -> [Highlight]
  {
    if let (index, _) = markup.elementNamed(at: offset) {
      let element = markup.elements[index]
      return [Highlight(range: element.name, kind: .text)]
        + (element.endName.map { [Highlight(range: $0, kind: .text)] } ?? [])
    }
    guard let references, let id = id(at: offset, references) else { return [] }
    var result: [Highlight] = []
    for definition in references.definitions(of: id) {
      result.append(Highlight(range: definition.range, kind: .write))
    }
    for reference in references.references {
      for target in reference.targets where target.id == id {
        result.append(Highlight(range: target.range, kind: .read))
      }
    }
    return result.sorted { $0.range < $1.range }
  }

  /// The id whose definition or reference holds `offset` (ends included).
  static func id(at offset: Int, _ references: ReferenceIndex) -> String? {
    for (id, definition) in references.definitions
    where offset >= definition.range.start && offset <= definition.range.end {
      return id
    }
    for (id, definitions) in references.duplicates {
      for definition in definitions where offset >= definition.range.start && offset <= definition.range.end {
        return id
      }
    }
    for reference in references.references
    where offset >= reference.value.start && offset <= reference.value.end {
      for target in reference.targets where offset >= target.range.start && offset <= target.range.end {
        return target.id
      }
    }
    return nil
  }
}
