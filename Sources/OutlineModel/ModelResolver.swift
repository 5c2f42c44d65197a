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

  // MARK: Attributes

  private mutating func checkAttribute(_ attribute: Attribute) {
    let where_ = Excerpt.quoted(attribute.declaringEntity + "." + attribute.name)
    guard let type = attribute.type else {
      report(
        .attributeType,
        "attributeType \(Excerpt.quoted(attribute.typeName)) of \(where_) is not a Core Data type",
        at: attribute.range(of: "attributeType"))
      return
    }
    if type == .undefined && !attribute.isTransient {
      report(
        .attributeType, "\(where_) has no attributeType (Undefined); only transient attributes may",
        at: attribute.range(of: "attributeType"))
      return
    }
    var minimum: Double?
    var maximum: Double?
    for (key, text) in [("minValueString", attribute.minValue), ("maxValueString", attribute.maxValue)] {
      guard let text else { continue }
      let bound: Double?
      switch type {
      case .date:
        bound = ModelValues.number(text)
        if bound == nil && !ModelValues.isISODate(text) {
          report(
            .lenientValue, "\(key) \(Excerpt.quoted(text)) of \(where_) is a date in an old format",
            at: attribute.range(of: key))
        }
      case .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .binary:
        bound = ModelValues.number(text)
        if bound == nil {
          report(
            .badDefault, "\(key) \(Excerpt.quoted(text)) of \(where_) is not a number",
            at: attribute.range(of: key))
        }
      case .boolean, .uuid, .uri, .transformable, .objectID, .composite, .undefined:
        bound = nil
      }
      if key == "minValueString" { minimum = bound } else { maximum = bound }
    }
    if let minimum, let maximum, minimum > maximum {
      report(
        .minAboveMax,
        "minValueString \(Excerpt.escaped(attribute.minValue!)) of \(where_) is greater than maxValueString \(Excerpt.escaped(attribute.maxValue!))",
        at: attribute.range(of: "minValueString"),
        related: [RelatedLocation(range: attribute.range(of: "maxValueString"), message: "the maximum")])
    }
    if let pattern = attribute.regularExpression {
      do {
        _ = try NSRegularExpression(pattern: pattern)
      } catch {
        report(
          .badRegularExpression,
          "regularExpressionString \(Excerpt.quoted(pattern)) of \(where_) does not compile",
          at: attribute.range(of: "regularExpressionString"))
      }
    }
    if let text = attribute.defaultValue {
      checkDefault(text, type: type, attribute: attribute, where_: where_, minimum: minimum, maximum: maximum)
    }
  }

  private mutating func checkDefault(
    _ text: String, type: AttributeType, attribute: Attribute, where_: String, minimum: Double?,
    maximum: Double?
  ) {
    let range = attribute.range(of: "defaultValueString")
    if let problem = ModelValues.problem(with: text, as: type) {
      // Where Xcode is lenient, warn: it compiles these.
      let lenient: Bool
      switch type {
      case .boolean: lenient = ModelValues.number(text) != nil
      case .integer16, .integer32, .integer64:
        lenient =
          ModelValues.boolean(text) != nil || ModelValues.number(text).map { $0 == $0.rounded() } == true
      case .date, .uuid, .uri, .binary: lenient = true
      case .decimal, .double, .float, .string, .transformable, .objectID, .composite, .undefined:
        lenient = false
      }
      report(
        lenient ? .lenientValue : .badDefault,
        "defaultValueString of \(where_): \(problem)", at: range)
      return
    }
    let measure: Double?
    switch type.valueKind {
    case .string: measure = Double(text.count)
    case .integer, .number: measure = ModelValues.number(text)
    case .boolean, .text, .opaque: measure = nil
    }
    guard let measure else { return }
    let noun = type == .string ? "length \(text.count)" : "default \(Excerpt.escaped(text))"
    if let minimum, measure < minimum {
      report(
        .badDefault,
        "The \(noun) of \(where_) is below minValueString \(Excerpt.escaped(attribute.minValue!))", at: range)
    } else if let maximum, measure > maximum {
      report(
        .badDefault,
        "The \(noun) of \(where_) is above maxValueString \(Excerpt.escaped(attribute.maxValue!))", at: range)
    }
  }

  // MARK: Relationships

  private mutating func resolveRelationships() {
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

  private func isRelated(_ a: Int, _ b: Int) -> Bool {
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

  // MARK: Uniqueness constraints and composites

  /// Resolves each constraint's members in every entity holding it: an
  /// attribute or a to-one relationship of it (OM213 otherwise).
  private mutating func resolveUniquenessConstraints() {
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
  private mutating func checkIndexes() {
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
  private mutating func resolveComposites() {
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

  // MARK: Outline annotations

  private mutating func resolveAnnotations() {
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
