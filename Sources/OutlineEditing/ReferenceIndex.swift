import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// Every written relationship attribute of a document with the ids it names
/// and their ranges, and every `xml:id`: the one scan that navigation, rename
/// and deletion share.
public struct ReferenceIndex: Sendable {
  /// One written relationship attribute.
  public struct Reference: Sendable {
    /// The item that writes it.
    public var holder: Int
    /// The relationship's index in the holder's entity.
    public var relationship: Int
    /// The attribute value's range.
    public var value: TextRange
    /// The ids it names, with their ranges.
    public var targets: [(id: String, range: TextRange)]
  }

  /// The references in document order.
  public var references: [Reference] = []
  /// Each `xml:id` (the first definition of it) and its item and range.
  public var definitions: [String: (item: Int, range: TextRange)] = [:]
  /// The ids defined more than once (OL500), with every definition in document order.
  public var duplicates: [String: [(item: Int, range: TextRange)]] = [:]

  /// Scans the start tags of `tree`.
  public init(tree: ItemTree, source: SourceText, model: Model) {
    for (index, item) in tree.items.enumerated() {
      if let range = item.idRange {
        let id = source.string(in: range)
        if let first = definitions[id] {
          duplicates[id, default: [first]].append((index, range))
        } else {
          definitions[id] = (index, range)
        }
      }
      guard item.entity >= 0 else { continue }
      let entity = model.entities[Int(item.entity)]
      TagScanner.withStartTag(in: source.bytes, range: item.startTag) { tag in
        for attribute in 0..<tag.attributes.count {
          let name = XMLName.string(tag.name(of: attribute))
          guard !(index == 0 && RootFormat.isAttribute(name)),
            let relationship = entity.relationshipIndex[name],
            !entity.relationships[relationship].isContainment
          else { continue }
          let value = tag.valueRange(of: attribute)
          var targets: [(String, TextRange)] = []
          var start = value.start
          while start < value.end {
            while start < value.end && XMLName.isSpace(source.bytes[start]) { start += 1 }
            var end = start
            while end < value.end && !XMLName.isSpace(source.bytes[end]) { end += 1 }
            if end > start {
              let range = TextRange(start: start, end: end)
              targets.append((source.string(in: range), range))
            }
            start = end
          }
          references.append(
            Reference(holder: index, relationship: relationship, value: value, targets: targets))
        }
      }
    }
  }

  /// Every definition of `id`, in document order: one, or more for a duplicate, or none.
  public func definitions(of id: String) -> [(item: Int, range: TextRange)] {
    duplicates[id] ?? definitions[id].map { [$0] } ?? []
  }

  /// Why an edit that must know which object `id` names is refused (`doing` says what it is:
  /// "renaming it", "deleting"): `id` is defined more than once (OL500). Nil when it is not.
  public func duplicateRefusal(_ id: String, before doing: String) -> EditRefusal? {
    guard let count = duplicates[id]?.count else { return nil }
    return EditRefusal(
      reason:
        "The id \(Excerpt.quoted(id)) is defined \(count) times (OL500): give each object its own id before \(doing)"
    )
  }

  /// The ranges at which each id is named by a relationship.
  public var uses: [String: [TextRange]] {
    var result: [String: [TextRange]] = [:]
    for reference in references {
      for target in reference.targets { result[target.id, default: []].append(target.range) }
    }
    return result
  }
}
