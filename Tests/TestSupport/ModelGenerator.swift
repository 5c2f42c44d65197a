/// A Core Data model made up from a seed, as the `contents` XML Xcode's model editor writes, with the
/// facts a document generator needs to write documents for it (``DocumentGenerator``).
///
/// Every model is legal (`outline model check` finds no error in it) and exercises what the
/// toolchain reads (Documentation/Models.md): every attribute type, optional and required
/// attributes, defaults, min/max bounds, regular expressions, transient and derived attributes,
/// inheritance (`parentEntity`, `isAbstract`, up to two levels), uniqueness constraints (single and
/// compound), composites, to-one, to-many, ordered and many-to-many relationships with inverses,
/// `minCount`/`maxCount`, the containment the format nests by (children/parent, an ordered
/// containment, a root entity that contains or is its own items), the `outline.order` and
/// `outline.title` annotations, and odd but legal names (accents, digits, underscores, long names,
/// the format's own names on entities that are not the root's).
public struct GeneratedModel: Sendable, CustomStringConvertible {
  /// One attribute of an entity.
  public struct Attribute: Sendable {
    public var name: String
    /// The `attributeType`, as Xcode writes it (`Integer 64`, `String`...).
    public var type: String
    public var isOptional: Bool
    public var isTransient = false
    public var isDerived = false
    public var defaultValue: String?
    /// `minValueString` / `maxValueString`: the value's bounds for numbers, its length for a `String`.
    public var minimum: String?
    public var maximum: String?
    /// A `regularExpressionString` and the generator of values that match it (an index into
    /// ``ModelGenerator/patterns``).
    public var pattern: Int?
    /// The composite a `Composite` attribute names.
    public var composite: String?
    /// The `renamingIdentifier`: the name the attribute had in an older version of the model.
    public var renamingIdentifier: String?

    /// An attribute of `type` named `name`, with no default, bounds or pattern.
    public init(name: String, type: String, isOptional: Bool) {
      self.name = name
      self.type = type
      self.isOptional = isOptional
    }

    /// A stored attribute a document must write: not optional, no default, not transient or derived.
    public var isRequired: Bool { !isOptional && defaultValue == nil && !isTransient && !isDerived }
    /// Whether a document may write a value without a warning (OL205, OL206).
    public var isStored: Bool { !isTransient && !isDerived }
  }

  /// One relationship of an entity.
  public struct Relationship: Sendable {
    public var name: String
    public var destination: String
    public var inverse: String
    public var isToMany: Bool
    public var isOrdered = false
    public var isOptional = true
    public var minCount: Int?
    public var maxCount: Int?
    /// A to-many relationship whose inverse is to-one: written by nesting.
    public var isContainment = false
  }

  /// One entity, with its own (not inherited) properties.
  public struct Entity: Sendable {
    public var name: String
    public var parent: String?
    public var isAbstract = false
    public var attributes: [Attribute] = []
    public var relationships: [Relationship] = []
    /// Uniqueness constraints, each a list of attribute names.
    public var uniqueness: [[String]] = []
    /// `userInfo` entries (`outline.order`, `outline.title`).
    public var userInfo: [(key: String, value: String)] = []
  }

  /// The entities in model order.
  public var entities: [Entity]
  /// Composite names and their elements' `(name, attributeType)`.
  public var composites: [(name: String, elements: [(String, String)])]
  /// The entity of `<outline>`: the first entity that is not abstract and has a containment.
  public var rootEntity: String
  /// The entity of nested items (the top of their hierarchy), which may be abstract.
  public var itemEntity: String
  /// The name of the items' order attribute.
  public var orderAttribute: String
  /// The root entity's containment of items.
  public var rootContainment: String
  /// The items' containment of their children.
  public var childContainment: String
  /// The ordered containment of notes, when the model has notes.
  public var noteContainment: String?
  /// The entity of notes (in an ordered containment: no order attribute needed).
  public var noteEntity: String?
  /// The entity of free objects that stand directly under `<outline>`.
  public var tagEntity: String
  /// Items' many-to-many relationship to tags (`tags`), written on items.
  public var itemTags: String
  /// The tags' inverse of ``itemTags``, required with `minCount` 1 when ``tagsNeedMembers``.
  public var tagMembers: String
  public var tagsNeedMembers: Bool
  /// A tag's to-one relationship to an item (its inverse on the item is to-one too).
  public var tagPinned: String
  /// Items' to-many relationship to other items, at most ``relatedMaximum`` ids.
  public var itemRelated: String
  public var relatedMaximum: Int?
  /// The contents file.
  public var text: String

