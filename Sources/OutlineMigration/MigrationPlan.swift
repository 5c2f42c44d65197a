import OutlineModel

/// What the user adds to a migration: values for new required attributes
/// (`--set Entity.attribute=value`) and whether data may be dropped.
public struct MigrationSettings: Sendable {
  /// Values by `Entity.attribute`, in the target version's names.
  public var values: [String: String]
  /// Whether removed attributes, relationships and entities may be dropped.
  public var allowDataLoss: Bool

  /// Settings with `values` and `allowDataLoss`.
  public init(values: [String: String] = [:], allowDataLoss: Bool = false) {
    self.values = values
    self.allowDataLoss = allowDataLoss
  }
}

/// How a document written for one version of a model becomes one for another:
/// per entity of the older version, its new name and what becomes of each
/// attribute and relationship written as an XML attribute.
public struct MigrationPlan: Sendable {
  /// What becomes of one XML attribute of an object.
  public enum PropertyAction: Sendable, Equatable {
    /// Renamed to this name.
    case rename(String)
    /// Removed from the model: the value is dropped.
    case drop
    /// A to-many relationship that became to-one: at most one id may stay (renamed when non-nil).
    case toOne(String?)
  }

  /// What becomes of the objects of one entity.
  ///
  /// Its fields live in one shared box, copied only when a copy is changed: a migration hands
  /// the plan of each of millions of elements around, and copying its strings, arrays and
  /// dictionaries one by one was a large share of a migration's work.
  public struct EntityPlan: Sendable {
    private final class Storage: @unchecked Sendable {
      var sourceName: String
      var source: Int
      var sourceOrder: [UInt8]?
      var targetName: String?
      var target: Int?
      var actions: [String: PropertyAction]
      var additions: [(name: String, value: String?)]
      var newOrderAttribute: String?

      init(sourceName: String) {
        self.sourceName = sourceName
        source = -1
        sourceOrder = nil
        targetName = nil
        target = nil
        actions = [:]
        additions = []
        newOrderAttribute = nil
      }

      func copy() -> Storage {
        let copy = Storage(sourceName: sourceName)
        copy.source = source
        copy.sourceOrder = sourceOrder
        copy.targetName = targetName
        copy.target = target
        copy.actions = actions
        copy.additions = additions
        copy.newOrderAttribute = newOrderAttribute
        return copy
      }
    }

    private var storage: Storage

    /// A plan for the older entity `sourceName`, changing nothing yet.
    public init(sourceName: String) { storage = Storage(sourceName: sourceName) }

    private mutating func unique() -> Storage {
      if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
      return storage
    }

    /// The entity's name in the older version.
    public var sourceName: String {
      get { storage.sourceName }
      set { unique().sourceName = newValue }
    }

    /// The older entity's index.
    public var source: Int {
      get { storage.source }
      set { unique().source = newValue }
    }

    /// The older entity's order attribute's name, as bytes.
    public var sourceOrder: [UInt8]? {
      get { storage.sourceOrder }
      set { unique().sourceOrder = newValue }
    }

    /// The entity's name in the target version; nil when the entity was removed.
    public var targetName: String? {
      get { storage.targetName }
      set { unique().targetName = newValue }
    }

    /// The target entity's index.
    public var target: Int? {
      get { storage.target }
      set { unique().target = newValue }
    }

    /// XML attributes (older names) that change; those not listed stay as they are.
    public var actions: [String: PropertyAction] {
      get { storage.actions }
      set { unique().actions = newValue }
    }

    /// New attributes that need a value: name and the value to write (nil: none given).
    public var additions: [(name: String, value: String?)] {
      get { storage.additions }
      set { unique().additions = newValue }
    }

    /// The target's order attribute when the older version had none: numbered 0, 1, ... per sibling group.
    public var newOrderAttribute: String? {
      get { storage.newOrderAttribute }
      set { unique().newOrderAttribute = newValue }
    }
  }

