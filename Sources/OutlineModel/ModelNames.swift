import OutlineCore
import OutlineXML

/// The names of a model as documents and Core Data read them: whether a document can spell each
/// as an XML name (OM218, an error: an NCName for an entity, an NCName or a prefixed name for a
/// property) and whether it keeps Core Data's naming conventions (OM219)
/// and stays clear of the methods of `NSObject` and `NSManagedObject` (OM220), both warnings.
public enum ModelNames {
  /// What a name of the model names.
  public enum Kind: String, Sendable {
    case entity
    case attribute
    case relationship
    case fetchedProperty = "fetched property"
  }

  /// A name no document can spell: an entity whose name is not an NCName, an attribute or
  /// relationship whose name is neither an NCName nor a prefixed name (``notAttributeName(_:)``).
  public struct Unwritable: Sendable, Equatable {
    /// What it names.
    public var kind: Kind
    /// The name as the message shows it: `Entity` or `Entity.property`.
    public var qualifiedName: String
    /// Why it is not an XML name, e.g. `' ' (U+0020) cannot be in a name`.
    public var reason: String
    /// The range of the `name` value in the model file.
    public var range: TextRange
  }

  /// Whether `name` is an NCName of XML 1.0 (fifth edition): an XML name without a colon, as
  /// libxml2 reads element and attribute names.
  public static func isNCName(_ name: String) -> Bool {
    XMLName.isNCName(name)
  }

  /// Why `name` is not an NCName, or nil when it is.
  public static func notNCName(_ name: String) -> String? {
    var scalars = name.unicodeScalars.makeIterator()
    guard let first = scalars.next() else { return "a name cannot be empty" }
    if !XMLName.isNameStart(first) {
      if first == ":" {
        return "':' cannot be in a name (it would make the part before it a namespace prefix)"
      }
      return XMLName.isNameCharacter(first)
        ? "a name cannot start with \(shown(first))" : "\(shown(first)) cannot be in a name"
    }
    while let scalar = scalars.next() {
      if scalar == ":" {
        return "':' cannot be in a name (it would make the part before it a namespace prefix)"
      }
      if !XMLName.isNameCharacter(scalar) { return "\(shown(scalar)) cannot be in a name" }
    }
    return nil
  }

  /// Why a document cannot write an attribute named `name`, or nil when it can: an NCName other
  /// than `xmlns`, or a qualified name `prefix:local` (two NCNames, the prefix not `xmlns`) that a
  /// document writes under a declaration of its prefix, as `outline import` writes OPML's
  /// namespaced attributes (`xml:` needs none).
  public static func notAttributeName(_ name: String) -> String? {
    if name == "xmlns" { return "written as an attribute, 'xmlns' declares the default namespace instead" }
    guard let colon = name.firstIndex(of: ":") else { return notNCName(name) }
    let prefix = String(name[..<colon])
    let local = String(name[name.index(after: colon)...])
    if prefix.isEmpty || local.isEmpty || local.contains(":") {
      return "a name may hold one ':', between a namespace prefix and a local name, and nothing else"
    }
    if prefix == "xmlns" {
      return "written as an attribute, 'xmlns:\(local)' declares a namespace prefix instead"
    }
    if let problem = notNCName(prefix) {
      return "its prefix \(Excerpt.quoted(prefix)) is not a name: \(problem)"
    }
    if let problem = notNCName(local) {
      return "its local name \(Excerpt.quoted(local)) is not a name: \(problem)"
    }
    return nil
  }

  /// Whether `name` is a qualified attribute name `prefix:local` a document writes under a
  /// declaration of its prefix (``notAttributeName(_:)``).
  public static func isPrefixed(_ name: String) -> Bool {
    name.contains(":") && notAttributeName(name) == nil
  }

  /// A character as a message shows it: quoted, with its code point when it is not a plain one.
  private static func shown(_ scalar: Unicode.Scalar) -> String {
    guard scalar.value <= 0x20 || scalar.value >= 0x7F else { return Excerpt.quoted(String(scalar)) }
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return
      "\(Excerpt.quoted(String(scalar))) (U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex))"
  }

  /// Every entity, attribute and relationship name of `model`'s own declarations (each where it
  /// is declared) that no document can spell, in model order.
  public static func unwritable(in model: Model) -> [Unwritable] {
    unwritable(in: model.entities)
  }

  static func unwritable(in entities: [Entity]) -> [Unwritable] {
    var found: [Unwritable] = []
    for entity in entities {
      if let reason = notNCName(entity.name) {
        found.append(
          Unwritable(kind: .entity, qualifiedName: entity.name, reason: reason, range: entity.nameRange))
      }
      let own: [(Kind, any ModelProperty)] =
        entity.attributes.filter { $0.declaringEntity == entity.name }.map { (.attribute, $0) }
        + entity.relationships.filter { $0.declaringEntity == entity.name }.map { (.relationship, $0) }
      for (kind, property) in own {
        guard let reason = notAttributeName(property.name) else { continue }
        found.append(
          Unwritable(
            kind: kind, qualifiedName: entity.name + "." + property.name, reason: reason,
            range: property.nameRange))
      }
    }
    return found.sorted { $0.range.start < $1.range.start }
  }

  // MARK: Core Data's conventions