  /// The entity named `name`.
  public func entity(_ name: String) -> Entity {
    entities.first { $0.name == name }!
  }

  /// The entity and its ancestors, the top first.
  public func lineage(_ name: String) -> [Entity] {
    var chain: [Entity] = []
    var next: String? = name
    while let current = next {
      let entity = entity(current)
      chain.insert(entity, at: 0)
      next = entity.parent
    }
    return chain
  }

  /// Every attribute of `name`, inherited ones first, as the toolchain orders them.
  public func attributes(of name: String) -> [Attribute] {
    lineage(name).flatMap(\.attributes)
  }

  /// Every relationship of `name`, inherited ones first.
  public func relationships(of name: String) -> [Relationship] {
    lineage(name).flatMap(\.relationships)
  }

  /// Every uniqueness constraint of `name`, inherited ones too.
  public func uniqueness(of name: String) -> [[String]] {
    lineage(name).flatMap(\.uniqueness)
  }

  /// The entities that are `name` or inherit from it and are not abstract.
  public func concrete(_ name: String) -> [String] {
    entities.filter { candidate in
      !candidate.isAbstract && lineage(candidate.name).contains { $0.name == name }
    }
    .map(\.name)
  }

  /// A summary: each entity with its parent, abstractness and properties.
  public var description: String {
    var lines = ["model (root \(rootEntity), items \(itemEntity) ordered by \(orderAttribute)):"]
    for entity in entities {
      var head = "  \(entity.name)"
      if let parent = entity.parent { head += " : \(parent)" }
      if entity.isAbstract { head += " (abstract)" }
      lines.append(head)
      for attribute in entity.attributes {
        var facts = [attribute.type, attribute.isOptional ? "optional" : "required"]
        if let value = attribute.defaultValue { facts.append("default \(value)") }
        if let value = attribute.minimum { facts.append("min \(value)") }
        if let value = attribute.maximum { facts.append("max \(value)") }
        if let index = attribute.pattern { facts.append("pattern \(ModelGenerator.patterns[index].regex)") }
        if attribute.isTransient { facts.append("transient") }
        if attribute.isDerived { facts.append("derived") }
        lines.append("    \(attribute.name): \(facts.joined(separator: ", "))")
      }
      for relationship in entity.relationships {
        var facts = [
          (relationship.isToMany ? "to-many " : "to-one ") + relationship.destination,
          "inverse \(relationship.inverse)",
        ]
        if relationship.isContainment { facts.append("containment") }
        if relationship.isOrdered { facts.append("ordered") }
        if !relationship.isOptional { facts.append("required") }
        if let count = relationship.minCount { facts.append("min \(count)") }
        if let count = relationship.maxCount, relationship.isToMany { facts.append("max \(count)") }
        lines.append("    \(relationship.name) -> \(facts.joined(separator: ", "))")
      }
      for constraint in entity.uniqueness {
        lines.append("    unique (\(constraint.joined(separator: ", ")))")
      }
    }
    return lines.joined(separator: "\n")
  }
}