  /// The version names, older and target.
  public var sourceVersion: String
  /// The target version's name.
  public var targetVersion: String
  /// The older model.
  public var source: Model
  /// The target model.
  public var target: Model
  /// Per older entity name: its plan.
  public var entities: [String: EntityPlan]
  /// Whether the plan changes anything at all (beyond recording the version).
  public var changesObjects: Bool
  /// Whether the root's `modelVersion` is set to the target (a rename inside one version leaves it).
  public var recordsVersion = true
  /// Per older entity index: its containment relationships (older indexes) that become ordered,
  /// where document order, not order numbers, then tells the children's order.
  var becomesOrdered: [Int: Set<Int>] = [:]
  /// Per older entity index: its ordered containment relationships that become unordered, whose
  /// children are then numbered by their document order.
  var becomesUnordered: [Int: Set<Int>] = [:]

  /// The plan from version `from` to version `to` of `history` (`from <= to`), along the chain between them.
  public init(history: ModelHistory, from: Int, to: Int, settings: MigrationSettings) {
    let chain = history.versions[from...to].map(\.model)
    let source = chain[0]
    let target = chain[chain.count - 1]
    let correspondence = ModelCorrespondence.across(Array(chain))
    self.sourceVersion = history.versions[from].name
    self.targetVersion = history.versions[to].name
    self.source = source
    self.target = target
    var plans: [String: EntityPlan] = [:]
    var targetOf: [Int: Int] = [:]
    for index in target.entities.indices {
      if let older = correspondence.entitySource[index] { targetOf[older] = index }
    }
    var changes = false
    for (index, entity) in source.entities.enumerated() {
      var plan = EntityPlan(sourceName: entity.name)
      plan.source = index
      plan.sourceOrder = entity.orderAttribute.map { Array(entity.attributes[$0].name.utf8) }
      guard let targetIndex = targetOf[index] else {
        plans[entity.name] = plan
        changes = true
        continue
      }
      let targetEntity = target.entities[targetIndex]
      plan.target = targetIndex
      plan.targetName = targetEntity.name
      if targetEntity.name != entity.name { changes = true }
      var attributeTarget: [String: String] = [:]
      for (newer, older) in correspondence.attributeSource[targetIndex] { attributeTarget[older] = newer }
      var relationshipTarget: [String: String] = [:]
      for (newer, older) in correspondence.relationshipSource[targetIndex] {
        relationshipTarget[older] = newer
      }
      for attribute in entity.attributes {
        if let newer = attributeTarget[attribute.name] {
          if newer != attribute.name { plan.actions[attribute.name] = .rename(newer) }
        } else {
          plan.actions[attribute.name] = .drop
        }
      }
      for relationship in entity.relationships {
        guard let newer = relationshipTarget[relationship.name],
          let targetRelationship = targetEntity.relationshipIndex[newer].map({
            targetEntity.relationships[$0]
          })
        else {
          plan.actions[relationship.name] = .drop
          continue
        }
        if relationship.isContainment && relationship.isOrdered != targetRelationship.isOrdered,
          let index = entity.relationshipIndex[relationship.name]
        {
          if targetRelationship.isOrdered {
            becomesOrdered[plan.source, default: []].insert(index)
          } else {
            becomesUnordered[plan.source, default: []].insert(index)
          }
          changes = true
        }
        if relationship.isToMany && !targetRelationship.isToMany {
          plan.actions[relationship.name] = .toOne(newer == relationship.name ? nil : newer)
        } else if newer != relationship.name {
          plan.actions[relationship.name] = .rename(newer)
        }
      }
      // An object that leaves a stored attribute out has its default: where the target's
      // default differs, the old one is written on such objects, so their value stays.
      var keptDefaults: [String: String] = [:]
      for attribute in entity.attributes
      where !attribute.isTransient && !attribute.isDerived
        && attribute.name
          != entity.orderAttribute.map({
            entity.attributes[$0].name
          })
      {
        guard let old = attribute.defaultValue, let newer = attributeTarget[attribute.name],
          let index = targetEntity.attributeIndex[newer]
        else { continue }
        let continuing = targetEntity.attributes[index]
        if !continuing.isTransient && !continuing.isDerived && continuing.defaultValue != old {
          keptDefaults[newer] = old
        }
      }
      // New attributes, and continued ones made required, need a value where an object has none
      // (one that was required already and is missing is the document's own problem, which the
      // linter reports, not the migration's); `--set` gives it, for the entity or one it
      // inherits from, and only for those.
      let continued = Set(attributeTarget.values)
      let attributeSource = correspondence.attributeSource[targetIndex]
      for attribute in targetEntity.attributes {
        let older = attributeSource[attribute.name].flatMap { entity.attributeIndex[$0] }.map {
          entity.attributes[$0]
        }
        let stored = !attribute.isTransient && !attribute.isDerived
        // New, or required (and stored) now where it was not.
        let newlyNeeded =
          older.map { ($0.isOptional || $0.isTransient || $0.isDerived) && !attribute.isOptional && stored }
          ?? true
        let given = newlyNeeded ? Self.setting(attribute.name, of: targetIndex, in: target, settings) : nil
        let needsValue = newlyNeeded && !attribute.isOptional && stored && attribute.defaultValue == nil
        if let value = given ?? keptDefaults[attribute.name] {
          plan.additions.append((attribute.name, value))
        } else if needsValue {
          plan.additions.append((attribute.name, nil))
        }
      }
      let relationshipSource = correspondence.relationshipSource[targetIndex]
      for relationship in targetEntity.relationships where !relationship.isContainment {
        let older = relationshipSource[relationship.name].flatMap { entity.relationshipIndex[$0] }.map {
          entity.relationships[$0]
        }
        let newlyNeeded =
          older.map {
            ($0.isOptional || $0.isTransient) && !relationship.isOptional && !relationship.isTransient
          }
          ?? true
        let given = newlyNeeded ? Self.setting(relationship.name, of: targetIndex, in: target, settings) : nil
        let implied =
          relationship.inverse != nil && !relationship.isToMany
          && Self.isImpliedByNesting(relationship, in: target)
        if given != nil || (newlyNeeded && !relationship.isOptional && !relationship.isTransient && !implied)
        {
          plan.additions.append((relationship.name, given))
        }
      }
      if let order = targetEntity.orderAttribute, !continued.contains(targetEntity.attributes[order].name) {
        plan.newOrderAttribute = targetEntity.attributes[order].name
        plan.additions.removeAll { $0.name == targetEntity.attributes[order].name }
      }
      if !plan.actions.isEmpty || !plan.additions.isEmpty || plan.newOrderAttribute != nil { changes = true }
      plans[entity.name] = plan
    }
    self.entities = plans
    self.changesObjects = changes
  }