  /// The names a property cannot have in Core Data: the methods of `NSObject` (the class and its
  /// protocol) and of `NSManagedObject` that take no parameter, and the properties
  /// `NSManagedObject` declares (a getter `isDeleted` is the property `deleted`). Documentation/Models.md
  /// lists them with the source.
  public static let reserved: Set<String> = [
    // NSObject protocol
    "class", "superclass", "self", "hash", "description", "debugDescription", "isProxy", "zone", "retain",
    "release", "autorelease", "retainCount",
    // NSObject
    "init", "dealloc", "finalize", "copy", "mutableCopy", "classForCoder", "classForKeyedArchiver",
    "autoContentAccessingProxy", "observationInfo",
    // NSManagedObject
    "entity", "objectID", "managedObjectContext", "inserted", "isInserted", "updated", "isUpdated", "deleted",
    "isDeleted", "fault", "isFault", "hasChanges", "hasPersistentChangedValues", "faultingState",
    "changedValues", "changedValuesForCurrentEvent", "awakeFromFetch", "awakeFromInsert", "willSave",
    "didSave",
    "willTurnIntoFault", "didTurnIntoFault", "prepareForDeletion",
  ]

  /// The class that has the method or property `name`, for messages.
  static func owner(ofReserved name: String) -> String {
    let managed: Set<String> = [
      "entity", "objectID", "managedObjectContext", "inserted", "isInserted", "updated", "isUpdated",
      "deleted",
      "isDeleted", "fault", "isFault", "hasChanges", "hasPersistentChangedValues", "faultingState",
      "changedValues", "changedValuesForCurrentEvent", "awakeFromFetch", "awakeFromInsert", "willSave",
      "didSave",
      "willTurnIntoFault", "didTurnIntoFault", "prepareForDeletion",
    ]
    return managed.contains(name) ? "NSManagedObject" : "NSObject"
  }

  /// How `name` (one a document can write) breaks Core Data's naming convention for a `kind`, or nil: an entity
  /// starts with an upper-case letter, a property with a lower-case one, and a name holds only
  /// letters, digits and `_`. A letter without case (`項目`) keeps either convention.
  public static func conventionProblem(_ name: String, kind: Kind) -> String? {
    guard let first = name.unicodeScalars.first else { return nil }
    let properties = first.properties
    if kind == .entity {
      if !properties.isAlphabetic {
        return
          "starts with \(shown(first)), not a letter; Core Data names an entity like a class, with an upper-case first letter"
      }
      if properties.generalCategory == .lowercaseLetter {
        return
          "starts with a lower-case letter; Core Data names an entity like a class, with an upper-case first letter"
      }
    } else {
      if !properties.isAlphabetic {
        return
          "starts with \(shown(first)), not a letter; Core Data names a property with a lower-case first letter"
      }
      if properties.generalCategory == .uppercaseLetter || properties.generalCategory == .titlecaseLetter {
        return "starts with an upper-case letter; Core Data names a property with a lower-case first letter"
      }
    }
    if kind != .entity, let colon = name.firstIndex(of: ":") {
      let prefix = Excerpt.quoted(String(name[..<colon]))
      return
        "holds ':': a document writes it only under a declaration of the namespace prefix \(prefix), as `outline import` writes OPML's namespaced attributes; Core Data's names are letters, digits and '_'"
    }
    for scalar in name.unicodeScalars
    where
      !(scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal || scalar == "_"
      || scalar.properties.generalCategory == .nonspacingMark
      || scalar.properties.generalCategory == .spacingMark)
    {
      let why =
        scalar == "."
        ? "a '.' makes the name a key path to Core Data" : "generated classes cannot hold it in a name"
      return "holds \(shown(scalar)) (\(why)); Core Data's names are letters, digits and '_'"
    }
    return nil
  }
}

extension ModelResolver {
  /// OM218, OM219 and OM220 for the names each entity declares (before inheritance, so a name
  /// is reported once, where it is written).
  mutating func checkNames() {
    for item in ModelNames.unwritable(in: entities) {
      let what: String
      switch item.kind {
      case .entity: what = "Entity \(Excerpt.quoted(item.qualifiedName)) cannot be an XML element name"
      case .attribute, .relationship, .fetchedProperty:
        what =
          "\(item.kind.rawValue.prefix(1).uppercased() + item.kind.rawValue.dropFirst()) \(Excerpt.quoted(item.qualifiedName)) cannot be an XML attribute name"
      }
      report(.nameNotXMLName, "\(what), so no document can write it: \(item.reason)", at: item.range)
    }
    for entity in entities {
      if ModelNames.isNCName(entity.name),
        let problem = ModelNames.conventionProblem(entity.name, kind: .entity)
      {
        report(.nameConvention, "Entity name \(Excerpt.quoted(entity.name)) \(problem)", at: entity.nameRange)
      }
      var own: [(ModelNames.Kind, String, TextRange)] = []
      own += entity.attributes.filter { $0.declaringEntity == entity.name }.map {
        (.attribute, $0.name, $0.nameRange)
      }
      own += entity.relationships.filter { $0.declaringEntity == entity.name }.map {
        (.relationship, $0.name, $0.nameRange)
      }
      own += entity.fetchedProperties.filter { $0.declaringEntity == entity.name }.map {
        (.fetchedProperty, $0.name, $0.nameRange)
      }
      for (kind, name, range) in own {
        let label =
          "\(kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()) name \(Excerpt.quoted(entity.name + "." + name))"
        if ModelNames.reserved.contains(name) {
          report(
            .reservedName,
            "\(label) is reserved: \(ModelNames.owner(ofReserved: name)) has a property or method of that name, and Core Data does not allow a property the name of a method of NSObject or NSManagedObject that takes no parameter (the object may answer its own, not the stored value); rename it",
            at: range)
        } else if kind == .fetchedProperty || ModelNames.notAttributeName(name) == nil,
          let problem = ModelNames.conventionProblem(name, kind: kind)
        {
          report(.nameConvention, "\(label) \(problem)", at: range)
        }
      }
    }
  }
}
