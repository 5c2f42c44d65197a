import OutlineCore

/// One difference between two versions of a model, with what Core Data's
/// lightweight migration makes of it.
public struct ModelChange: Sendable, Equatable {
  /// What changed.
  public enum Kind: String, Sendable, CaseIterable {
    case entityAdded = "entity-added"
    case entityRemoved = "entity-removed"
    case entityRenamed = "entity-renamed"
    case parentChanged = "parent-changed"
    case abstractChanged = "abstract-changed"
    case attributeAdded = "attribute-added"
    case attributeRemoved = "attribute-removed"
    case attributeRenamed = "attribute-renamed"
    case attributeRetyped = "attribute-retyped"
    case madeRequired = "made-required"
    case madeOptional = "made-optional"
    case defaultChanged = "default-changed"
    case transientChanged = "transient-changed"
    case relationshipAdded = "relationship-added"
    case relationshipRemoved = "relationship-removed"
    case relationshipRenamed = "relationship-renamed"
    case destinationChanged = "destination-changed"
    case cardinalityChanged = "cardinality-changed"
    case orderingChanged = "ordering-changed"
    case countChanged = "count-changed"
    case constraintChanged = "constraint-changed"
  }

  /// What happens to data already stored.
  public enum DataEffect: String, Sendable {
    /// Nothing stored is affected (a new entity, an optional new property).
    case none
    /// Existing values are kept (under a new name, perhaps).
    case kept
    /// Existing values are lost.
    case dropped
    /// Existing objects need a value: the model's default, else one given.
    case needsDefault = "needs-default"
    /// Existing values must be converted to the new type.
    case converted
  }

  /// What changed.
  public var kind: Kind
  /// The entity, by its name in the newer version (the older one for a removal).
  public var entity: String
  /// The property, by its newer name (older for a removal); nil for entity changes.
  public var property: String?
  /// One line saying what changed, e.g. `'note' renamed to 'details'`.
  public var detail: String
  /// Whether Core Data can infer the mapping (lightweight migration).
  public var inferable: Bool
  /// What happens to existing data.
  public var data: DataEffect

  /// A change.
  public init(
    _ kind: Kind, entity: String, property: String? = nil, detail: String, inferable: Bool, data: DataEffect
  ) {
    self.kind = kind
    self.entity = entity
    self.property = property
    self.detail = detail
    self.inferable = inferable
    self.data = data
  }
}

/// Compares two versions of a model the way Core Data infers a mapping model.
public enum ModelDiff {
  /// The changes from the first model of `chain` to its last (intermediate
  /// versions only carry renames along), in the newer model's entity order.
  public static func changes(along chain: [Model]) -> [ModelChange] {
    guard let old = chain.first, let new = chain.last else { return [] }
    return changes(from: old, to: new, correspondence: .across(chain))
  }