/// Makes ``GeneratedModel``s from a seed.
public enum ModelGenerator {
  /// Every attribute type the toolchain reads (Models.md); `Undefined` only for transient attributes.
  public static let attributeTypes = [
    "Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "String", "Boolean", "Date",
    "Binary", "UUID", "URI", "Transformable", "ObjectID", "Composite",
  ]

  /// Regular expressions a `String` attribute may carry, each with an alphabet and the lengths
  /// of the values that match it (every string of those characters and lengths matches).
  public static let patterns: [(regex: String, alphabet: [Character], lengths: ClosedRange<Int>)] = [
    ("[A-Z]{3}", Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 3...3),
    ("[a-z]+", Array("abcdefghijklmnopqrstuvwxyz"), 1...8),
    ("[0-9]{2,4}", Array("0123456789"), 2...4),
    ("[a-zé_ ]*", Array("abcé_ "), 0...6),
  ]

  /// The range of values each integer type holds.
  public static func integerRange(_ type: String) -> ClosedRange<Int64> {
    switch type {
    case "Integer 16": Int64(Int16.min)...Int64(Int16.max)
    case "Integer 32": Int64(Int32.min)...Int64(Int32.max)
    default: Int64.min...Int64.max
    }
  }

  /// A model from `random`.
  public static func generate(using random: inout SeededGenerator) -> GeneratedModel {
    var names = Names()
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }

    // Entity names, each once in the model.
    let hasRoot = chance(60)
    let rootName =
      hasRoot ? names.entity(["Board", "Library", "Werkstatt", "Root_1", "Ärchiv"], &random) : ""
    let itemName = names.entity(["Node", "Item", "Entry", "Étape", "Thing2", "Knoten_x"], &random)
    let tagName = names.entity(["Tag", "Label", "Person", "Ort", "Zèle"], &random)
    let hasNotes = chance(60)
    let noteName = hasNotes ? names.entity(["Note", "Comment", "Anmerkung", "N_"], &random) : nil
    let itemAbstract = chance(45)
    let subCount =
      itemAbstract ? Int.random(in: 1...3, using: &random) : Int.random(in: 0...2, using: &random)
    var subNames: [String] = []
    for _ in 0..<subCount {
      subNames.append(names.entity(["Task", "Folder", "Project", "Étude", "Leaf_9", "Milestone"], &random))
    }

    // The item hierarchy shares one namespace, and so does each other entity.
    var itemSpace = Set<String>()
    var rootSpace = Set<String>()
    var tagSpace = Set<String>()
    var noteSpace = Set<String>()
    // The root entity's properties cannot be the format's names (OM217); the items' when they are the root.
    let formatNames: Set<String> = ["version", "model", "modelVersion", "entity"]
    if hasRoot { rootSpace.formUnion(formatNames) } else { itemSpace.formUnion(formatNames) }

    // The items' order attribute: `order`, or another integer named by `outline.order`.
    let orderName =
      chance(70) ? "order" : names.property(["position", "rang", "sortIndex", "n_o"], &itemSpace, &random)
    itemSpace.insert(orderName)
    var orderAttribute = GeneratedModel.Attribute(
      name: orderName, type: pick(["Integer 16", "Integer 32", "Integer 64"]), isOptional: chance(50))
    if chance(50) { orderAttribute.defaultValue = "0" }
    let titleName = chance(75) ? "title" : names.property(["heading", "label", "größe"], &itemSpace, &random)
    itemSpace.insert(titleName)

    var composites: [(name: String, elements: [(String, String)])] = []
    func attributes(_ count: Int, in space: inout Set<String>) -> [GeneratedModel.Attribute] {
      (0..<count).map { _ in
        var attribute = makeAttribute(name: names.property(Names.properties, &space, &random), using: &random)
        if attribute.type == "Composite" {
          if composites.isEmpty { composites.append(("Point", [("x", "Double"), ("y", "Double")])) }
          attribute.composite = "Point"
        }
        return attribute
      }
    }

