import Foundation
import OutlineCore

/// Relationships: destinations, inverses and the kinds of entity they relate.
extension ModelResolver {
  mutating func resolveRelationships() {
    for entity in entities.indices {
      for index in entities[entity].relationships.indices {
        let relationship = entities[entity].relationships[index]
        guard let destinationName = relationship.destinationName else {
          if relationship.declaringEntity == entities[entity].name {
            report(
              .missingDestination,
              "Relationship \(Excerpt.quoted(relationship.declaringEntity + "." + relationship.name)) has no destinationEntity",
              at: relationship.nameRange)
          }
          continue
        }
        guard let destination = entityIndex[destinationName] else {
          if relationship.declaringEntity == entities[entity].name {
            report(
              .missingDestination,
              "destinationEntity \(Excerpt.quoted(destinationName)) of \(Excerpt.quoted(relationship.declaringEntity + "." + relationship.name)) is not an entity of the model",
              at: relationship.range(of: "destinationEntity"))
          }
          continue
        }
        entities[entity].relationships[index].destination = destination
      }
    }
    for entity in entities.indices {
      for index in entities[entity].relationships.indices {
        resolveInverse(entity: entity, index: index)
      }
    }
  }

  private mutating func resolveInverse(entity: Int, index: Int) {
    let relationship = entities[entity].relationships[index]
    let isOwn = relationship.declaringEntity == entities[entity].name
    let label = Excerpt.quoted(relationship.declaringEntity + "." + relationship.name)
    guard let destination = relationship.destination else { return }
    guard let inverseName = relationship.inverseName else {
      if isOwn {
        report(
          .noInverse, "Relationship \(label) has no inverse", at: relationship.nameRange)
      }
      return
    }
    guard let inverse = entities[destination].relationshipIndex[inverseName] else {
      if isOwn {
        report(
          .badInverse,
          "Inverse \(Excerpt.quoted(inverseName)) of \(label) is not a relationship of \(Excerpt.quoted(entities[destination].name))",
          at: relationship.range(of: "inverseName"))
      }
      return
    }
    let back = entities[destination].relationships[inverse]
    let pointsBack =
      back.inverseName == relationship.name
      && back.destination.map { isRelated(entity, $0) } == true
    if !pointsBack {
      if isOwn {
        report(
          .badInverse,
          "Inverse \(Excerpt.quoted(entities[destination].name + "." + inverseName)) of \(label) does not point back to it",
          at: relationship.range(of: "inverseName"),
          related: [RelatedLocation(range: back.nameRange, message: "the inverse")])
      }
      return
    }
    entities[entity].relationships[index].inverse = inverse
    entities[entity].relationships[index].isContainment = relationship.isToMany && !back.isToMany
  }

  func isRelated(_ a: Int, _ b: Int) -> Bool {
    isKind(a, of: b) || isKind(b, of: a)
  }

  private func isKind(_ index: Int, of ancestor: Int) -> Bool {
    var current: Int? = index
    while let entity = current {
      if entity == ancestor { return true }
      current = entities[entity].parent
    }
    return false
  }
}