  /// The changes from `old` to `new` given which of their parts correspond.
  public static func changes(
    from old: Model, to new: Model, correspondence: ModelCorrespondence
  ) -> [ModelChange] {
    var changes: [ModelChange] = []
    var continued = Set<Int>()
    for index in new.entities.indices {
      let entity = new.entities[index]
      guard let source = correspondence.entitySource[index] else {
        changes.append(
          ModelChange(
            .entityAdded, entity: entity.name, detail: "entity \(Excerpt.quoted(entity.name)) added",
            inferable: true,
            data: .none))
        continue
      }
      continued.insert(source)
      let oldEntity = old.entities[source]
      if oldEntity.name != entity.name {
        changes.append(
          ModelChange(
            .entityRenamed, entity: entity.name,
            detail: "entity \(Excerpt.quoted(oldEntity.name)) renamed to \(Excerpt.quoted(entity.name))",
            inferable: true, data: .kept))
      }
      let oldParent = oldEntity.parent.map { old.entities[$0].name }
      let newParentSource = entity.parent.flatMap { correspondence.entitySource[$0] }.map {
        old.entities[$0].name
      }
      // A parent that is a new entity has no older counterpart: a change all the same.
      let parentIsNew = entity.parent != nil && newParentSource == nil
      if oldParent != newParentSource || parentIsNew {
        changes.append(
          ModelChange(
            .parentChanged, entity: entity.name,
            detail:
              "parent entity of \(Excerpt.quoted(entity.name)) changed from \(oldParent.map { Excerpt.quoted($0) } ?? "none") to \(entity.parentName.map { Excerpt.quoted($0) } ?? "none")",
            inferable: true, data: .kept))
      }
      if oldEntity.isAbstract != entity.isAbstract {
        changes.append(
          ModelChange(
            .abstractChanged, entity: entity.name,
            detail: entity.isAbstract
              ? "\(Excerpt.quoted(entity.name)) made abstract"
              : "\(Excerpt.quoted(entity.name)) made concrete (no longer abstract)",
            inferable: !entity.isAbstract, data: entity.isAbstract ? .dropped : .none))
      }
      // Entities it now inherits from that are new: what they declare is new to it too.
      var newAncestors = Set<String>()
      var ancestor = entity.parent
      while let current = ancestor {
        if correspondence.entitySource[current] == nil { newAncestors.insert(new.entities[current].name) }
        ancestor = new.entities[current].parent
      }
      attributeChanges(
        old: oldEntity, new: entity, names: correspondence.attributeSource[index], newAncestors: newAncestors,
        into: &changes)
      relationshipChanges(
        old: oldEntity, new: entity, names: correspondence.relationshipSource[index],
        oldModel: old, newModel: new, correspondence: correspondence, into: &changes)
      constraintChanges(
        old: oldEntity, new: entity,
        names: correspondence.attributeSource[index]
          .merging(correspondence.relationshipSource[index]) { first, _ in first }, into: &changes)
    }
    for index in old.entities.indices where !continued.contains(index) {
      changes.append(
        ModelChange(
          .entityRemoved, entity: old.entities[index].name,
          detail: "entity \(Excerpt.quoted(old.entities[index].name)) removed", inferable: true,
          data: .dropped))
    }
    return changes
  }

  /// Whether Core Data can infer every change.
  public static func isMigratable(_ changes: [ModelChange]) -> Bool { changes.allSatisfy(\.inferable) }

  private static func attributeChanges(
    old: Entity, new: Entity, names: [String: String], newAncestors: Set<String>,
    into changes: inout [ModelChange]
  ) {
    var continued = Set<String>()
    for attribute in new.attributes {
      let sourceName = names[attribute.name]
      if let sourceName { continued.insert(sourceName) }
      // Inherited attributes are reported once, on the entity that declares them; one declared
      // by a new entity it now inherits from is new to this one (its objects need its value).
      guard attribute.declaringEntity == new.name || newAncestors.contains(attribute.declaringEntity)
      else { continue }
      let quoted = Excerpt.quoted(new.name + "." + attribute.name)
      guard let sourceName, let index = old.attributeIndex[sourceName] else {
        let what = addedAttribute(attribute)
        changes.append(
          ModelChange(
            .attributeAdded, entity: new.name, property: attribute.name,
            detail: "attribute \(quoted) added (\(what.detail))", inferable: what.needsValue == false,
            data: what.needsValue ? .needsDefault : .none))
        continue
      }
      let before = old.attributes[index]
      if sourceName != attribute.name {
        changes.append(
          ModelChange(
            .attributeRenamed, entity: new.name, property: attribute.name,
            detail:
              "attribute \(Excerpt.quoted(new.name + "." + sourceName)) renamed to \(Excerpt.quoted(attribute.name))",
            inferable: true,
            data: .kept))
      }
      if before.typeName != attribute.typeName {
        changes.append(
          ModelChange(
            .attributeRetyped, entity: new.name, property: attribute.name,
            detail: "attribute \(quoted) changed type from \(before.typeName) to \(attribute.typeName)",
            inferable: false, data: .converted))
      }
      if before.isOptional && !attribute.isOptional && (attribute.isDerived || attribute.isTransient) {
        // Nothing stored needs a value: Core Data computes a derived one and stores no transient one.
        changes.append(
          ModelChange(
            .madeRequired, entity: new.name, property: attribute.name,
            detail:
              "attribute \(quoted) made required (\(attribute.isDerived ? "derived: Core Data computes it" : "transient: never stored"))",
            inferable: true, data: .kept))
      } else if before.isOptional && !attribute.isOptional {
        let hasDefault = attribute.defaultValue != nil
        changes.append(
          ModelChange(
            .madeRequired, entity: new.name, property: attribute.name,
            detail:
              "attribute \(quoted) made required (\(hasDefault ? "default \(Excerpt.quoted(attribute.defaultValue!))" : "no default"))",
            inferable: hasDefault, data: hasDefault ? .kept : .needsDefault))
      } else if !before.isOptional && attribute.isOptional {
        changes.append(
          ModelChange(
            .madeOptional, entity: new.name, property: attribute.name,
            detail: "attribute \(quoted) made optional", inferable: true, data: .kept))
      }
      if before.defaultValue != attribute.defaultValue && !before.isTransient && !attribute.isTransient {
        let was = before.defaultValue.map { Excerpt.quoted($0) } ?? "none"
        let now = attribute.defaultValue.map { Excerpt.quoted($0) } ?? "none"
        let kept =
          before.defaultValue.map {
            " (objects that leave it out are written with \(Excerpt.quoted($0)), keeping their value)"
          }
          ?? ""
        changes.append(
          ModelChange(
            .defaultChanged, entity: new.name, property: attribute.name,
            detail: "attribute \(quoted) default changed from \(was) to \(now)\(kept)", inferable: true,
            data: .kept))
      }
      if before.isTransient != attribute.isTransient {
        // Made stored: the objects there are have no stored value, so they take what a new
        // attribute's objects take (nothing when optional or derived, the default, else a value).
        let stored = addedAttribute(attribute)
        changes.append(
          ModelChange(
            .transientChanged, entity: new.name, property: attribute.name,
            detail:
              "attribute \(quoted) made \(attribute.isTransient ? "transient" : "stored (\(stored.detail))")",
            inferable: attribute.isTransient || !stored.needsValue,
            data: attribute.isTransient ? .dropped : stored.needsValue ? .needsDefault : .none))
      }
    }
    for attribute in old.attributes
    where attribute.declaringEntity == old.name && !continued.contains(attribute.name) {
      changes.append(
        ModelChange(
          .attributeRemoved, entity: new.name, property: attribute.name,
          detail: "attribute \(Excerpt.quoted(old.name + "." + attribute.name)) removed", inferable: true,
          data: attribute.isTransient ? .none : .dropped))
    }
  }

