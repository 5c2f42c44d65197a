// The one place model facts are computed: built once when a model is loaded (``Model/index``) and read by the
// validator, the converters, the editor features and the templates. Facts are flat arrays per entity (names as
// bytes, kinds, required properties, containment per pair of entities), so the hot paths cost byte
// comparisons and array reads, never a copy of a model struct or a string.

import Foundation
import OutlineCore
import OutlineXML

extension Attribute {
  /// Whether Core Data stores it (not transient, not derived).
  public var isStored: Bool { !isTransient && !isDerived }
  /// Whether a document must write it: stored, not optional, no default.
  public var isRequired: Bool { !isOptional && isStored && defaultValue == nil }
}

extension Relationship {
  /// Whether an object must write it: stored, not optional, and not a containment (children are nested).
  public var isRequired: Bool { !isOptional && !isTransient && !isContainment }
}

/// What a relationship is in a document: nested children, or ids written as an attribute.
public enum RelationshipKind: Sendable, Equatable {
  /// To-many with a to-one inverse: its objects are nested children.
  case containment
  /// To-many, written as space-separated ids.
  case toMany
  /// To-one, written as one id.
  case toOne
}

/// One attribute's declaration with what checking and writing its values takes,
/// shared by reference so the hot paths never copy it.
public final class AttributeFacts: @unchecked Sendable {
  /// The attribute as the model declares it.
  public let declaration: Attribute
  /// What kind of value it holds (a String for an unknown type).
  public let valueKind: ValueKind
  /// Whether Core Data stores it not (`transient="YES"`).
  public let isTransient: Bool
  /// Whether Core Data computes it (`derived="YES"`).
  public let isDerived: Bool
  /// Whether a value needs any check: a typed value, or a String with bounds or a pattern.
  public let needsCheck: Bool
  /// Whether a value needs nothing beyond being read: stored, and neither typed nor constrained.
  public var isPlain: Bool { !isTransient && !isDerived && !needsCheck }
  /// `minValueString` and `maxValueString` as numbers, when they are numbers.
  public let minimum: Double?
  public let maximum: Double?
  /// The compiled `regularExpressionString`, anchored to the whole value; nil when
  /// absent or when it does not compile (OM reports that). `NSRegularExpression`
  /// is immutable and safe to share between threads.
  public let pattern: NSRegularExpression?

  init(_ declaration: Attribute) {
    self.declaration = declaration
    valueKind = declaration.type?.valueKind ?? .string
    isTransient = declaration.isTransient
    isDerived = declaration.isDerived
    switch declaration.type?.valueKind {
    case .string?:
      needsCheck =
        declaration.minValue != nil || declaration.maxValue != nil || declaration.regularExpression != nil
    case .integer?, .number?, .boolean?, .text?:
      needsCheck = true
    case .opaque?, nil:
      needsCheck = false
    }
    minimum = declaration.minValue.flatMap(ModelValues.number)
    maximum = declaration.maxValue.flatMap(ModelValues.number)
    // The whole value, as Core Data's MATCHES takes it: `\A` and `\z`, not `^` and `$`, which
    // also match before a final line end (`abc\n` matched `[a-z]+`).
    pattern = declaration.regularExpression.flatMap {
      try? NSRegularExpression(pattern: "\\A(?:" + $0 + ")\\z", options: [])
    }
  }
}

