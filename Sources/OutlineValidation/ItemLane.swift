import OutlineCore
import OutlineModel
import OutlineXML

/// The validator's lane for the start tag nearly every element of a large file is: an object
/// of the entity the one before it was, under a parent that contains it, whose attributes are
/// all of the model (plain ones, its title, its order as a small number, its `xml:id`), and
/// that can lack nothing required. Such a tag is taken in one pass over its attributes that
/// decides before it changes anything; any other tag goes the general way
/// (``OutlineValidator/startElement(_:)``), which reports what the lane left to it. The two
/// ways leave the validator in the same state and report the same (`ItemLaneTests` runs every
/// document both ways).
///
/// Where the general way asks the model for the entity, its containment and each attribute in
/// turn, the lane reads flat tables made once per model (``ItemLaneTable``).
struct ItemLaneTable: ~Copyable {
  /// One attribute of an entity as the lane matches it: the name's length and first eight
  /// bytes (as ``KeyLookup``), its index, and what it is to the lane.
  struct Key {
    var length: Int
    var prefix: UInt64
    var attribute: Int
    /// Where the name's bytes are in `names` (compared whole when longer than eight).
    var nameStart: Int
    var role: Role
    /// Whether it is the entity's title attribute.
    var isTitle: Bool
  }

  enum Role: UInt8 {
    /// Stored, untyped, unconstrained: nothing to check.
    case plain
    /// The entity's order attribute.
    case order
    /// An attribute whose value the general way checks (``OutlineValidator/checkAttributeValue``).
    case checked
  }

  /// Per entity: whether its objects may take the lane, and where its keys are in `keys`.
  struct Entity {
    var takesLane: Bool
    /// Whether its objects' keys go into uniqueness tables (every member of its constraints
    /// is an attribute: a relationship member is the general way's).
    var recordsKeys: Bool
    /// A bit per attribute an object must write (``Attribute/isRequired``; not the order,
    /// whose absence is OL400): a tag without one goes the general way, which reports it.
    var requiredAttributes: UInt64
    var nameLength: Int
    var namePrefix: UInt64
    var firstKey: Int
    var keyCount: Int
  }

  /// Per entity (`entityCount` of them), per key, and the names' bytes: memory of the table's
  /// own, read through pointers on every start tag (arrays were retained and released there).
  private(set) var entities: UnsafeMutablePointer<Entity>
  private(set) var entityCount: Int
  private(set) var keys: UnsafeMutablePointer<Key>
  private(set) var names: UnsafeMutablePointer<UInt8>

  /// A table for no model: no entity takes the lane.
  init() {
    entities = .allocate(capacity: 1)
    entityCount = 0
    keys = .allocate(capacity: 1)
    names = .allocate(capacity: 1)
  }

  init(_ schema: ModelIndex) {
    var entityList: [Entity] = []
    var keyList: [Key] = []
    var nameBytes: [UInt8] = []
    for entity in schema.entities.indices {
      let name = schema.entityNames[entity]
      let attributeCount = schema.attributeCount[entity]
      let recordsKeys = schema.uniqueness.hasChecks[entity]
      let keysOfAttributes = schema.uniqueness.checks[entity].allSatisfy { check in
        check.members.allSatisfy { if case .attribute = $0 { true } else { false } }
      }
      let takesLane =
        !schema.isAbstract[entity] && attributeCount <= 64 && keysOfAttributes
        && schema.entityNameIsXMLName[entity]
      var required: UInt64 = 0
      for attribute in schema.requiredAttributes[entity]
      where attribute < 64 && attribute != schema.orderAttribute[entity] {
        required |= 1 << UInt64(attribute)
      }
      let first = keyList.count
      for attribute in 0..<attributeCount {
        let bytes = schema.keys[entity][attribute]
        let role: Role =
          attribute == schema.orderAttribute[entity]
          ? .order : schema.attributes[entity][attribute].isPlain ? .plain : .checked
        keyList.append(
          Key(
            length: bytes.count, prefix: bytes.withUnsafeBufferPointer(KeyLookup.prefix),
            attribute: attribute, nameStart: nameBytes.count, role: role,
            isTitle: attribute == schema.titleAttribute[entity]))
        nameBytes.append(contentsOf: bytes)
      }
      entityList.append(
        Entity(
          takesLane: takesLane, recordsKeys: recordsKeys, requiredAttributes: required,
          nameLength: name.count,
          namePrefix: name.withUnsafeBufferPointer(KeyLookup.prefix), firstKey: first,
          keyCount: keyList.count - first))
    }
    entityCount = entityList.count
    entities = .allocate(capacity: max(1, entityList.count))
    entities.initialize(from: entityList, count: entityList.count)
    keys = .allocate(capacity: max(1, keyList.count))
    keys.initialize(from: keyList, count: keyList.count)
    names = .allocate(capacity: max(1, nameBytes.count))
    names.initialize(from: nameBytes, count: nameBytes.count)
  }

  deinit {
    entities.deallocate()
    keys.deallocate()
    names.deallocate()
  }
}