  /// What the objects already stored get for an attribute new to them: its detail (`optional`,
  /// `derived: Core Data computes it`, `required, default '0'`, ...) and whether they need a
  /// value nobody gave (required, stored, not derived, no default).
  private static func addedAttribute(_ attribute: Attribute) -> (detail: String, needsValue: Bool) {
    if attribute.isDerived {
      let expression = attribute.derivationExpression.map { " as \(Excerpt.quoted($0))" } ?? ""
      return ("derived: Core Data computes it\(expression)", false)
    }
    if attribute.isTransient { return ("transient: never stored", false) }
    if attribute.isOptional { return ("optional", false) }
    if let value = attribute.defaultValue {
      return ("required, default \(Excerpt.quoted(value)): the objects there are take it", false)
    }
    return ("required, no default", true)
  }

  private static func relationshipChanges(
    old: Entity, new: Entity, names: [String: String], oldModel: Model, newModel: Model,
    correspondence: ModelCorrespondence, into changes: inout [ModelChange]
  ) {
    var continued = Set<String>()
    for relationship in new.relationships {
      let sourceName = names[relationship.name]
      if let sourceName { continued.insert(sourceName) }
      guard relationship.declaringEntity == new.name else { continue }
      let quoted = Excerpt.quoted(new.name + "." + relationship.name)
      guard let sourceName, let index = old.relationshipIndex[sourceName] else {
        let required = !relationship.isOptional && !relationship.isTransient
        changes.append(
          ModelChange(
            .relationshipAdded, entity: new.name, property: relationship.name,
            detail: "relationship \(quoted) added (\(required ? "required" : "optional"))",
            inferable: !required, data: required ? .needsDefault : .none))
        continue
      }
      let before = old.relationships[index]
      if sourceName != relationship.name {
        changes.append(
          ModelChange(
            .relationshipRenamed, entity: new.name, property: relationship.name,
            detail:
              "relationship \(Excerpt.quoted(new.name + "." + sourceName)) renamed to \(Excerpt.quoted(relationship.name))",
            inferable: true, data: .kept))
      }
      let destinationSource = relationship.destination.flatMap { correspondence.entitySource[$0] }
      if destinationSource != before.destination
        || (relationship.destination == nil) != (before.destination == nil)
      {
        changes.append(
          ModelChange(
            .destinationChanged, entity: new.name, property: relationship.name,
            detail:
              "relationship \(quoted) now leads to \(Excerpt.quoted(relationship.destinationName ?? "?")) instead of \(Excerpt.quoted(before.destinationName ?? "?"))",
            inferable: false, data: .dropped))
      }
      if before.isToMany != relationship.isToMany {
        // Core Data keeps the data; an outline cannot when the inverse was a containment that
        // ends: the objects it held nested stay nested in a relationship that nests nothing.
        var ended = ""
        if let inverse = before.inverse, let destination = before.destination,
          oldModel.entities[destination].relationships[inverse].isContainment,
          let newDestination = relationship.destination, let newInverse = relationship.inverse,
          !newModel.entities[newDestination].relationships[newInverse].isContainment
        {
          let name =
            "\(newModel.entities[newDestination].name).\(newModel.entities[newDestination].relationships[newInverse].name)"
          ended =
            "; \(Excerpt.quoted(name)) is no longer a containment, so the objects nested in it cannot stay nested: `outline migrate` drops them (with --allow-data-loss)"
        }
        changes.append(
          ModelChange(
            .cardinalityChanged, entity: new.name, property: relationship.name,
            detail:
              "relationship \(quoted) changed from \(before.isToMany ? "to-many to to-one" : "to-one to to-many")\(ended)",
            inferable: relationship.isToMany, data: relationship.isToMany && ended.isEmpty ? .kept : .dropped)
        )
      } else if before.isOrdered != relationship.isOrdered && relationship.isToMany {
        changes.append(
          ModelChange(
            .orderingChanged, entity: new.name, property: relationship.name,
            detail: "relationship \(quoted) made \(relationship.isOrdered ? "ordered" : "unordered")",
            inferable: true, data: .kept))
      }
      if before.isToMany == relationship.isToMany
        && (before.minCount != relationship.minCount || before.maxCount != relationship.maxCount)
      {
        changes.append(
          ModelChange(
            .countChanged, entity: new.name, property: relationship.name,
            detail:
              "relationship \(quoted) count \(countText(before)) changed to \(countText(relationship))",
            inferable: true, data: .kept))
      }
      if before.isOptional && !relationship.isOptional {
        changes.append(
          ModelChange(
            .madeRequired, entity: new.name, property: relationship.name,
            detail: "relationship \(quoted) made required", inferable: false, data: .needsDefault))
      } else if !before.isOptional && relationship.isOptional {
        changes.append(
          ModelChange(
            .madeOptional, entity: new.name, property: relationship.name,
            detail: "relationship \(quoted) made optional", inferable: true, data: .kept))
      }
    }
    for relationship in old.relationships
    where relationship.declaringEntity == old.name && !continued.contains(relationship.name) {
      changes.append(
        ModelChange(
          .relationshipRemoved, entity: new.name, property: relationship.name,
          detail: "relationship \(Excerpt.quoted(old.name + "." + relationship.name)) removed",
          inferable: true,
          data: relationship.isTransient ? .none : .dropped))
    }
  }