/// Every fact about a loaded model that validating, converting or editing a
/// document asks for, computed once per model load and never changed.
///
/// Entities, attributes and relationships are numbered as in ``Model``
/// (inherited properties included, the parent's first); per-entity arrays
/// are indexed by entity, then by property.
public final class ModelIndex: @unchecked Sendable {
  /// The entities, with inheritance resolved (the model's own array, shared).
  public let entities: [Entity]
  /// Per entity: its name's bytes.
  public let entityNames: [[UInt8]]
  /// Per entity: whether its name can be written as an XML element name.
  public let entityNameIsXMLName: [Bool]
  /// Per entity: its keys' bytes, attributes first, then relationships.
  public let keys: [[[UInt8]]]
  /// Per entity, per key (attributes, then relationships): whether it can be written as an XML attribute name.
  public let keyIsXMLName: [[Bool]]
  /// Per entity: how many attributes it has (its first keys).
  public let attributeCount: [Int]
  /// Per entity, per attribute: its facts.
  public let attributes: [[AttributeFacts]]
  /// Per entity, per relationship: what it is in a document.
  public let relationshipKinds: [[RelationshipKind]]
  /// Per entity, per relationship: the destination entity, when it resolved.
  public let destinations: [[Int?]]
  /// Per entity, per relationship: `ordered="YES"`.
  public let isOrdered: [[Bool]]
  /// Per entity: whether it is abstract.
  public let isAbstract: [Bool]
  /// Per entity: the attribute that orders siblings, or -1.
  public let orderAttribute: [Int]
  /// Per entity: the attribute that names an object, or -1.
  public let titleAttribute: [Int]
  /// Per entity: its containment relationships.
  public let containments: [[Int]]
  /// Per entity: the attributes a document must write (``Attribute/isRequired``), and the order
  /// attribute when it is stored and not optional (a missing order is OL400 where siblings are numbered).
  public let requiredAttributes: [[Int]]
  /// Per entity: whether an object can lack something required (an
  /// attribute without default, a relationship nesting does not imply, a tracked one).
  public let mayMissRequired: [Bool]
  /// Per entity: whether the number of its children in some containment is checked (a
  /// containment that is required, has a minimum or maximum count, or is tracked): when not,
  /// closing an object counts nothing.
  public let countsChildren: [Bool]
  /// Per entity, per relationship: the relationship's place among the
  /// entity's *tracked* relationships, or -1. A relationship is tracked when
  /// other objects can set it by writing its inverse (its inverse is not a
  /// containment) and the model bounds it (not optional, to-one, minCount or
  /// maxCount): its count is known only when the whole file is read.
  public let trackedSlot: [[Int]]
  /// Per entity: how many tracked relationships it has.
  public let trackedCount: [Int]
  /// The uniqueness constraints each entity's objects are checked against.
  public let uniqueness: UniquenessPlan
  /// Per parent entity (empty when it contains nothing), per child entity: the
  /// containment relationship that holds the child, -1 for none, -3 when ambiguous.
  private let containmentRows: [[Int]]
  /// Per parent entity, per child entity: the child's relationship that
  /// nesting sets (the inverse of the containment that holds it), or -1.
  private let impliedRows: [[Int]]

  init(entities: [Entity]) {
    self.entities = entities
    entityNames = entities.map { Array($0.name.utf8) }
    entityNameIsXMLName = entities.map { ModelNames.isNCName($0.name) }
    keys = entities.map {
      $0.attributes.map { Array($0.name.utf8) } + $0.relationships.map { Array($0.name.utf8) }
    }
    keyIsXMLName = entities.map { entity in
      entity.attributes.map { ModelNames.isNCName($0.name) }
        + entity.relationships.map { ModelNames.isNCName($0.name) }
    }
    attributeCount = entities.map(\.attributes.count)
    attributes = entities.map { $0.attributes.map(AttributeFacts.init) }
    relationshipKinds = entities.map { entity in
      entity.relationships.map { $0.isContainment ? .containment : $0.isToMany ? .toMany : .toOne }
    }
    destinations = entities.map { $0.relationships.map(\.destination) }
    isOrdered = entities.map { $0.relationships.map(\.isOrdered) }
    isAbstract = entities.map(\.isAbstract)
    orderAttribute = entities.map { $0.orderAttribute ?? -1 }
    titleAttribute = entities.map { $0.titleAttribute ?? -1 }
    containments = entities.map(\.containments)
    requiredAttributes = entities.map { entity in
      entity.attributes.indices.filter { index in
        let attribute = entity.attributes[index]
        return attribute.isRequired
          || (index == entity.orderAttribute && !attribute.isOptional && attribute.isStored)
      }
    }
    var slots: [[Int]] = []
    var counts: [Int] = []
    for entity in entities {
      var count = 0
      slots.append(
        entity.relationships.map { relationship in
          guard Self.isTracked(relationship, in: entities) else { return -1 }
          count += 1
          return count - 1
        })
      counts.append(count)
    }
    trackedSlot = slots
    trackedCount = counts
    mayMissRequired = entities.indices.map { index in
      entities[index].attributes.indices.contains {
        $0 != entities[index].orderAttribute && entities[index].attributes[$0].isRequired
      }
        || entities[index].relationships.contains(where: \.isRequired) || counts[index] > 0
    }
    countsChildren = entities.indices.map { index in
      entities[index].containments.contains { containment in
        let relationship = entities[index].relationships[containment]
        return slots[index][containment] >= 0 || !relationship.isOptional || relationship.minCount != nil
          || relationship.maxCount != nil
      }
    }
    uniqueness = UniquenessPlan(entities)
    var rows: [[Int]] = []
    var implied: [[Int]] = []
    for parent in entities.indices {
      guard !entities[parent].containments.isEmpty else {
        rows.append([])
        implied.append([])
        continue
      }
      var row: [Int] = []
      var impliedRow: [Int] = []
      for child in entities.indices {
        switch Self.containmentMatch(of: parent, holding: child, in: entities) {
        case .none:
          row.append(-1)
          impliedRow.append(-1)
        case .ambiguous:
          row.append(-3)
          impliedRow.append(-1)
        case .relationship(let index):
          row.append(index)
          let inverse = entities[parent].relationships[index].inverseName
          impliedRow.append(inverse.flatMap { entities[child].relationshipIndex[$0] } ?? -1)
        }
      }
      rows.append(row)
      implied.append(impliedRow)
    }
    containmentRows = rows
    impliedRows = implied
  }

