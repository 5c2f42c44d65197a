/// A model as Xcode's graph editor draws it, for writers of diagrams:
/// entities with their own attributes, inheritance, and relationships, an
/// inverse pair as one association with both ends.
public struct ModelGraph: Sendable {
  /// An attribute as an entity declares it.
  public struct Field: Sendable, Equatable {
    public var name: String
    /// `attributeType` as written (`Integer 64`).
    public var typeName: String
    public var isOptional: Bool
    public var isTransient: Bool
  }

  /// An entity with the attributes it declares (inherited ones are drawn on its parent).
  public struct Node: Sendable, Equatable {
    public var name: String
    public var parent: String?
    public var isAbstract: Bool
    public var fields: [Field]
  }

  /// One end of an association: a relationship and the entity that declares it.
  public struct End: Sendable, Equatable {
    /// The entity that declares the relationship.
    public var entity: String
    public var name: String
    public var isToMany: Bool
    public var isOptional: Bool
    public var isOrdered: Bool
    public var minCount: Int?
    public var maxCount: Int?
    public var deletionRule: DeletionRule

    /// UML multiplicity: `0..1`, `1`, `0..*`, `1..*`, `2..5`.
    public var multiplicity: String {
      let lower = minCount ?? (isOptional ? 0 : 1)
      if !isToMany { return isOptional ? "0..1" : "1" }
      let upper = maxCount.flatMap { $0 > 0 ? String($0) : nil } ?? "*"
      return lower == 0 && upper == "*" ? "0..*" : "\(lower)..\(upper)"
    }
  }

  /// A relationship from `source.entity` to `destination`, with its inverse when the two point at each other.
  public struct Association: Sendable, Equatable {
    public var source: End
    public var destination: String
    /// The inverse, declared on `destination` or an entity it inherits from.
    public var inverse: End?
  }

  /// The entities in model order.
  public var nodes: [Node]
  /// The relationships in model order, each inverse pair once.
  public var associations: [Association]

  /// The graph of `model`; relationships to missing entities are left out.
  public init(_ model: Model) {
    nodes = model.entities.map { entity in
      Node(
        name: entity.name, parent: entity.parentName, isAbstract: entity.isAbstract,
        fields: entity.attributes.filter { $0.declaringEntity == entity.name }.map {
          Field(name: $0.name, typeName: $0.typeName, isOptional: $0.isOptional, isTransient: $0.isTransient)
        })
    }
    associations = []
    var drawn = Set<String>()
    for entity in model.entities {
      for relationship in entity.relationships where relationship.declaringEntity == entity.name {
        let key = entity.name + "\u{0}" + relationship.name
        guard !drawn.contains(key), let destination = relationship.destination else { continue }
        drawn.insert(key)
        var association = Association(
          source: End(relationship, entity: entity.name), destination: model.entities[destination].name)
        if let inverseIndex = relationship.inverse {
          let inverse = model.entities[destination].relationships[inverseIndex]
          let inverseKey = inverse.declaringEntity + "\u{0}" + inverse.name
          // Drawn together only when the inverse points back here and is not drawn yet.
          if inverse.inverseName == relationship.name, let back = inverse.destination,
            model.isKind(model.entity(named: entity.name) ?? -1, of: back)
              || model.isKind(back, of: model.entity(named: entity.name) ?? -1),
            !drawn.contains(inverseKey) || inverseKey == key
          {
            drawn.insert(inverseKey)
            association.inverse = End(inverse, entity: inverse.declaringEntity)
          }
        }
        associations.append(association)
      }
    }
  }
}

extension ModelGraph.End {
  init(_ relationship: Relationship, entity: String) {
    self.init(
      entity: entity, name: relationship.name, isToMany: relationship.isToMany,
      isOptional: relationship.isOptional, isOrdered: relationship.isOrdered, minCount: relationship.minCount,
      maxCount: relationship.maxCount, deletionRule: relationship.deletionRule)
  }
}
