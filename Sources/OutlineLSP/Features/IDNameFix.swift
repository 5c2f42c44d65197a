import OutlineCore
import OutlineEditing
import OutlineValidation
import OutlineXML

/// The quick fix for OL510: rename an id that is not an XML name to one
/// derived from it, at its `xml:id` and at every reference to it.
enum IDNameFix {
  /// The new name and the edits for the id written at `range` (its `xml:id`
  /// or a reference to it); nil when no object or several define it, or no name can be derived.
  static func fix(at range: TextRange, ids: ReferenceIndex, source: SourceText) -> (
    name: String, edits: [TextEdit]
  )? {
    let id = source.string(in: range)
    // An id defined more than once is ambiguous: renaming one would leave the references to the other.
    guard let definition = ids.definitions[id], ids.duplicates[id] == nil else { return nil }
    let taken = Set(ids.definitions.keys)
    guard let name = IDNames.derive(from: XMLEscaping.decodeAttribute(Array(id.utf8)), taken: taken) else {
      return nil
    }
    var ranges = ids.uses[id] ?? []
    ranges.append(definition.range)
    return (name, ranges.sorted().map { TextEdit(range: $0, newText: name) })
  }
}
