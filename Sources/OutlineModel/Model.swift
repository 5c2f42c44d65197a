import OutlineCore

/// What happens to the destination when an object is deleted.
public enum DeletionRule: String, Sendable {
  case nullify = "Nullify"
  case cascade = "Cascade"
  case deny = "Deny"
  case noAction = "No Action"
}

/// One `userInfo` entry with the range of its value in the model file.
public struct UserInfoEntry: Sendable, Hashable {
  /// The entry's key.
  public var key: String
  /// The entry's value.
  public var value: String
  /// Where the value is written.
  public var valueRange: TextRange
}

/// What attributes and relationships have in common: one namespace per entity.
public protocol ModelProperty {
  /// The property name.
  var name: String { get }
  /// The `name` value's range in the model file.
  var nameRange: TextRange { get }
  /// The entity that declares it.
  var declaringEntity: String { get }
}

/// An attribute of an entity, with the ranges of what it was read from.
public struct Attribute: Sendable, ModelProperty {
  /// The property name.
  public var name: String
  /// The type; nil when `attributeType` names no Core Data type.
  public var type: AttributeType?
  /// `attributeType` as written (`Undefined` when absent).
  public var typeName: String
  public var isOptional: Bool
  public var isTransient: Bool
  public var defaultValue: String?
  public var minValue: String?
  public var maxValue: String?
  public var regularExpression: String?
  public var userInfo: [UserInfoEntry]
  /// `derived="YES"`: Core Data computes the value (`derivationExpression`), so a document never needs it.
  public var isDerived = false
  /// The expression a derived attribute is computed by.
  public var derivationExpression: String?
  /// `composite`: the name of the composite type of a `Composite` attribute.
  public var compositeName: String?
  /// The entity that declares it (differs from the holder when inherited).
  public var declaringEntity: String
  /// The `name` value's range, for diagnostics about the attribute as a whole.
  public var nameRange: TextRange
  /// Ranges of individual XML attributes (`attributeType`, `minValueString`...) by their XML name.
  public var ranges: AttributeRanges

  /// The range of XML attribute `key`, or the name's.
  public func range(of key: String) -> TextRange { ranges[key] ?? nameRange }
}

/// A relationship of an entity.
public struct Relationship: Sendable, ModelProperty {
  public var name: String
  public var destinationName: String?
  public var inverseName: String?
  public var isToMany: Bool
  public var isOrdered: Bool
  public var isOptional: Bool
  public var isTransient: Bool
  public var minCount: Int?
  public var maxCount: Int?
  public var deletionRule: DeletionRule
  public var userInfo: [UserInfoEntry]
  public var declaringEntity: String
  public var nameRange: TextRange
  public var ranges: AttributeRanges

  /// Resolved: the destination entity's index.
  public var destination: Int?
  /// Resolved: the inverse's index among the destination's relationships.
  public var inverse: Int?
  /// Resolved: to-many with a to-one inverse, so nesting expresses it.
  public var isContainment = false

  /// The range of XML attribute `key`, or the name's.
  public func range(of key: String) -> TextRange { ranges[key] ?? nameRange }

  /// The value of `userInfo` key `key`.
  public func userInfo(_ key: String) -> String? { userInfo.first { $0.key == key }?.value }
}

/// An entity with every property it has, its parent's first.
public struct Entity: Sendable {
  public var name: String
  public var isAbstract: Bool
  public var parentName: String?
  public var userInfo: [UserInfoEntry]
  public var nameRange: TextRange
  public var ranges: AttributeRanges
  /// Own and inherited attributes; inherited ones first, in the parent's order.
  public var attributes: [Attribute] = []
  /// Own and inherited relationships.
  public var relationships: [Relationship] = []

  /// Resolved: the parent entity's index.
  public var parent: Int?
  /// Resolved: attribute index by name.
  public var attributeIndex: [String: Int] = [:]
  /// Resolved: relationship index by name.
  public var relationshipIndex: [String: Int] = [:]
  /// Resolved: the attribute that orders siblings (`outline.order`, else an integer `order`).
  public var orderAttribute: Int?
  /// Resolved: the attribute that names an object (`outline.title`, else `title`, else `name`).
  public var titleAttribute: Int?
  /// Resolved: indexes of the containment relationships.
  public var containments: [Int] = []
  /// Own and inherited fetched properties (saved queries, never stored).
  public var fetchedProperties: [FetchedProperty] = []
  /// Own and inherited uniqueness constraints, the parent's first.
  public var uniquenessConstraints: [UniquenessConstraint] = []
  /// The properties its own fetch indexes and compound indexes name.
  public var indexReferences: [IndexReference] = []
  /// The range of its start tag (`<entity ...>` or `<entity .../>`).
  public var startTagRange: TextRange?
  /// The range of its end tag (`</entity>`), or nil for `<entity .../>`.
  public var endTagRange: TextRange?
  /// The range of the end tag of its own `userInfo`, when it has one with an end tag.
  public var userInfoEndTagRange: TextRange?