  /// The `--set` value for `property` of the target's `entity`: given for it, or for an
  /// entity it inherits from (`Item.kind` covers `Note`, a sub-entity of `Item`), the nearest first.
  private static func setting(
    _ property: String, of entity: Int, in model: Model, _ settings: MigrationSettings
  ) -> String? {
    var current: Int? = entity
    while let index = current {
      if let value = settings.values["\(model.entities[index].name).\(property)"] { return value }
      current = model.entities[index].parent
    }
    return nil
  }

  /// The `--set` names (`Entity.property`) that name no property of an entity of the target:
  /// a typo, said rather than ignored.
  public static func unknownSettings(_ settings: MigrationSettings, in model: Model) -> [String] {
    settings.values.keys.sorted().filter { key in
      guard let dot = key.firstIndex(of: "."), let entity = model.entity(named: String(key[..<dot])) else {
        return true
      }
      let property = String(key[key.index(after: dot)...])
      return model.entities[entity].attributeIndex[property] == nil
        && model.entities[entity].relationshipIndex[property] == nil
    }
  }

  /// Whether `relationship` is the to-one inverse of a containment (nesting writes it).
  private static func isImpliedByNesting(_ relationship: Relationship, in model: Model) -> Bool {
    guard let destination = relationship.destination, let inverse = relationship.inverse else { return false }
    return model.entities[destination].relationships[inverse].isContainment
  }
}
