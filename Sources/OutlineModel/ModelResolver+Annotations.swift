import Foundation
import OutlineCore

/// The outline annotations (`outline.order`, `outline.title`... in user info) and containment,
/// with the checks of what an outline could not write: root names (OM217), ambiguous containment.
extension ModelResolver {
  mutating func resolveAnnotations() {
    for index in entities.indices {
      let entity = entities[index]
      entities[index].containments = entity.relationships.indices.filter {
        entity.relationships[$0].isContainment
      }
      // The order attribute.
      if let name = entity.userInfo("outline.order") {
        let range = entity.userInfo.first { $0.key == "outline.order" }!.valueRange
        if let attribute = entity.attributeIndex[name], entity.attributes[attribute].type?.isInteger == true {
          entities[index].orderAttribute = attribute
        } else {
          report(
            .badAnnotation,
            "outline.order of \(Excerpt.quoted(entity.name)) names \(Excerpt.quoted(name)), which is not an integer attribute of it",
            at: range)
        }
      } else if let attribute = entity.attributeIndex["order"],
        entity.attributes[attribute].type?.isInteger == true
      {
        entities[index].orderAttribute = attribute
      }
      // The title attribute.
      if let name = entity.userInfo("outline.title") {
        let range = entity.userInfo.first { $0.key == "outline.title" }!.valueRange
        if let attribute = entity.attributeIndex[name] {
          entities[index].titleAttribute = attribute
        } else {
          report(
            .badAnnotation,
            "outline.title of \(Excerpt.quoted(entity.name)) names \(Excerpt.quoted(name)), which is not an attribute of it",
            at: range)
        }
      } else {
        entities[index].titleAttribute = entity.attributeIndex["title"] ?? entity.attributeIndex["name"]
      }
      for relationship in entity.relationships
      where relationship.declaringEntity == entity.name {
        if let entry = relationship.userInfo.first(where: { $0.key == "outline.containment" }) {
          if ModelValues.boolean(entry.value) == nil {
            report(
              .badAnnotation, "outline.containment must be YES or NO, not \(Excerpt.quoted(entry.value))",
              at: entry.valueRange)
          } else if !relationship.isContainment {
            report(
              .badAnnotation,
              "outline.containment marks \(Excerpt.quoted(entity.name + "." + relationship.name)), which is not a to-many relationship with a to-one inverse",
              at: entry.valueRange)
          }
        }
      }
    }
    checkAmbiguousContainment()
    checkRootNames()
  }

  /// A property of the default root entity named like one of the root element's format
  /// attributes (OM217): the root object can never write it.
  private mutating func checkRootNames() {
    guard let root = Model.defaultRootEntity(of: entities) else { return }
    let entity = entities[root]
    let required =
      "and it is required, so no outline whose root is \(Excerpt.quoted(entity.name)) can lint clean"
    let never = "so the root object never has it"
    var clashes: [(name: String, range: TextRange, consequence: String)] = entity.attributes.map {
      ($0.name, $0.nameRange, $0.isRequired ? required : never)
    }
    for relationship in entity.relationships where !relationship.isContainment {
      // The other side can set it, unless it is a containment, which the root is never nested in.
      var consequence = relationship.isRequired ? required : never
      if let destination = relationship.destination, let inverse = relationship.inverse,
        !entities[destination].relationships[inverse].isContainment
      {
        let other = entities[destination].name + "." + entities[destination].relationships[inverse].name
        consequence = "so only its inverse \(Excerpt.quoted(other)) can set it"
      }
      clashes.append((relationship.name, relationship.nameRange, consequence))
    }
    for clash in clashes where RootFormat.isAttribute(clash.name) {
      report(
        .rootNameClash,
        "\(Excerpt.quoted(entity.name + "." + clash.name)) cannot be written on the root element, where \(Excerpt.quoted(clash.name)) is \(RootFormat.meaning(of: clash.name)), \(clash.consequence); rename it",
        at: clash.range)
    }
  }

  private mutating func checkAmbiguousContainment() {
    for index in entities.indices {
      let entity = entities[index]
      let containments = entities[index].containments
      guard containments.count > 1 else { continue }
      for (position, first) in containments.enumerated() {
        for second in containments[(position + 1)...] {
          let a = entity.relationships[first]
          let b = entity.relationships[second]
          guard let da = a.destination, let db = b.destination, isRelated(da, db) else { continue }
          let marks = [a, b].filter { ModelValues.boolean($0.userInfo("outline.containment")) == true }
          if marks.count == 1 { continue }
          guard a.declaringEntity == entity.name || b.declaringEntity == entity.name else { continue }
          report(
            .ambiguousContainment,
            "\(Excerpt.quoted(entity.name + "." + a.name)) and \(Excerpt.quoted(entity.name + "." + b.name)) can both contain \(Excerpt.quoted(entities[db].name)); mark one with outline.containment = YES",
            at: b.nameRange,
            related: [RelatedLocation(range: a.nameRange, message: "the other containment relationship")])
        }
      }
    }
  }
}