  /// The value of `userInfo` key `key`.
  public func userInfo(_ key: String) -> String? { userInfo.first { $0.key == key }?.value }
  /// The range of XML attribute `key`, or the name's.
  public func range(of key: String) -> TextRange { ranges[key] ?? nameRange }
}

/// A fetched property: a saved query Core Data evaluates on access; it is
/// never stored, so documents never write it.
public struct FetchedProperty: Sendable {
  /// The property name.
  public var name: String
  /// The entity its fetch request fetches, when written.
  public var fetchedEntity: String?
  /// The fetch request's predicate, when written.
  public var predicate: String?
  /// The entity that declares it.
  public var declaringEntity: String
  /// The `name` value's range.
  public var nameRange: TextRange
}

/// A property an index of an entity names: a fetch index element's `property`, or a compound
/// index's `index` `value`.
public struct IndexReference: Sendable {
  /// The property's name, as written.
  public var name: String
  /// The range of the value naming it.
  public var range: TextRange
  /// The index, for messages: "fetch index 'byName'" or "a compound index".
  public var index: String
}

/// A `uniquenessConstraint`: no two objects of its entity (and its
/// sub-entities) may have the same values for all its members.
public struct UniquenessConstraint: Sendable {
  /// A member: an attribute or a to-one relationship, by index in the entity holding the constraint.
  public enum Member: Sendable, Equatable {
    case attribute(Int)
    case relationship(Int)
  }

  /// The members' names, as written.
  public var names: [String]
  /// The range of each `constraint` element's `value`.
  public var ranges: [TextRange]
  /// The entity that declares it: objects of it and its sub-entities are compared with each other.
  public var declaringEntity: String
  /// Resolved, per entity holding it: the members; nil when a name fits no attribute or to-one (OM213).
  public var members: [Member]?
}

/// A `composite` type of the model: named elements a `Composite` attribute holds.
public struct Composite: Sendable {
  /// The composite's name.
  public var name: String
  /// Its elements.
  public var attributes: [Attribute]
  /// The `name` value's range.
  public var nameRange: TextRange
}

/// A loaded, resolved Core Data model and what its checks found.
///
/// A class: every document checked against a model holds it (the validator, the
/// check's result, the model cache's answer), and a run with several jobs shares
/// one model between its threads. As a struct of seven references, each copy
/// retained and each release released all seven (about 90 atomic operations a
/// small file on counts both cores write); a copy is now one. Its fields never
/// change once loaded, so sharing it is what copying it was.
public final class Model: Sendable {
  /// The entities in model order.
  public let entities: [Entity]
  /// Entity index by name.
  public let entityIndex: [String: Int]
  /// The model checks' findings, with ranges in ``source``.
  public let diagnostics: [Diagnostic]
  /// The model file's text.
  public let source: SourceText
  /// Where the model was read from (a display path), if from a file.
  public let path: String?
  /// The composite types, in model order.
  public let composites: [Composite]
  /// Every fact validating, converting and editing a document asks for, computed once when the model was loaded.
  public let index: ModelIndex

  /// A model of resolved entities; builds its ``index``.
  public init(
    entities: [Entity], entityIndex: [String: Int], diagnostics: [Diagnostic], source: SourceText,
    path: String?, composites: [Composite] = []
  ) {
    self.entities = entities
    self.entityIndex = entityIndex
    self.diagnostics = diagnostics
    self.source = source
    self.path = path
    self.composites = composites
    index = ModelIndex(entities: entities)
  }

  /// The index of the entity named `name`.
  public func entity(named name: String) -> Int? { entityIndex[name] }

  /// Whether entity `index` is `ancestor` or inherits from it.
  public func isKind(_ index: Int, of ancestor: Int) -> Bool { self.index.isKind(index, of: ancestor) }

  /// Whether the checks found any error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The default root entity: the first, in model order, with a containment relationship.
  public var defaultRootEntity: Int? { Self.defaultRootEntity(of: entities) }

  /// The default root entity of resolved `entities`: the first, in model order, that is not
  /// abstract and has a containment relationship.
  static func defaultRootEntity(of entities: [Entity]) -> Int? {
    entities.indices.first { !entities[$0].containments.isEmpty && !entities[$0].isAbstract }
  }

  /// The containment relationship of `parent` that holds children of entity `child`.
  ///
  /// Candidates are containment relationships whose destination is `child`'s
  /// entity or an ancestor of it; among several, the one marked
  /// `outline.containment = YES`, else the most specific destination.
  public func containment(of parent: Int, holding child: Int) -> ContainmentMatch {
    index.containment(of: parent, holding: child)
  }
}

/// How a child fits under a parent.
public enum ContainmentMatch: Sendable, Equatable {
  /// No containment relationship takes it.
  case none
  /// This relationship (an index into the parent entity's relationships) takes it.
  case relationship(Int)
  /// Several could, and the model does not say which.
  case ambiguous([Int])
}
