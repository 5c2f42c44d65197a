import OutlineCore

/// The model's uniqueness constraints prepared for the validator (``ModelIndex/uniqueness``): one table
/// per constraint (a sub-entity shares its parent's, since Core Data
/// compares objects across the hierarchy of the entity declaring it).
public struct UniquenessPlan: Sendable {
  /// One constraint as an entity holds it.
  public final class Check: Sendable {
    /// The table its values go into.
    public let table: Int
    /// Its members, by index in the holding entity.
    public let members: [UniquenessConstraint.Member]
    /// Per member: the attribute's type (nil for a relationship).
    public let types: [AttributeType?]
    /// Per member: the attribute's default value, used when the object does not write it.
    public let defaults: [[UInt8]?]
    /// The members' names, for messages.
    public let names: [String]
    /// The entity that declares it, for messages.
    public let declaringEntity: String

    init(table: Int, constraint: UniquenessConstraint, members: [UniquenessConstraint.Member], entity: Entity)
    {
      self.table = table
      self.members = members
      types = members.map {
        if case .attribute(let index) = $0 { entity.attributes[index].type } else { nil }
      }
      defaults = members.map {
        if case .attribute(let index) = $0 {
          entity.attributes[index].defaultValue.map { Array($0.utf8) }
        } else {
          nil
        }
      }
      names = constraint.names
      declaringEntity = constraint.declaringEntity
    }
  }

  /// Per entity: the constraints its objects are checked against.
  public let checks: [[Check]]
  /// Per entity: whether it has any.
  public let hasChecks: [Bool]
  /// How many tables there are.
  public let tableCount: Int

  init(_ entities: [Entity]) {
    var tables: [String: Int] = [:]
    checks = entities.map { entity in
      var seen: [String: Int] = [:]
      var checks: [Check] = []
      for constraint in entity.uniquenessConstraints {
        let position = seen[constraint.declaringEntity, default: 0]
        seen[constraint.declaringEntity] = position + 1
        guard let members = constraint.members else { continue }
        let key = "\(constraint.declaringEntity)\u{0}\(position)"
        let table = tables[key] ?? tables.count
        tables[key] = table
        checks.append(Check(table: table, constraint: constraint, members: members, entity: entity))
      }
      return checks
    }
    hasChecks = checks.map { !$0.isEmpty }
    tableCount = tables.count
  }
}
