import OutlineCore
import OutlineEditing
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineWorkspace
import OutlineXML

/// What stands at an offset of a document, and the document's ids: the
/// queries hover, completion, navigation and code actions share.
struct DocumentQueries {
  let source: SourceText
  let analysis: DocumentCheck

  var tree: ItemTree? { analysis.tree }
  var model: Model? { analysis.model }

  /// An attribute of a start tag.
  struct AttributeHit {
    var name: String
    var nameRange: TextRange
    var valueRange: TextRange
    var value: String
  }

  /// The item whose start tag holds `offset`, and the attribute there, if any.
  func startTag(at offset: Int) -> (item: Int, attribute: AttributeHit?)? {
    guard let tree, let item = tree.item(at: offset), tree.items[item].startTag.contains(offset) else {
      return nil
    }
    let hit = TagScanner.withStartTag(in: source.bytes, range: tree.items[item].startTag) {
      tag -> AttributeHit? in
      for index in 0..<tag.attributes.count {
        let name = tag.nameRange(of: index)
        let value = tag.valueRange(of: index)
        if offset >= name.start && offset <= value.end {
          return AttributeHit(
            name: XMLName.string(tag.name(of: index)), nameRange: name, valueRange: value,
            value: tag.value(of: index))
        }
      }
      return nil
    }
    return (item, hit)
  }

  /// Whether attribute `name` of `item` is one of the root element's format attributes, which
  /// are no properties of the root's entity whatever their names (``RootFormat``).
  static func isFormatAttribute(_ name: String, of item: Int) -> Bool {
    item == 0 && RootFormat.isAttribute(name)
  }

  /// How messages and symbols name an item: its title, else its element name.
  func label(_ item: Int) -> String {
    guard let tree else { return "" }
    if let title = tree.title(of: item, in: source.bytes) {
      return Excerpt.escaped(title)
    }
    return item == 0 ? "the root" : Excerpt.escaped(source.string(in: tree.items[item].nameRange))
  }

  /// Every `xml:id` (all the definitions of an id defined more than once) and every id reference, with ranges.
  func ids() -> (index: ReferenceIndex?, references: [String: [TextRange]]) {
    guard let tree, let model else { return (nil, [:]) }
    let index = ReferenceIndex(tree: tree, source: source, model: model)
    return (index, index.uses)
  }

  /// The id under `offset` (an `xml:id` value or an id in a relationship), with its range.
  func id(at offset: Int) -> (id: String, range: TextRange)? {
    guard let (item, hit) = startTag(at: offset), let hit, offset >= hit.valueRange.start,
      offset <= hit.valueRange.end, let tree, let model
    else { return nil }
    if hit.name == "xml:id" { return (hit.value, hit.valueRange) }
    let entityIndex = tree.items[item].entity
    guard entityIndex >= 0, model.entities[Int(entityIndex)].relationshipIndex[hit.name] != nil,
      !Self.isFormatAttribute(hit.name, of: item)
    else {
      return nil
    }
    var start = offset
    while start > hit.valueRange.start && !XMLName.isSpace(source.bytes[start - 1]) { start -= 1 }
    var end = offset
    while end < hit.valueRange.end && !XMLName.isSpace(source.bytes[end]) { end += 1 }
    guard end > start else { return nil }
    let range = TextRange(start: start, end: end)
    return (source.string(in: range), range)
  }
}
