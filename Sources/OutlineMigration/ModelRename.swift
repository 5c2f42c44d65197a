import OutlineCore
import OutlineModel
import OutlineXML

/// Renames an attribute or relationship in a model file, the way Xcode's
/// model editor and Core Data's lightweight migration expect it: the new name,
/// a `renamingIdentifier` naming the old one (unless there is one already,
/// which stays the canonical name), and the references to it (the inverse's
/// `inverseName`, uniqueness constraints) renamed too.
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
    for constraint in entity.uniquenessConstraints where constraint.declaringEntity == entityName {
      for (member, range) in zip(constraint.names, constraint.ranges) where member == property {
        edits.append(TextEdit(range: range, newText: newName))
      }
    }
    return edits.sorted { $0.range.start < $1.range.start }
  }
}
