import Foundation
import OutlineCore

/// Resolves names to indexes, flattens inheritance and runs the model checks
/// of SPEC §2, each a diagnostic with an `OM` code and a range in the model.
struct ModelResolver {
  var entities: [Entity]
  var diagnostics: [Diagnostic]
  var entityIndex: [String: Int] = [:]
  var composites: [Composite] = []

  init(entities: [Entity], diagnostics: [Diagnostic]) {
    self.entities = entities
    self.diagnostics = diagnostics
  }

  mutating func resolve() {
    checkNames()
    indexEntities()
    resolveParents()
    flattenInheritance()
    for entity in entities.indices {
      for attribute in entities[entity].attributes.indices
      where entities[entity].attributes[attribute].declaringEntity == entities[entity].name {
        checkAttribute(entities[entity].attributes[attribute])
      }
    }
    resolveRelationships()
    resolveAnnotations()
    resolveUniquenessConstraints()
    checkIndexes()
    resolveComposites()
  }

  mutating func report(
    _ code: DiagnosticCode, _ message: String, at range: TextRange, severity: Severity? = nil,
    related: [RelatedLocation] = []
  ) {
    diagnostics.append(Diagnostic(code, message, at: range, severity: severity, related: related))
  }

  // MARK: Entities and inheritance

  private mutating func indexEntities() {
    for (index, entity) in entities.enumerated() {
      if let first = entityIndex[entity.name] {
        report(
          .duplicateEntity, "Entity \(Excerpt.quoted(entity.name)) is defined twice", at: entity.nameRange,
          related: [RelatedLocation(range: entities[first].nameRange, message: "first defined here")])
      } else {
        entityIndex[entity.name] = index
      }
    }
  }

  private mutating func resolveParents() {
    for index in entities.indices {
      guard let parentName = entities[index].parentName else { continue }
      if let parent = entityIndex[parentName] {
        entities[index].parent = parent
      } else {
        report(
          .badParentEntity,
          "parentEntity \(Excerpt.quoted(parentName)) of \(Excerpt.quoted(entities[index].name)) is not an entity of the model",
          at: entities[index].range(of: "parentEntity"))
      }
    }
    // Break cycles so every later walk up the chain ends.
    for index in entities.indices {
      var seen: Set<Int> = [index]
      var current = entities[index].parent
      while let parent = current {
        if seen.contains(parent) {
          report(
            .badParentEntity,
            "Entity \(Excerpt.quoted(entities[index].name)) inherits from itself through parentEntity",
            at: entities[index].range(of: "parentEntity"))
          entities[index].parent = nil
          break
        }
        seen.insert(parent)
        current = entities[parent].parent
      }
    }
  }

  /// Gives each entity its ancestors' properties, root ancestor first.
  private mutating func flattenInheritance() {
    let own = entities
    for index in entities.indices {
      var chain: [Int] = []
      var current: Int? = index
      while let entity = current {
        chain.append(entity)
        current = entities[entity].parent
      }
      var attributes: [Attribute] = []
      var relationships: [Relationship] = []
      var fetchedProperties: [FetchedProperty] = []
      var constraints: [UniquenessConstraint] = []
      for ancestor in chain.reversed() {
        attributes += own[ancestor].attributes
        relationships += own[ancestor].relationships
        fetchedProperties += own[ancestor].fetchedProperties
        constraints += own[ancestor].uniquenessConstraints
      }
      entities[index].fetchedProperties = fetchedProperties
      entities[index].uniquenessConstraints = constraints
      // Attributes and relationships share one namespace.
      var names: [String: TextRange] = [:]
      let keptAttributes = keepFirst(attributes, names: &names, entity: index)
      let keptRelationships = keepFirst(relationships, names: &names, entity: index)
      entities[index].attributes = keptAttributes
      entities[index].relationships = keptRelationships
      for (position, attribute) in keptAttributes.enumerated() {
        entities[index].attributeIndex[attribute.name] = position
      }
      for (position, relationship) in keptRelationships.enumerated() {
        entities[index].relationshipIndex[relationship.name] = position
      }
    }
  }

  /// The properties whose names are new, reporting the entity's own duplicates (OM202).
  private mutating func keepFirst<P: ModelProperty>(
    _ properties: [P], names: inout [String: TextRange], entity: Int
  )
    -> [P]
  {
    var kept: [P] = []
    for property in properties {
      if let first = names[property.name] {
        if property.declaringEntity == entities[entity].name {
          reportDuplicate(property.name, at: property.nameRange, first: first, in: entity)
        }
        continue
      }
      names[property.name] = property.nameRange
      kept.append(property)
    }
    return kept
  }

  private mutating func reportDuplicate(
    _ name: String, at range: TextRange, first: TextRange, in entity: Int
  ) {
    report(
      .duplicateProperty,
      "Property \(Excerpt.quoted(name)) is defined twice in \(Excerpt.quoted(entities[entity].name))",
      at: range, related: [RelatedLocation(range: first, message: "first defined here")])
  }
}