    var item = GeneratedModel.Entity(name: itemName, isAbstract: itemAbstract)
    item.attributes =
      [orderAttribute, GeneratedModel.Attribute(name: titleName, type: "String", isOptional: true)]
      + attributes(Int.random(in: 0...4, using: &random), in: &itemSpace)
    if orderName != "order" { item.userInfo.append(("outline.order", orderName)) }
    if titleName != "title" { item.userInfo.append(("outline.title", titleName)) }
    // A key unique among all items of the hierarchy, sometimes.
    if chance(30) {
      let key = names.property(["key", "slug", "kennung"], &itemSpace, &random)
      item.attributes.append(GeneratedModel.Attribute(name: key, type: "String", isOptional: true))
      item.uniqueness.append([key])
    }

    let children = names.property(["children", "kids", "unterpunkte", "subItems"], &itemSpace, &random)
    let parent = names.property(["parent", "owner", "eltern"], &itemSpace, &random)
    item.relationships.append(
      .init(name: children, destination: itemName, inverse: parent, isToMany: true, isContainment: true))
    item.relationships.append(.init(name: parent, destination: itemName, inverse: children, isToMany: false))

    var rootEntity = GeneratedModel.Entity(name: rootName)
    var rootContainment = children
    if hasRoot {
      rootContainment = names.property(["items", "entries", "inhalt"], &rootSpace, &random)
      let home = names.property(["home", "board", "heim"], &itemSpace, &random)
      rootEntity.relationships.append(
        .init(
          name: rootContainment, destination: itemName, inverse: home, isToMany: true, isContainment: true))
      item.relationships.append(
        .init(name: home, destination: rootName, inverse: rootContainment, isToMany: false))
      rootEntity.attributes = attributes(Int.random(in: 0...3, using: &random), in: &rootSpace)
    }

    var note: GeneratedModel.Entity?
    var noteContainment: String?
    if let noteName {
      let notes = names.property(["notes", "comments", "anmerkungen"], &itemSpace, &random)
      let noteOwner = names.property(["node", "subject", "about"], &noteSpace, &random)
      item.relationships.append(
        .init(
          name: notes, destination: noteName, inverse: noteOwner, isToMany: true, isOrdered: true,
          isContainment: true))
      var made = GeneratedModel.Entity(name: noteName)
      noteSpace.insert("text")
      made.attributes =
        [GeneratedModel.Attribute(name: "text", type: "String", isOptional: false)]
        + attributes(Int.random(in: 0...2, using: &random), in: &noteSpace)
      made.relationships.append(
        .init(name: noteOwner, destination: itemName, inverse: notes, isToMany: false))
      note = made
      noteContainment = notes
    }

    // Tags: free objects under the root, named by items (many-to-many) and pinning one item each.
    var tag = GeneratedModel.Entity(name: tagName)
    let tagLabel = names.property(["name", "label", "titel"], &tagSpace, &random)
    tag.attributes =
      [GeneratedModel.Attribute(name: tagLabel, type: "String", isOptional: chance(40))]
      + attributes(Int.random(in: 0...3, using: &random), in: &tagSpace)
    if chance(60) {
      // Single, or compound with an integer attribute when the tag has one.
      var constraint = [tagLabel]
      if chance(40),
        let other = tag.attributes.dropFirst().first(where: { $0.isStored && $0.type == "String" })
      {
        constraint.append(other.name)
      }
      tag.uniqueness.append(constraint)
    }
    let itemTags = names.property(["tags", "labels", "schlagworte"], &itemSpace, &random)
    let tagMembers = names.property(["members", "items", "tagged"], &tagSpace, &random)
    let tagsNeedMembers = chance(25)
    item.relationships.append(
      .init(name: itemTags, destination: tagName, inverse: tagMembers, isToMany: true))
    tag.relationships.append(
      .init(
        name: tagMembers, destination: itemName, inverse: itemTags, isToMany: true,
        isOptional: !tagsNeedMembers, minCount: tagsNeedMembers ? 1 : nil))
    let tagPinned = names.property(["pinned", "favourite", "held"], &tagSpace, &random)
    let pinnedBy = names.property(["pinnedBy", "favouriteOf", "heldBy"], &itemSpace, &random)
    tag.relationships.append(
      .init(name: tagPinned, destination: itemName, inverse: pinnedBy, isToMany: false))
    item.relationships.append(
      .init(name: pinnedBy, destination: tagName, inverse: tagPinned, isToMany: false))
    let related = names.property(["related", "seeAlso", "verwandt"], &itemSpace, &random)
    let relatedBy = names.property(["relatedBy", "seenFrom", "verwandtVon"], &itemSpace, &random)
    let relatedMaximum = chance(40) ? Int.random(in: 1...3, using: &random) : nil
    item.relationships.append(
      .init(
        name: related, destination: itemName, inverse: relatedBy, isToMany: true, maxCount: relatedMaximum))
    item.relationships.append(.init(name: relatedBy, destination: itemName, inverse: related, isToMany: true))

