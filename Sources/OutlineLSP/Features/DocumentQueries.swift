import OutlineCore
import OutlineModel
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

  /// How messages and symbols name an item: its title, else its element name.
  func label(_ item: Int) -> String {
    guard let tree else { return "" }
    if let range = tree.items[item].titleRange {
      let title = XMLEscaping.decodeAttribute(Array(source.bytes[range.start..<range.end]))
      if !title.isEmpty { return title }
    }
    return item == 0 ? "the root" : source.string(in: tree.items[item].nameRange)
  }

  /// Every `xml:id` and every id reference, with ranges.
  func ids() -> (definitions: [String: (item: Int, range: TextRange)], references: [String: [TextRange]]) {
    var definitions: [String: (Int, TextRange)] = [:]
    var references: [String: [TextRange]] = [:]
    guard let tree, let model else { return ([:], [:]) }
    for (index, item) in tree.items.enumerated() {
      if let range = item.idRange {
        let id = source.string(in: range)
        if definitions[id] == nil { definitions[id] = (index, range) }
      }
      guard item.entity >= 0 else { continue }
      let entity = model.entities[Int(item.entity)]
      TagScanner.withStartTag(in: source.bytes, range: item.startTag) { tag in
        for attribute in 0..<tag.attributes.count {
          guard let relationship = entity.relationshipIndex[XMLName.string(tag.name(of: attribute))],
            !entity.relationships[relationship].isContainment
          else { continue }
          let value = tag.valueRange(of: attribute)
          var start = value.start
          while start < value.end {
            while start < value.end && XMLName.isSpace(source.bytes[start]) { start += 1 }
            var end = start
            while end < value.end && !XMLName.isSpace(source.bytes[end]) { end += 1 }
            if end > start {
              references[source.string(in: TextRange(start: start, end: end)), default: []].append(
                TextRange(start: start, end: end))
            }
            start = end
          }
        }
      }
    }
    return (definitions, references)
  }

  /// The id under `offset` (an `xml:id` value or an id in a relationship), with its range.
  func id(at offset: Int) -> (id: String, range: TextRange)? {
    guard let (item, hit) = startTag(at: offset), let hit, offset >= hit.valueRange.start,
      offset <= hit.valueRange.end, let tree, let model
    else { return nil }
    if hit.name == "xml:id" { return (hit.value, hit.valueRange) }
    let entityIndex = tree.items[item].entity
    guard entityIndex >= 0, model.entities[Int(entityIndex)].relationshipIndex[hit.name] != nil else {
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