extension OutlineValidator {
  /// Takes `tag`, a start tag under the open element `parent` (at `parentFrame`), the lane's
  /// way when it can; returns false, having changed nothing, when it goes the general way.
  @inline(__always)
  func takeLane(_ tag: StartTag, parentFrame: Int, parentEntity: Int, entity: Int, schema: ModelIndex)
    -> Bool
  {
    guard let base = tag.unsafeBytes.baseAddress, !SizeRule.exceeds(tag.unsafeBytes.count),
      tag.unsafeAttributes.count <= 64
    else { return false }
    guard entity < lane.entityCount else { return false }
    let plan = lane.entities[entity]
    let nameLength = tag.nameEnd - 1
    guard plan.takesLane, plan.nameLength == nameLength,
      plan.namePrefix == KeyLookup.prefix(UnsafeBufferPointer(start: base + 1, count: nameLength)),
      nameLength <= 8 || XMLName.equals(tag.name, schema.entityNames[entity]),
      laneContainment(parent: parentEntity, child: entity, schema: schema)
    else { return false }
    let relationship = laneRelationship

    var order: Int64 = 0
    var orderIndex = -1
    var titleIndex = -1
    var idIndex = -1
    var checked: UInt64 = 0
    var present: UInt64 = 0
    let attributes = tag.unsafeAttributes
    let keys = lane.keys
    let names = lane.names
    for index in 0..<attributes.count {
      let attribute = attributes[index]
      let name = base + Int(attribute.nameStart)
      let length = Int(attribute.nameEnd &- attribute.nameStart)
      if XMLName.isXMLID(name, length: length) {
        idIndex = index
        continue
      }
      let prefix = KeyLookup.prefix(UnsafeBufferPointer(start: name, count: length))
      var found = -1
      for key in plan.firstKey..<plan.firstKey + plan.keyCount
      where keys[key].length == length && keys[key].prefix == prefix
        && (length <= 8 || memcmp(names + keys[key].nameStart, name, length) == 0)
      {
        found = key
        break
      }
      guard found >= 0 else { return false }
      present |= 1 &<< UInt64(keys[found].attribute)
      if plan.recordsKeys { laneKeyTags[keys[found].attribute] = Int32(truncatingIfNeeded: index) }
      switch keys[found].role {
      case .order:
        guard
          let value = Self.smallOrder(
            base + Int(attribute.valueStart), Int(attribute.valueEnd &- attribute.valueStart))
        else { return false }
        order = value
        orderIndex = index
        continue
      case .plain: break
      case .checked:
        laneAttributes[index] = Int32(truncatingIfNeeded: keys[found].attribute)
        checked |= 1 &<< UInt64(index)
      }
      if keys[found].isTitle { titleIndex = index }
    }
    guard plan.requiredAttributes & ~present == 0 else { return false }

    // Decided: from here on, what the general way does for the same tag.
    suppression.elementStarted(tag.range)
    var findings = AttributeFindings()
    if orderIndex >= 0 {
      findings.order = order
      findings.orderRange = tag.valueRange(of: orderIndex)
    }
    if titleIndex >= 0 {
      findings.titleRange = tag.valueRange(of: titleIndex)
      findings.titleIndex = titleIndex
    }
    while checked != 0 {
      let index = checked.trailingZeroBitCount
      checked &= checked - 1
      checkAttributeValue(
        tag, index: index, attribute: Int(laneAttributes[index]), entity: entity, schema: schema)
    }
    if idIndex >= 0 {
      findings.idRange = tag.valueRange(of: idIndex)
      defineID(tag, index: idIndex, entity: entity, schema: schema, findings: &findings)
    }
    if plan.recordsKeys {
      // Every member an attribute: no relationship written or implied is asked for.
      let tags = laneKeyTags
      uniqueness.record(
        tag, entity: entity,
        attributeTag: { present & (1 &<< UInt64($0)) != 0 ? Int(tags[$0]) : -1 }, written: [],
        implied: -1, parentID: { "" }, schema: schema)
    }
    recordChild(
      entity: entity, relationship: relationship, parentFrame: parentFrame, order: findings.order,
      orderRange: findings.orderRange, nameRange: tag.nameRange, isNumbered: laneIsNumbered, schema: schema)
    pushFrame(tag, entity: entity, relationship: relationship, isRoot: false, findings: findings)
    laneTags += 1
    return true
  }

  /// Whether a containment of `parent` holds `child` (then `laneRelationship`, and whether its
  /// children are numbered, `laneIsNumbered`): the pair asked last is remembered, since
  /// siblings mostly share it.
  @inline(__always)
  private func laneContainment(parent: Int, child: Int, schema: ModelIndex) -> Bool {
    if parent != laneParent || child != laneChild {
      laneParent = parent
      laneChild = child
      laneRelationship = schema.containmentIndex(of: parent, holding: child)
      laneIsNumbered =
        laneRelationship >= 0 && schema.orderAttribute[child] >= 0
        && !schema.isOrdered[parent][laneRelationship]
      // A required relationship that nesting does not set and that is not counted at the end
      // (``ModelIndex/trackedSlot``) is missing from a tag that writes no relationship.
      let implied = schema.impliedRelationship(parent: parent, child: child)
      let relationships = schema.entities[child].relationships
      laneMissesRelationship = relationships.indices.contains {
        relationships[$0].isRequired && $0 != implied && schema.trackedSlot[child][$0] < 0
      }
    }
    return laneRelationship >= 0 && !laneMissesRelationship
  }

  /// An order of one to four digits, as the general way reads it (``ModelValues/integer(_:)``);
  /// nil for anything else, which the general way reads.
  @inline(__always)
  static func smallOrder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
    guard count > 0, count <= 4 else { return nil }
    var value: Int64 = 0
    for index in 0..<count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value &* 10 &+ Int64(digit)
    }
    return value
  }
}