    // Sub-entities of the items, one of them perhaps with a sub-entity of its own.
    var subs: [GeneratedModel.Entity] = []
    for (index, name) in subNames.enumerated() {
      let parentName = index > 0 && chance(30) ? subNames[index - 1] : itemName
      var sub = GeneratedModel.Entity(name: name, parent: parentName)
      sub.isAbstract = false
      sub.attributes = attributes(Int.random(in: 0...3, using: &random), in: &itemSpace)
      // The annotations are read per entity: each sub-entity names the same attributes.
      sub.userInfo = item.userInfo
      subs.append(sub)
    }
    // The first sub-entity of an abstract item may be abstract too, when another one is concrete under it.
    if itemAbstract, subs.count >= 2, subs[1].parent == subs[0].name, chance(50) { subs[0].isAbstract = true }

    // Model order: the root entity first (the default root is the first concrete entity with a containment).
    var entities: [GeneratedModel.Entity] = []
    if hasRoot { entities.append(rootEntity) }
    entities.append(item)
    entities += subs
    if let note { entities.append(note) }
    entities.append(tag)
    if !hasRoot && itemAbstract {
      // The first concrete item entity is the root: keep it before the tags and notes.
      entities = [item] + subs + entities.filter { $0.name != itemName && !subNames.contains($0.name) }
    }

