import OutlineCore
import OutlineXML

/// One version of a model bundle: its name (`Tasks 2`) and the loaded model.
public struct ModelVersion: Sendable {
  /// The version's name: the `.xcdatamodel` folder's name without the extension.
  public var name: String
  /// The loaded, resolved model of this version.
  public var model: Model
  /// Per entity name, its version hash (``VersionHash/entity(_:in:)``).
  public var entityHashes: [String: String]

  /// A version named `name` holding `model`; the hashes are computed here.
  public init(name: String, model: Model) {
    self.name = name
    self.model = model
    var hashes: [String: String] = [:]
    for index in model.entities.indices {
      hashes[model.entities[index].name] = VersionHash.entity(index, in: model)
    }
    entityHashes = hashes
  }
}

/// Every version of a model, oldest first, and which one is current.
///
/// A single `.xcdatamodel` or `contents` file is a history of one version.
public struct ModelHistory: Sendable {
  /// The versions in version order (`Tasks`, `Tasks 2`, ... `Tasks 10`).
  public var versions: [ModelVersion]
  /// The index of the current version (`.xccurrentversion`, else the newest).
  public var current: Int
  /// The bundle's path, when the history came from a `.xcdatamodeld`.
  public var bundlePath: String?

  /// A history of `versions` whose current one is at `current`.
  public init(versions: [ModelVersion], current: Int, bundlePath: String? = nil) {
    self.versions = versions
    self.current = current
    self.bundlePath = bundlePath
  }

  /// The index of the version called `name` (with or without `.xcdatamodel`).
  public func index(named name: String) -> Int? {
    let stem = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    return versions.firstIndex { $0.name == stem }
  }

  /// The names of the versions, for messages.
  public var names: [String] { versions.map(\.name) }
}

/// Version hashes over what Core Data hashes.
///
/// `NSEntityDescription.versionHash` covers the entity's name, whether it is
/// abstract, its super-entity's hash, its `versionHashModifier` and the hash
/// of every property; `NSPropertyDescription.versionHash` covers the name,
/// optionality, transience and the modifier, plus the attribute type or the
/// relationship's destination, cardinality (to-many, min and max count) and
/// ordering. User info, default values, validation rules, renaming identifiers
/// and deletion rules are left out, as Core Data leaves them out. The digest
/// itself is FNV-1a 64 (not Core Data's bytes): two versions hash alike
/// exactly when Core Data would consider the entity unchanged.
public enum VersionHash {
  /// The hash of entity `index` of `model`, as 16 hex digits.
  public static func entity(_ index: Int, in model: Model) -> String {
    var hasher = FNV()
    var current: Int? = index
    var steps = 0
    // The entity, then its ancestors (the super-entity's hash is part of it).
    while let entity = current.map({ model.entities[$0] }), steps <= model.entities.count {
      hasher.add("entity", entity.name, entity.isAbstract ? "abstract" : "concrete")
      hasher.add("modifier", model.xmlValue(entity.ranges["versionHashModifier"]) ?? "")
      current = entity.parent
      steps += 1
    }
    let entity = model.entities[index]
    for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
      hasher.add(
        "attribute", attribute.name, attribute.isOptional ? "optional" : "required",
        attribute.isTransient ? "transient" : "stored", attribute.typeName,
        model.xmlValue(attribute.ranges["versionHashModifier"]) ?? "")
    }
    for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
      hasher.add(
        "relationship", relationship.name, relationship.isOptional ? "optional" : "required",
        relationship.isTransient ? "transient" : "stored", relationship.destinationName ?? "",
        relationship.isToMany ? "many" : "one", relationship.isOrdered ? "ordered" : "unordered",
        relationship.minCount.map(String.init) ?? "", relationship.maxCount.map(String.init) ?? "",
        model.xmlValue(relationship.ranges["versionHashModifier"]) ?? "")
    }
    return hasher.hex
  }

  /// FNV-1a, 64 bits, with a separator between fields.
  struct FNV {
    var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ fields: String...) {
      for field in fields {
        for byte in field.utf8 { mix(byte) }
        mix(0x1F)
      }
      mix(0x1E)
    }

    private mutating func mix(_ byte: UInt8) {
      state ^= UInt64(byte)
      state = state &* 0x100_0000_01b3
    }

    var hex: String {
      let digits = String(state, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
  }
}

extension Model {
  /// The decoded value of the model file's XML attribute at `range`.
  public func xmlValue(_ range: TextRange?) -> String? {
    guard let range, range.end <= source.bytes.count, range.start <= range.end else { return nil }
    return source.bytes.withByteView(range.start..<range.end) { XMLEscaping.decodeAttribute($0) }
  }

  /// The `renamingIdentifier` of entity `index`, when it has one.
  public func renamingIdentifier(ofEntity index: Int) -> String? {
    nonEmpty(xmlValue(entities[index].ranges["renamingIdentifier"]))
  }

  /// The `renamingIdentifier` of an attribute.
  public func renamingIdentifier(of attribute: Attribute) -> String? {
    nonEmpty(xmlValue(attribute.ranges["renamingIdentifier"]))
  }

  /// The `renamingIdentifier` of a relationship.
  public func renamingIdentifier(of relationship: Relationship) -> String? {
    nonEmpty(xmlValue(relationship.ranges["renamingIdentifier"]))
  }

  private func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