  /// Whether `relationship`'s count depends on objects that write its inverse.
  private static func isTracked(_ relationship: Relationship, in entities: [Entity]) -> Bool {
    guard !relationship.isTransient, let destination = relationship.destination,
      let inverse = relationship.inverse
    else { return false }
    let back = entities[destination].relationships[inverse]
    if back.isContainment || back.isTransient { return false }
    return !relationship.isOptional || !relationship.isToMany || relationship.minCount != nil
      || (relationship.maxCount ?? 0) > 0
  }

  // MARK: Questions

  /// The entity whose name `name` spells; `hint` (the last one found, or any
  /// number) is tried first and updated, so a run of one entity costs one comparison.
  @inlinable
  public func entity(named name: ByteView, hint: inout Int) -> Int? {
    if hint >= 0 && hint < entityNames.count && XMLName.equals(name, entityNames[hint]) { return hint }
    guard let index = XMLName.index(of: name, in: entityNames) else { return nil }
    hint = index
    return index
  }

  /// The attribute of `entity` whose name `name` spells.
  @inlinable
  public func attribute(_ name: ByteView, of entity: Int) -> Int? {
    let keys = keys[entity]
    for index in 0..<attributeCount[entity] where XMLName.equals(name, keys[index]) { return index }
    return nil
  }

  /// The relationship of `entity` whose name `name` spells.
  @inlinable
  public func relationship(_ name: ByteView, of entity: Int) -> Int? {
    let keys = keys[entity]
    let first = attributeCount[entity]
    for index in first..<keys.count where XMLName.equals(name, keys[index]) { return index - first }
    return nil
  }

  /// The key (attribute, or relationship after the attributes) of `entity` whose name `name` spells.
  @inlinable
  public func key(_ name: ByteView, of entity: Int) -> Int? {
    XMLName.index(of: name, in: keys[entity])
  }

  /// The attribute of `entity` named `name`.
  public func attribute(named name: String, of entity: Int) -> Int? { entities[entity].attributeIndex[name] }

  /// The relationship of `entity` named `name`.
  public func relationship(named name: String, of entity: Int) -> Int? {
    entities[entity].relationshipIndex[name]
  }

  /// Whether entity `index` is `ancestor` or inherits from it.
  public func isKind(_ index: Int, of ancestor: Int) -> Bool {
    Self.isKind(index, of: ancestor, in: entities)
  }

  /// How a child of entity `child` fits under a parent of entity `parent` (see ``Model/containment(of:holding:)``).
  public func containment(of parent: Int, holding child: Int) -> ContainmentMatch {
    let row = containmentRows[parent]
    if row.isEmpty { return .none }
    switch row[child] {
    case -1: return .none
    case -3: return Self.containmentMatch(of: parent, holding: child, in: entities)
    case let index: return .relationship(index)
    }
  }

  /// The containment relationship that holds `child` under `parent`, or -1 when none or several could.
  @inlinable
  public func containmentIndex(of parent: Int, holding child: Int) -> Int {
    let index = containmentRow(parent, child)
    return index >= 0 ? index : -1
  }

  @usableFromInline
  func containmentRow(_ parent: Int, _ child: Int) -> Int {
    let row = containmentRows[parent]
    return row.isEmpty ? -1 : row[child]
  }

  /// The relationship of `child` that nesting it under `parent` sets (the inverse of the containment), or -1.
  public func impliedRelationship(parent: Int, child: Int) -> Int {
    let row = impliedRows[parent]
    return row.isEmpty ? -1 : row[child]
  }

  static func isKind(_ index: Int, of ancestor: Int, in entities: [Entity]) -> Bool {
    var current: Int? = index
    var steps = 0
    while let entity = current, steps <= entities.count {
      if entity == ancestor { return true }
      current = entities[entity].parent
      steps += 1
    }
    return false
  }

  static func containmentMatch(of parent: Int, holding child: Int, in entities: [Entity]) -> ContainmentMatch
  {
    let entity = entities[parent]
    var candidates: [Int] = []
    for index in entity.containments {
      if let destination = entity.relationships[index].destination,
        isKind(child, of: destination, in: entities)
      {
        candidates.append(index)
      }
    }
    if candidates.isEmpty { return .none }
    if candidates.count == 1 { return .relationship(candidates[0]) }
    let marked = candidates.filter {
      ModelValues.boolean(entity.relationships[$0].userInfo("outline.containment")) == true
    }
    if marked.count == 1 { return .relationship(marked[0]) }
    return .ambiguous(candidates)
  }
}
