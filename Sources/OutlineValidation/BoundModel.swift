import Foundation
import OutlineCore
import OutlineModel
import OutlineXML

/// A model prepared for the validator's hot path: names as bytes, and the
/// per-entity facts it asks for on every element in flat tables, so an
/// element costs byte comparisons and array reads, no copies of model
/// structs and no strings.
final class BoundModel {
  let model: Model
  let entityNames: [[UInt8]]
  let attributeNames: [[[UInt8]]]
  let relationshipNames: [[[UInt8]]]
  /// Per entity, per attribute: what checking a value of it takes.
  let attributes: [[AttributeInfo]]
  /// Per entity: whether it is abstract.
  let isAbstract: [Bool]
  /// Per entity: the order attribute, or -1.
  let orderAttribute: [Int]
  /// Per entity: the title attribute, or -1.
  let titleAttribute: [Int]
  /// Per entity, per relationship: `ordered="YES"`.
  let isOrdered: [[Bool]]
  /// Per entity: its containment relationships.
  let containments: [[Int]]
  /// Per entity: whether an object can lack something required (an
  /// attribute without default, a relationship nesting does not imply).
  let mayMissRequired: [Bool]
  /// Per entity, per relationship: the relationship's place among the
  /// entity's *tracked* relationships, or -1. A relationship is tracked when
  /// other objects can set it by writing its inverse (its inverse is not a
  /// containment) and the model bounds it (not optional, to-one, minCount or
  /// maxCount): its count is known only when the whole file is read.
  let trackedSlot: [[Int]]
  /// Per entity: how many tracked relationships it has.
  let trackedCount: [Int]
  /// The uniqueness constraints each entity's objects are checked against.
  let uniqueness: UniquenessPlan
  @exclusivity(unchecked) private var lastEntity = -1
  /// parent * count + child: -2 not computed, -1 none, else the child's
  /// relationship that nesting sets (the inverse of its containment).
  @exclusivity(unchecked) private var impliedCache: [Int]
  /// parent * count + child: -2 not computed, -1 none, -3 ambiguous, else the relationship.
  @exclusivity(unchecked) private var containmentCache: [Int]
  @exclusivity(unchecked) private var regexCache: [String: NSRegularExpression?] = [:]

  init(_ model: Model) {
    self.model = model
    let entities = model.entities
    entityNames = entities.map { Array($0.name.utf8) }
    attributeNames = entities.map { $0.attributes.map { Array($0.name.utf8) } }
    relationshipNames = entities.map { $0.relationships.map { Array($0.name.utf8) } }
    isAbstract = entities.map(\.isAbstract)
    attributes = entities.map { $0.attributes.map(AttributeInfo.init) }
    orderAttribute = entities.map { $0.orderAttribute ?? -1 }
    titleAttribute = entities.map { $0.titleAttribute ?? -1 }
    isOrdered = entities.map { $0.relationships.map(\.isOrdered) }
    containments = entities.map(\.containments)
    mayMissRequired = entities.map { entity in
      entity.attributes.enumerated().contains { index, attribute in
        index != entity.orderAttribute && !attribute.isOptional && !attribute.isTransient
          && !attribute.isDerived && attribute.defaultValue == nil
      }
        || entity.relationships.contains { relationship in
          !relationship.isOptional && !relationship.isTransient && !relationship.isContainment
        }
        || entity.relationships.contains { Self.isTracked($0, model: model) }
    }
    var slots: [[Int]] = []
    var counts: [Int] = []
    for entity in entities {
      var count = 0
      slots.append(
        entity.relationships.map { relationship in
          guard Self.isTracked(relationship, model: model) else { return -1 }
          count += 1
          return count - 1
        })
      counts.append(count)
    }
    trackedSlot = slots
    trackedCount = counts
    uniqueness = UniquenessPlan(model)
    containmentCache = [Int](repeating: -2, count: entities.count * entities.count)
    impliedCache = containmentCache
  }

  /// Whether `relationship`'s count depends on objects that write its inverse.
  static func isTracked(_ relationship: Relationship, model: Model) -> Bool {
    guard !relationship.isTransient, let destination = relationship.destination,
      let inverse = relationship.inverse
    else { return false }
    let back = model.entities[destination].relationships[inverse]
    if back.isContainment || back.isTransient { return false }
    return !relationship.isOptional || !relationship.isToMany || relationship.minCount != nil
      || (relationship.maxCount ?? 0) > 0
  }

  /// The relationship of `child` that nesting it in `containment` of
  /// `parent` sets (the containment's inverse), or -1.
  func impliedRelationship(parent: Int, containment: Int, child: Int) -> Int {
    let key = parent * entityNames.count + child
    if impliedCache[key] != -2 { return impliedCache[key] }
    var found = -1
    if let name = model.entities[parent].relationships[containment].inverseName,
      let index = model.entities[child].relationshipIndex[name]
    {
      found = index
    }
    impliedCache[key] = found
    return found
  }

  /// The entity named by `name`.
  func entity(named name: UnsafeBufferPointer<UInt8>) -> Int? {
    if lastEntity >= 0 && XMLName.equals(name, entityNames[lastEntity]) { return lastEntity }
    guard let index = XMLName.index(of: name, in: entityNames) else { return nil }
    lastEntity = index
    return index
  }

  func attribute(_ name: UnsafeBufferPointer<UInt8>, of entity: Int) -> Int? {
    XMLName.index(of: name, in: attributeNames[entity])
  }

  func relationship(_ name: UnsafeBufferPointer<UInt8>, of entity: Int) -> Int? {
    XMLName.index(of: name, in: relationshipNames[entity])
  }

  /// ``Model/containment(of:holding:)``, remembered per pair of entities.
  func containment(of parent: Int, holding child: Int) -> ContainmentMatch {
    let key = parent * entityNames.count + child
    let cached = containmentCache[key]
    switch cached {
    case -1: return .none
    case -2: break
    case -3: return model.containment(of: parent, holding: child)
    default: return .relationship(cached)
    }
    let match = model.containment(of: parent, holding: child)
    switch match {
    case .none: containmentCache[key] = -1
    case .relationship(let index): containmentCache[key] = index
    case .ambiguous: containmentCache[key] = -3
    }
    return match
  }

  /// The compiled `regularExpressionString`, anchored to the whole value.
  func regex(_ pattern: String) -> NSRegularExpression? {
    if let cached = regexCache[pattern] { return cached }
    let compiled = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: [])
    regexCache[pattern] = compiled
    return compiled
  }
}

/// One attribute's declaration, shared by reference so the hot path never
/// copies it, with what checking its values takes.
final class AttributeInfo {
  let declaration: Attribute
  let isTransient: Bool
  /// Whether Core Data computes it (`derived="YES"`).
  let isDerived: Bool
  /// Whether a value needs any check: a typed value, or a String with bounds or a pattern.
  let needsCheck: Bool

  init(_ declaration: Attribute) {
    self.declaration = declaration
    isTransient = declaration.isTransient
    isDerived = declaration.isDerived
    switch declaration.type {
    case .string?:
      needsCheck =
        declaration.minValue != nil || declaration.maxValue != nil
        || declaration.regularExpression != nil
    case .transformable?, .objectID?, .composite?, .undefined?, nil:
      needsCheck = false
    default:
      needsCheck = true
    }
  }
}