    var model = GeneratedModel(
      entities: entities, composites: composites, rootEntity: "", itemEntity: itemName,
      orderAttribute: orderName,
      rootContainment: rootContainment, childContainment: children, noteContainment: noteContainment,
      noteEntity: noteName, tagEntity: tagName, itemTags: itemTags, tagMembers: tagMembers,
      tagsNeedMembers: tagsNeedMembers, tagPinned: tagPinned, itemRelated: related,
      relatedMaximum: relatedMaximum,
      text: "")
    model.rootEntity = hasRoot ? rootName : model.concrete(itemName).first!
    model.text = contents(model)
    return model
  }

  /// An attribute of a random type with random facts that a model check accepts.
  static func makeAttribute(name: String, using random: inout SeededGenerator) -> GeneratedModel.Attribute {
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    let transient = chance(8)
    let type = transient && chance(30) ? "Undefined" : attributeTypes.randomElement(using: &random)!
    var attribute = GeneratedModel.Attribute(name: name, type: type, isOptional: transient || chance(65))
    attribute.isTransient = transient
    switch type {
    case "Integer 16", "Integer 32", "Integer 64":
      let range = integerRange(type)
      if chance(40) {
        let low = Int64.random(in: -1000...1000, using: &random)
        let high = low + Int64.random(in: 0...2000, using: &random)
        attribute.minimum = chance(80) ? "\(max(low, range.lowerBound))" : nil
        attribute.maximum = "\(min(high, range.upperBound))"
      }
      if chance(35) {
        let high = attribute.maximum.flatMap { Int64($0) } ?? 50
        let low = attribute.minimum.flatMap { Int64($0) } ?? (high - 100)
        attribute.defaultValue = "\(Int64.random(in: low...high, using: &random))"
      }
      if chance(10) && !transient {
        attribute.isDerived = true
        attribute.isOptional = chance(50)
      }
    case "Double", "Float", "Decimal":
      if chance(35) {
        let low = Int.random(in: -100...100, using: &random)
        attribute.minimum = "\(low)"
        attribute.maximum = chance(80) ? "\(low + Int.random(in: 0...500, using: &random))" : nil
      }
      if chance(30) {
        let low = attribute.minimum.flatMap { Int($0) } ?? -10
        let high = attribute.maximum.flatMap { Int($0) } ?? (low + 20)
        let whole = Int.random(in: low...high, using: &random)
        attribute.defaultValue = "\(whole)" + (whole >= 0 && chance(50) ? ".5" : "")
        if let maximum = attribute.maximum.flatMap({ Double($0) }), Double(attribute.defaultValue!)! > maximum
        {
          attribute.defaultValue = attribute.maximum
        }
      }
    case "String":
      if chance(20) {
        attribute.pattern = Int.random(in: 0..<patterns.count, using: &random)
      } else if chance(25) {
        let low = Int.random(in: 0...3, using: &random)
        attribute.minimum = "\(low)"
        attribute.maximum = "\(low + Int.random(in: 0...8, using: &random))"
      }
      if chance(30) && attribute.pattern == nil {
        let length = Int(attribute.minimum ?? "0")! + (attribute.maximum == nil ? 4 : 0)
        attribute.defaultValue = String(repeating: "d", count: max(length, 1))
        if let maximum = attribute.maximum.flatMap({ Int($0) }), maximum < max(length, 1) {
          attribute.defaultValue = nil
        }
      }
    case "Boolean":
      if chance(35) { attribute.defaultValue = chance(50) ? "YES" : "NO" }
    case "Date":
      if chance(10) && !transient {
        attribute.isDerived = true
        attribute.isOptional = chance(50)
      }
    default:
      break
    }
    return attribute
  }

  /// The `contents` file of `model`, laid out as Xcode writes it (``GeneratedModel/text`` once
  /// the model is made; call it again for a model changed since).
  public static func contents(_ model: GeneratedModel) -> String {
    func quoted(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: "\"", with: "&quot;")
    }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
      #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">"#,
    ]
    for entity in model.entities {
      var head = "    <entity name=\"\(quoted(entity.name))\" representedClassName=\"\(quoted(entity.name))\""
      if let parent = entity.parent { head += " parentEntity=\"\(quoted(parent))\"" }
      if entity.isAbstract { head += " isAbstract=\"YES\"" }
      head += " syncable=\"YES\""
      let empty =
        entity.attributes.isEmpty && entity.relationships.isEmpty && entity.uniqueness.isEmpty
        && entity.userInfo.isEmpty
      if empty {
        lines.append(head + "/>")
        continue
      }
      lines.append(head + ">")
      for attribute in entity.attributes {
        var line = "        <attribute name=\"\(quoted(attribute.name))\""
        if attribute.isOptional { line += " optional=\"YES\"" }
        if attribute.isTransient { line += " transient=\"YES\"" }
        line += " attributeType=\"\(attribute.type)\""
        if let value = attribute.minimum { line += " minValueString=\"\(value)\"" }
        if let value = attribute.maximum { line += " maxValueString=\"\(value)\"" }
        if let value = attribute.defaultValue { line += " defaultValueString=\"\(quoted(value))\"" }
        if let index = attribute.pattern {
          line += " regularExpressionString=\"\(quoted(patterns[index].regex))\""
        }
        if attribute.isDerived {
          line +=
            " derived=\"YES\" derivationExpression=\"\(attribute.type == "Date" ? "now()" : "title.length")\""
        }
        if let composite = attribute.composite { line += " composite=\"\(quoted(composite))\"" }
        if let old = attribute.renamingIdentifier { line += " renamingIdentifier=\"\(quoted(old))\"" }
        if attribute.type.hasPrefix("Integer") || ["Double", "Float", "Boolean"].contains(attribute.type) {
          line += " usesScalarValueType=\"YES\""
        }
        lines.append(line + "/>")
      }
      for relationship in entity.relationships {
        var line = "        <relationship name=\"\(quoted(relationship.name))\""
        if relationship.isOptional { line += " optional=\"YES\"" }
        if relationship.isToMany { line += " toMany=\"YES\"" }
        if let count = relationship.minCount { line += " minCount=\"\(count)\"" }
        if relationship.isToMany, let count = relationship.maxCount { line += " maxCount=\"\(count)\"" }
        if !relationship.isToMany { line += " maxCount=\"1\"" }
        line += " deletionRule=\"\(relationship.isContainment ? "Cascade" : "Nullify")\""
        if relationship.isOrdered { line += " ordered=\"YES\"" }
        line += " destinationEntity=\"\(quoted(relationship.destination))\""
        line += " inverseName=\"\(quoted(relationship.inverse))\""
        line += " inverseEntity=\"\(quoted(relationship.destination))\""
        lines.append(line + "/>")
      }
      if !entity.uniqueness.isEmpty {
        lines.append("        <uniquenessConstraints>")
        for constraint in entity.uniqueness {
          lines.append("            <uniquenessConstraint>")
          for member in constraint {
            lines.append("                <constraint value=\"\(quoted(member))\"/>")
          }
          lines.append("            </uniquenessConstraint>")
        }
        lines.append("        </uniquenessConstraints>")
      }
      if !entity.userInfo.isEmpty {
        lines.append("        <userInfo>")
        for (key, value) in entity.userInfo {
          lines.append("            <entry key=\"\(quoted(key))\" value=\"\(quoted(value))\"/>")
        }
        lines.append("        </userInfo>")
      }
      lines.append("    </entity>")
    }
    for composite in model.composites {
      lines.append("    <composite name=\"\(quoted(composite.name))\">")
      for (name, type) in composite.elements {
        lines.append(
          "        <attribute name=\"\(quoted(name))\" optional=\"YES\" attributeType=\"\(type)\"/>")
      }
      lines.append("    </composite>")
    }
    lines.append("</model>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Names drawn from pools of odd but legal ones, each used once where it must be unique.
  struct Names {
    static let properties = [
      "count", "ratio", "weight", "price", "flag", "when", "uid", "link", "blob", "code", "nick", "a", "x2",
      "größe", "ärger", "naïve_value", "snake_case_name", "camelCaseName", "value1", "value_2", "kind",
      "type",
      "id", "data", "version", "model", "entity", "modelVersion", "order_", "titleText", "ünits", "é",
      "aVeryLongAttributeNameThatGoesOnAndOnForALongWhileToSeeWhatHappensWithIt",
    ]

    var entities = Set<String>()

    /// An entity name from `pool` that is not taken, made unique by a number when all are.
    mutating func entity(_ pool: [String], _ random: inout SeededGenerator) -> String {
      var name = pool.randomElement(using: &random)!
      var number = 2
      while entities.contains(name) {
        name = pool.randomElement(using: &random)! + "\(number)"
        number += 1
      }
      entities.insert(name)
      return name
    }

    /// A property name from `pool` not in `space` (then added to it).
    func property(_ pool: [String], _ space: inout Set<String>, _ random: inout SeededGenerator) -> String {
      var name = pool.randomElement(using: &random)!
      var number = 2
      while space.contains(name) {
        name = pool.randomElement(using: &random)! + "\(number)"
        number += 1
      }
      space.insert(name)
      return name
    }
  }
}
