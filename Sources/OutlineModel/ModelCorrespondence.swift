/// Which entity and property of an older model each one of a newer model
/// stands for, the way Core Data's inferred mapping decides it.
///
/// A newer entity or property corresponds to the older one whose name is its
/// `renamingIdentifier` (or its own name when it has none), or that carries
/// the same `renamingIdentifier` (the canonical name kept across versions).
/// Across several versions the steps are composed, so a property renamed in
/// version 2 and again in version 3 still maps from version 1 to 3.
public struct ModelCorrespondence: Sendable {
  /// Per entity of the newer model: the index of the older entity it continues, or nil (new).
  public var entitySource: [Int?]
  /// Per entity of the newer model: its attribute names mapped to the older entity's.
  public var attributeSource: [[String: String]]
  /// Per entity of the newer model: its relationship names mapped to the older entity's.
  public var relationshipSource: [[String: String]]

  /// The correspondence of one step, from `old` to `new`.
  public static func step(from old: Model, to new: Model) -> ModelCorrespondence {
    var entitySource: [Int?] = []
    var attributeSource: [[String: String]] = []
    var relationshipSource: [[String: String]] = []
    var oldByIdentifier: [String: Int] = [:]
    for index in old.entities.indices {
      if let identifier = old.renamingIdentifier(ofEntity: index) { oldByIdentifier[identifier] = index }
    }
    var takenSources = Set<Int>()
    for index in new.entities.indices {
      // As for properties (``match(_:_:)``): an older entity's identifier is matched only by a
      // newer entity's explicit one.
      let identifier = new.renamingIdentifier(ofEntity: index)
      let key = identifier ?? new.entities[index].name
      // Each older entity continues in one newer entity at most: the first in the model (OM215
      // warns of a shared identifier).
      var source = old.entity(named: key) ?? identifier.flatMap { oldByIdentifier[$0] }
      if let found = source, !takenSources.insert(found).inserted { source = nil }
      entitySource.append(source)
      guard let source else {
        attributeSource.append([:])
        relationshipSource.append([:])
        continue
      }
      let oldEntity = old.entities[source]
      let newEntity = new.entities[index]
      attributeSource.append(
        match(
          newEntity.attributes.map { ($0.name, new.renamingIdentifier(of: $0)) },
          oldEntity.attributes.map { ($0.name, old.renamingIdentifier(of: $0)) }))
      relationshipSource.append(
        match(
          newEntity.relationships.map { ($0.name, new.renamingIdentifier(of: $0)) },
          oldEntity.relationships.map { ($0.name, old.renamingIdentifier(of: $0)) }))
    }
    return ModelCorrespondence(
      entitySource: entitySource, attributeSource: attributeSource, relationshipSource: relationshipSource)
  }

  /// The correspondence from the first model of `chain` to its last, step by step.
  public static func across(_ chain: [Model]) -> ModelCorrespondence {
    guard let last = chain.last else {
      return ModelCorrespondence(entitySource: [], attributeSource: [], relationshipSource: [])
    }
    if chain.count == 1 {
      return ModelCorrespondence(
        entitySource: last.entities.indices.map { $0 },
        attributeSource: last.entities.map { identity($0.attributes.map(\.name)) },
        relationshipSource: last.entities.map { identity($0.relationships.map(\.name)) })
    }
    var result = step(from: chain[chain.count - 2], to: last)
    var position = chain.count - 2
    while position > 0 {
      result = result.then(step(from: chain[position - 1], to: chain[position]))
      position -= 1
    }
    return result
  }

  /// This correspondence (newer to middle) composed with `earlier` (middle to older).
  func then(_ earlier: ModelCorrespondence) -> ModelCorrespondence {
    var composed = ModelCorrespondence(entitySource: [], attributeSource: [], relationshipSource: [])
    for index in entitySource.indices {
      guard let middle = entitySource[index], let oldest = earlier.entitySource[middle] else {
        composed.entitySource.append(nil)
        composed.attributeSource.append([:])
        composed.relationshipSource.append([:])
        continue
      }
      composed.entitySource.append(oldest)
      composed.attributeSource.append(
        attributeSource[index].compactMapValues { earlier.attributeSource[middle][$0] })
      composed.relationshipSource.append(
        relationshipSource[index].compactMapValues { earlier.relationshipSource[middle][$0] })
    }
    return composed
  }

  private static func identity(_ names: [String]) -> [String: String] {
    Dictionary(names.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Newer names mapped to older ones: by renaming identifier (or name) against
  /// the older names, then against the older renaming identifiers.
  private static func match(_ new: [(String, String?)], _ old: [(String, String?)]) -> [String: String] {
    var oldNames = Set<String>()
    var oldByIdentifier: [String: String] = [:]
    for (name, identifier) in old {
      oldNames.insert(name)
      if let identifier { oldByIdentifier[identifier] = name }
    }
    // Each older property continues in one newer property at most: first the newer ones whose
    // identifier (or name) is an older name, then those whose explicit identifier an older
    // property carries. A newer property without an identifier is not matched by an older
    // one's identifier: `a`, added beside `b` (renamed from `a`, keeping that identifier), is new.
    var result: [String: String] = [:]
    var taken = Set<String>()
    for (name, identifier) in new where oldNames.contains(identifier ?? name) {
      let key = identifier ?? name
      if taken.insert(key).inserted { result[name] = key }
    }
    for (name, identifier) in new where result[name] == nil {
      guard let identifier, let found = oldByIdentifier[identifier] else { continue }
      if taken.insert(found).inserted { result[name] = found }
    }
    return result
  }
}
