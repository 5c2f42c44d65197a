import Foundation
import OutlineCore

/// Uniqueness constraints, fetch indexes and composite attributes.
extension ModelResolver {
  /// Resolves each constraint's members in every entity holding it: an
  /// attribute or a to-one relationship of it (OM213 otherwise).
  mutating func resolveUniquenessConstraints() {
    for index in entities.indices {
      let entity = entities[index]
      for (position, constraint) in entity.uniquenessConstraints.enumerated() {
        var members: [UniquenessConstraint.Member] = []
        for (name, range) in zip(constraint.names, constraint.ranges) {
          if let attribute = entity.attributeIndex[name] {
            members.append(.attribute(attribute))
          } else if let relationship = entity.relationshipIndex[name],
            !entity.relationships[relationship].isToMany
          {
            members.append(.relationship(relationship))
          } else if constraint.declaringEntity == entity.name {
            let what =
              entity.relationshipIndex[name] != nil
              ? "a to-many relationship (a constraint takes attributes and to-one relationships)"
              : "not an attribute or relationship of it"
            report(
              .badUniquenessConstraint,
              "The uniqueness constraint of \(Excerpt.quoted(entity.name)) names \(Excerpt.quoted(name)), which is \(what)",
              at: range)
          }
        }
        let complete = members.count == constraint.names.count && !members.isEmpty
        entities[index].uniquenessConstraints[position].members = complete ? members : nil
      }
    }
  }

  /// Checks that each entity's own fetch and compound indexes name an attribute or a to-one
  /// relationship of it (OM216): Xcode does not compile an index on anything else.
  mutating func checkIndexes() {
    for entity in entities {
      for reference in entity.indexReferences {
        if entity.attributeIndex[reference.name] != nil { continue }
        if let relationship = entity.relationshipIndex[reference.name],
          !entity.relationships[relationship].isToMany
        {
          continue
        }
        let what =
          entity.relationshipIndex[reference.name] != nil
          ? "a to-many relationship (an index takes attributes and to-one relationships)"
          : "not an attribute or relationship of it"
        report(
          .badIndex,
          "\(reference.index.prefix(1).uppercased() + reference.index.dropFirst()) of '\(entity.name)' names '\(reference.name)', which is \(what)",
          at: reference.range)
      }
    }
  }

  /// Checks the composite types and the `composite` of every `Composite` attribute (OM214).
  mutating func resolveComposites() {
    var names: [String: TextRange] = [:]
    for composite in composites {
      if let first = names[composite.name] {
        report(
          .unknownComposite, "Composite \(Excerpt.quoted(composite.name)) is defined twice",
          at: composite.nameRange,
          related: [RelatedLocation(range: first, message: "first defined here")])
      }
      names[composite.name] = composite.nameRange
      for attribute in composite.attributes { checkAttribute(attribute) }
    }
    let compositeAttributes =
      entities.flatMap { entity in entity.attributes.filter { $0.declaringEntity == entity.name } }
      + composites.flatMap(\.attributes)
    for attribute in compositeAttributes where attribute.type == .composite {
      guard let name = attribute.compositeName else {
        report(
          .unknownComposite,
          "\(Excerpt.quoted(attribute.declaringEntity + "." + attribute.name)) is a Composite attribute without a composite type",
          at: attribute.range(of: "attributeType"))
        continue
      }
      if names[name] == nil {
        report(
          .unknownComposite,
          "composite \(Excerpt.quoted(name)) of \(Excerpt.quoted(attribute.declaringEntity + "." + attribute.name)) is not a composite of the model",
          at: attribute.range(of: "composite"))
      }
    }
  }
}
