import OutlineCore
import OutlineModel
import OutlineXML

/// Renames an attribute or relationship in a model file, the way Xcode's
/// model editor and Core Data's lightweight migration expect it: the new name,
/// a `renamingIdentifier` naming the old one (unless there is one already,
/// which stays the canonical name), and the references to it renamed too: the
/// inverse's `inverseName`, uniqueness constraints, fetch and compound indexes and the
/// `outline.order` and `outline.title` annotations, in the entity and every entity that
/// inherits the property. An order or title attribute known by its name alone (`order`,
/// `title`, `name`) keeps its role under the new name through an annotation the rename adds.
public enum ModelRename {
  /// Why a rename cannot be made.
  public struct Refusal: Error, CustomStringConvertible, Sendable {
    /// One line saying why.
    public let description: String
  }

  /// The edits on `model.source` that rename `entity`'s property `property` to `newName`.
  public static func edits(
    in model: Model, entity entityName: String, property: String, to newName: String
  ) throws(Refusal) -> [TextEdit] {
    guard let index = model.entity(named: entityName) else {
      throw Refusal(description: "the model has no entity \(Excerpt.quoted(entityName))")
    }
    let entity = model.entities[index]
    guard XMLName.isNCName(newName) else {
      throw Refusal(
        description: "\(Excerpt.quoted(newName)) cannot be a property name (it is not an XML name)")
    }
    let declaring: String
    let nameRange: TextRange
    let identifierRange: TextRange?
    var edits: [TextEdit] = []
    if let attribute = entity.attributeIndex[property].map({ entity.attributes[$0] }) {
      declaring = attribute.declaringEntity
      nameRange = attribute.nameRange
      identifierRange = attribute.ranges["renamingIdentifier"]
    } else if let relationship = entity.relationshipIndex[property].map({ entity.relationships[$0] }) {
      declaring = relationship.declaringEntity
      nameRange = relationship.nameRange
      identifierRange = relationship.ranges["renamingIdentifier"]
      if let destination = relationship.destination, let inverse = relationship.inverse {
        let other = model.entities[destination].relationships[inverse]
        if let range = other.ranges["inverseName"], other.inverseName == property {
          edits.append(TextEdit(range: range, newText: newName))
        }
      }
    } else {
      throw Refusal(
        description:
          "\(Excerpt.quoted(entityName)) has no attribute or relationship \(Excerpt.quoted(property))")
    }
    guard declaring == entityName else {
      throw Refusal(
        description:
          "\(Excerpt.quoted(property)) is inherited from \(Excerpt.quoted(declaring)); rename \(Excerpt.quoted(declaring + "." + property))"
      )
    }
    // The new name must be free in the entity and every entity that inherits from it.
    for (other, candidate) in model.entities.enumerated() where model.isKind(other, of: index) {
      if candidate.attributeIndex[newName] != nil || candidate.relationshipIndex[newName] != nil {
        throw Refusal(
          description:
            "\(Excerpt.quoted(candidate.name)) already has a property named \(Excerpt.quoted(newName))")
      }
    }
    edits.append(TextEdit(range: nameRange, newText: newName))
    if identifierRange == nil {
      edits.append(
        TextEdit(
          range: TextRange(at: nameRange.end + 1),
          newText: " renamingIdentifier=\"\(XMLEscaping.escapeAttribute(property))\""))
    }
    let isAttribute = entity.attributeIndex[property] != nil
    var renamed = Set<Int>()
    func rename(_ range: TextRange) {
      if renamed.insert(range.start).inserted { edits.append(TextEdit(range: range, newText: newName)) }
    }
    for (other, candidate) in model.entities.enumerated() where model.isKind(other, of: index) {
      for constraint in candidate.uniquenessConstraints where constraint.declaringEntity == candidate.name {
        for (member, range) in zip(constraint.names, constraint.ranges) where member == property {
          rename(range)
        }
      }
      for reference in candidate.indexReferences where reference.name == property { rename(reference.range) }
      guard isAttribute else { continue }
      var annotations: [String] = []
      for key in ["outline.order", "outline.title"] {
        if let entry = candidate.userInfo.first(where: { $0.key == key }) {
          if entry.value == property { rename(entry.valueRange) }
          continue
        }
        // Known by its name alone: the new name needs saying.
        let role = key == "outline.order" ? candidate.orderAttribute : candidate.titleAttribute
        if let role, candidate.attributes[role].name == property { annotations.append(key) }
      }
      if !annotations.isEmpty {
        edits.append(try annotate(candidate, with: annotations, naming: newName, in: model.source))
      }
    }
    return edits.sorted { $0.range.start < $1.range.start }
  }

  /// The edit that gives `entity` the userInfo entries `keys`, each naming `name`: into its
  /// `userInfo`, or a new one before its end tag, indented as the file is.
  private static func annotate(
    _ entity: Entity, with keys: [String], naming name: String, in source: SourceText
  )
    throws(Refusal) -> TextEdit
  {
    let bytes = source.bytes
    /// The white space the line holding `offset` starts with, when only white space precedes it.
    func indentation(before offset: Int) -> String? {
      var start = offset
      while start > 0 && (bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t")) {
        start -= 1
      }
      guard start == 0 || bytes[start - 1] == UInt8(ascii: "\n") || bytes[start - 1] == UInt8(ascii: "\r")
      else { return nil }
      return String(decoding: bytes[start..<offset], as: UTF8.self)
    }
    let entries = keys.map { "<entry key=\"\($0)\" value=\"\(XMLEscaping.escapeAttribute(name))\"/>" }
    if let end = entity.userInfoEndTagRange {
      guard let indent = indentation(before: end.start) else {
        return TextEdit(range: TextRange(at: end.start), newText: entries.joined())
      }
      return TextEdit(
        range: TextRange(at: end.start), newText: entries.map { "    \($0)\n\(indent)" }.joined())
    }
    guard let end = entity.endTagRange else {
      // `<entity .../>`, as Xcode writes an entity with no properties of its own: opened up, the
      // annotation inside, and closed, indented as the entity is.
      if let tag = entity.startTagRange, tag.length >= 2, bytes[tag.end - 2] == UInt8(ascii: "/"),
        bytes[tag.end - 1] == UInt8(ascii: ">"), let indent = indentation(before: tag.start)
      {
        var close = tag.end - 2
        while close > tag.start && XMLName.isSpace(bytes[close - 1]) { close -= 1 }
        let lines = ["    <userInfo>"] + entries.map { "        \($0)" } + ["    </userInfo>"]
        return TextEdit(
          range: TextRange(start: close, end: tag.end),
          newText: ">\n" + lines.map { "\(indent)\($0)\n" }.joined() + "\(indent)</entity>")
      }
      throw Refusal(
        description:
          "'\(entity.name)' is written as <entity .../>, so it cannot be given the userInfo entry that keeps '\(keys[0])' naming the renamed attribute; add \(keys.map { "\($0) = \(name)" }.joined(separator: " and ")) to it in Xcode"
      )
    }
    guard let indent = indentation(before: end.start) else {
      return TextEdit(range: TextRange(at: end.start), newText: "<userInfo>\(entries.joined())</userInfo>")
    }
    let lines = ["    <userInfo>"] + entries.map { "        \($0)" } + ["    </userInfo>"]
    return TextEdit(range: TextRange(at: end.start), newText: lines.map { "\($0)\n\(indent)" }.joined())
  }
}