  private static func countText(_ relationship: Relationship) -> String {
    "\(relationship.minCount.map(String.init) ?? "0")...\(relationship.maxCount.map(String.init) ?? "*")"
  }

  private static func constraintChanges(
    old: Entity, new: Entity, names: [String: String], into changes: inout [ModelChange]
  ) {
    let before = Set(
      old.uniquenessConstraints.filter { $0.declaringEntity == old.name }.map { $0.names.sorted() })
    let after = Set(
      new.uniquenessConstraints.filter { $0.declaringEntity == new.name }.map {
        $0.names.map { names[$0] ?? $0 }.sorted()
      })
    guard before != after else { return }
    for added in after.subtracting(before).sorted(by: { $0.joined() < $1.joined() }) {
      changes.append(
        ModelChange(
          .constraintChanged, entity: new.name,
          detail:
            "uniqueness constraint (\(added.joined(separator: ", "))) of \(Excerpt.quoted(new.name)) added: objects that share these values are merged",
          inferable: true, data: .kept))
    }
    for removed in before.subtracting(after).sorted(by: { $0.joined() < $1.joined() }) {
      changes.append(
        ModelChange(
          .constraintChanged, entity: new.name,
          detail:
            "uniqueness constraint (\(removed.joined(separator: ", "))) of \(Excerpt.quoted(new.name)) removed",
          inferable: true,
          data: .kept))
    }
  }
}
