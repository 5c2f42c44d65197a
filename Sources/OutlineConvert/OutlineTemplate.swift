import Foundation
import OutlineCore
import OutlineModel
import OutlineXML

/// A minimal valid document for a model (`outline new`): the root object and
/// one item, every required attribute written (its default, else a placeholder
/// the validator accepts), and the objects required relationships and
/// required containments call for, each once.
public enum OutlineTemplate {
  /// The most objects a template holds; a model whose requirements never close
  /// (a required containment of an entity by itself) stops here.
  static let objectLimit = 1000

  /// The document's text. `modelPath` goes into `model="..."` as given (nil
  /// for the default model: the attribute is left out).
  public static func document(for model: Model, modelPath: String?) -> String {
    make(for: model, modelPath: modelPath).text
  }

  /// The document's text and why it cannot validate, when the model asks
  /// for something no outline can hold (a required containment whose
  /// children could belong to several relationships, or requirements that
  /// never close); `problems` is empty when the document is valid.
  public static func make(for model: Model, modelPath: String?, modelVersion: String? = nil) -> (
    text: String, problems: [String]
  ) {
    var builder = Builder(model: model)
    builder.build()
    return (builder.write(modelPath: modelPath, modelVersion: modelVersion), builder.problems)
  }

  /// The placeholder written for `attribute`: its default when the validator
  /// accepts it, else the first candidate of its type that passes its type,
  /// bounds and regular expression; nil when none does.
  public static func placeholder(for attribute: Attribute, title: Bool = false, serial: Int = 1) -> String? {
    guard let type = attribute.type else { return nil }
    var candidates: [String] = []
    if let value = attribute.defaultValue { candidates.append(value) }
    switch type {
    case .integer16, .integer32, .integer64, .decimal, .double, .float:
      candidates += ["0", attribute.minValue, attribute.maxValue, "1"].compactMap { $0 }
    case .string:
      candidates += [title ? "Untitled" : "", "Untitled", "a", "A", "0", "example", "a@example.com"]
      if let minimum = attribute.minValue.flatMap({ Int($0) }), minimum > 0, minimum <= 10_000 {
        candidates += [String(repeating: "a", count: minimum), String(repeating: "0", count: minimum)]
      }
    case .boolean:
      candidates.append("false")
    case .date:
      candidates.append("2024-01-01T00:00:00Z")
    case .uuid:
      candidates.append(String(format: "00000000-0000-4000-8000-%012d", serial))
    case .uri:
      candidates.append("https://example.com/")
    case .binary, .transformable, .objectID, .composite, .undefined:
      candidates.append("")
    }
    return candidates.first { accepts($0, attribute, type) }
  }

  /// A placeholder for `attribute` that differs for each `serial` (for the
  /// members of a uniqueness constraint), or nil when its type has none.
  public static func distinctPlaceholder(for attribute: Attribute, serial: Int) -> String? {
    guard let type = attribute.type else { return nil }
    var candidates: [String] = []
    switch type {
    case .integer16, .integer32, .integer64, .decimal, .double, .float:
      candidates.append(String(serial))
      if let minimum = attribute.minValue.flatMap({ Int($0) }) { candidates.append(String(minimum + serial)) }
    case .string:
      candidates += ["a\(serial)", "Untitled \(serial)", "item-\(serial)", "\(serial)"]
    case .date:
      let minutes = serial / 60
      candidates.append(
        String(format: "2024-01-01T%02d:%02d:%02dZ", (minutes / 60) % 24, minutes % 60, serial % 60))
    case .uuid:
      candidates.append(String(format: "00000000-0000-4000-8000-%012d", serial))
    case .uri:
      candidates.append("https://example.com/\(serial)")
    case .boolean, .binary, .transformable, .objectID, .composite, .undefined:
      return nil
    }
    return candidates.first { accepts($0, attribute, type) }
  }

  /// Whether the validator takes `value` for `attribute` (type, bounds, pattern).
  static func accepts(_ value: String, _ attribute: Attribute, _ type: AttributeType) -> Bool {
    if ModelValues.problem(with: value, as: type) != nil { return false }
    let measure: Double?
    if type == .string {
      measure = Double(value.count)
    } else if type.isNumeric {
      measure = ModelValues.number(value)
    } else {
      measure = nil
    }
    if let measure {
      if let text = attribute.minValue, let minimum = ModelValues.number(text), measure < minimum {
        return false
      }
      if let text = attribute.maxValue, let maximum = ModelValues.number(text), measure > maximum {
        return false
      }
    }
    if type == .string, let pattern = attribute.regularExpression {
      guard let regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return true }
      return regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
    }
    return true
  }
}

/// One object of the template.
private struct TemplateObject {
  var entity: Int
  /// The object it is nested in (-1: directly under the root element, or the root itself).
  var parent: Int
  /// Its containment relationship in the parent's entity, -1 when free.
  var relationship = -1
  var order: Int?
  var id: String?
  var children: [Int] = []
  /// Relationship name -> the objects it names, in the order linked.
  var references: [String: [Int]] = [:]
}

private struct Builder {
  let model: Model
  var objects: [TemplateObject] = []
  var serial = 0
  /// Order counters per (parent object, relationship).
  var nextOrder: [Int: [Int: Int]] = [:]
  /// What the model requires that the template could not write.
  var problems: [String] = []

  init(model: Model) { self.model = model }

  mutating func build() {
    let root = model.defaultRootEntity ?? -1
    objects.append(TemplateObject(entity: root, parent: -1))
    var pending = [0]
    if root >= 0 {
      addRequiredChildren(of: 0, into: &pending)
      if objects[0].children.isEmpty, let (relationship, child) = firstContainable(in: root) {
        pending.append(addChild(entity: child, parent: 0, relationship: relationship))
      }
    } else if let first = model.entities.indices.first(where: { !model.entities[$0].isAbstract }) {
      pending.append(addFree(entity: first))
    }
    // Breadth first through what each new object requires; a model whose
    // requirements never close stops at the limit.
    var next = 0
    while next < pending.count && objects.count < OutlineTemplate.objectLimit {
      let object = pending[next]
      next += 1
      if object != 0 { addRequiredChildren(of: object, into: &pending) }
      satisfyRelationships(of: object, into: &pending)
    }
    if objects.count >= OutlineTemplate.objectLimit {
      problems.append(
        "the model's requirements never close: after \(OutlineTemplate.objectLimit) objects, each still requires more"
      )
    }
    if root >= 0 {
      let entity = model.entities[root]
      for attribute in entity.attributes
      where RootFormat.isAttribute(attribute.name) && attribute.isRequired {
        problems.append(
          "\(Excerpt.quoted(entity.name)) needs \(Excerpt.quoted(attribute.name)), a name the root element keeps for the format, so no root can have it (OM217)"
        )
      }
      // A relationship so named is set from the other side where it has an inverse the
      // destination writes (`link`); the root is never nested in a containment.
      for relationship in entity.relationships
      where RootFormat.isAttribute(relationship.name) && mustWrite(relationship, of: 0) {
        if let destination = relationship.destination, let inverse = relationship.inverse,
          !model.entities[destination].relationships[inverse].isContainment
        {
          continue
        }
        problems.append(
          "\(Excerpt.quoted(entity.name)) needs \(Excerpt.quoted(relationship.name)), a name the root element keeps for the format, and no inverse the other side writes sets it (OM217)"
        )
      }
    }
  }

  /// Children for every non-optional containment relationship (its minimum count, at least one).
  mutating func addRequiredChildren(of object: Int, into pending: inout [Int]) {
    let entity = model.entities[objects[object].entity]
    for index in entity.containments {
      let relationship = entity.relationships[index]
      guard !relationship.isOptional, !relationship.isTransient else { continue }
      guard let child = containable(in: objects[object].entity, relationship: index) else {
        let problem =
          "\(Excerpt.quoted(entity.name)) needs children in \(Excerpt.quoted(relationship.name)), but no entity can be nested there unambiguously"
        if !problems.contains(problem) { problems.append(problem) }
        continue
      }
      for _ in 0..<max(1, relationship.minCount ?? 1) where objects.count < OutlineTemplate.objectLimit {
        pending.append(addChild(entity: child, parent: object, relationship: index))
      }
    }
  }

  /// A concrete entity that `relationship` of `entity` takes as a child,
  /// unambiguously; one that needs no children of its own where there is one.
  func containable(in entity: Int, relationship: Int) -> Int? {
    guard let destination = model.entities[entity].relationships[relationship].destination else { return nil }
    let kinds = concreteKinds(of: destination).filter {
      model.containment(of: entity, holding: $0) == .relationship(relationship)
    }
    return kinds.first { !needsChildren($0) } ?? kinds.first
  }

  /// Whether objects of `entity` must have children.
  func needsChildren(_ entity: Int) -> Bool {
    let definition = model.entities[entity]
    return definition.containments.contains {
      !definition.relationships[$0].isOptional && !definition.relationships[$0].isTransient
    }
  }

  /// The first containment relationship of `entity` that takes some concrete child, and that child.
  func firstContainable(in entity: Int) -> (Int, Int)? {
    for index in model.entities[entity].containments {
      if let child = containable(in: entity, relationship: index) { return (index, child) }
    }
    return nil
  }

  /// `entity` and the entities inheriting from it that are not abstract, `entity` first.
  func concreteKinds(of entity: Int) -> [Int] {
    model.entities.indices.filter { !model.entities[$0].isAbstract && model.isKind($0, of: entity) }
      .sorted { ($0 == entity ? 0 : 1, $0) < ($1 == entity ? 0 : 1, $1) }
  }

  mutating func addChild(entity: Int, parent: Int, relationship: Int) -> Int {
    let order = nextOrder[parent, default: [:]][relationship, default: 0]
    nextOrder[parent, default: [:]][relationship] = order + 1
    var object = TemplateObject(entity: entity, parent: parent)
    object.relationship = relationship
    object.order = order
    objects.append(object)
    objects[parent].children.append(objects.count - 1)
    return objects.count - 1
  }

  mutating func addFree(entity: Int) -> Int {
    objects.append(TemplateObject(entity: entity, parent: 0))
    objects[0].children.append(objects.count - 1)
    return objects.count - 1
  }

  /// A new object of `entity` where the root takes it: in the root's
  /// containment, else free under the root.
  mutating func place(entity: Int) -> Int {
    let root = objects[0].entity
    if root >= 0, case .relationship(let index) = model.containment(of: root, holding: entity) {
      return addChild(entity: entity, parent: 0, relationship: index)
    }
    return addFree(entity: entity)
  }

  /// Whether `relationship` must be written on `object` (not optional, not implied by its nesting).
  func mustWrite(_ relationship: Relationship, of object: Int) -> Bool {
    !relationship.isOptional && !relationship.isTransient && !isImplied(relationship, of: object)
  }

  /// Whether nesting says `relationship` of `object`: a containment always
  /// (its children are nested), the to-one back to a containment only for
  /// the parent `object` is nested in through it. Another parent (an object
  /// with two required parents) is named by id, as Core Data's graph has it.
  func isImplied(_ relationship: Relationship, of object: Int) -> Bool {
    if relationship.isContainment { return true }
    guard let destination = relationship.destination, let inverse = relationship.inverse,
      model.entities[destination].relationships[inverse].isContainment
    else { return false }
    let parent = objects[object].parent
    let nesting = objects[object].relationship
    guard object != 0, parent >= 0, nesting >= 0, objects[parent].entity >= 0 else { return false }
    let parentEntity = model.entities[objects[parent].entity]
    return model.isKind(objects[parent].entity, of: destination)
      && parentEntity.relationships[nesting].name == model.entities[destination].relationships[inverse].name
  }

  mutating func satisfyRelationships(of object: Int, into pending: inout [Int]) {
    guard objects[object].entity >= 0 else { return }
    for relationship in model.entities[objects[object].entity].relationships
    where mustWrite(relationship, of: object) {
      guard let destination = relationship.destination,
        let fallback = concreteKinds(of: destination).first
      else { continue }
      let needed = relationship.isToMany ? max(1, relationship.minCount ?? 1) : 1
      while objects[object].references[relationship.name, default: []].count < needed {
        var target = candidate(for: object, relationship: relationship, destination: destination)
        if target == nil {
          guard objects.count < OutlineTemplate.objectLimit else { return }
          target = place(entity: fallback)
          pending.append(target!)
        }
        link(object, relationship, target!)
      }
    }
  }

  /// The inverse of `relationship` as the target's entity declares it, and whether it must be written.
  func inverse(of relationship: Relationship, on target: Int) -> (name: String, declaration: Relationship)? {
    guard let destination = relationship.destination, let inverse = relationship.inverse else { return nil }
    let name = model.entities[destination].relationships[inverse].name
    let entity = model.entities[objects[target].entity]
    guard let index = entity.relationshipIndex[name] else { return nil }
    return (name, entity.relationships[index])
  }

  /// An object already in the template that `relationship` of `object` may name.
  func candidate(for object: Int, relationship: Relationship, destination: Int) -> Int? {
    let taken = objects[object].references[relationship.name, default: []]
    return objects.indices.first { target in
      guard target != object, objects[target].entity >= 0, !taken.contains(target),
        model.isKind(objects[target].entity, of: destination)
      else { return false }
      guard let (name, declaration) = inverse(of: relationship, on: target) else { return true }
      let written = objects[target].references[name, default: []]
      guard !written.isEmpty || mustWrite(declaration, of: target) else { return true }
      if !declaration.isToMany { return written.isEmpty }
      if let maximum = declaration.maxCount, maximum > 0 { return written.count < maximum }
      return true
    }
  }

  /// `object`'s `relationship` names `target`; the target names it back where it writes the inverse.
  mutating func link(_ object: Int, _ relationship: Relationship, _ target: Int) {
    objects[object].references[relationship.name, default: []].append(target)
    guard let (name, declaration) = inverse(of: relationship, on: target) else { return }
    let written = objects[target].references[name, default: []]
    // The root cannot write a relationship named like a format attribute: the inverse says it.
    let unwritable =
      object == 0 && RootFormat.isAttribute(relationship.name) && !declaration.isContainment
    if unwritable || !written.isEmpty || mustWrite(declaration, of: target), !written.contains(object) {
      objects[target].references[name, default: []].append(object)
    }
  }

  mutating func identifier(_ object: Int) -> String {
    if let id = objects[object].id { return id }
    serial += 1
    let name = model.entities[objects[object].entity].name
    let id = name.prefix(1).lowercased() + name.dropFirst() + "-\(serial)"
    objects[object].id = id
    return id
  }

  /// The XML attributes of `object` in the canonical order: `xml:id`, then
  /// attributes and relationships in model order.
  mutating func attributes(of object: Int) -> [(String, String)] {
    let entityIndex = objects[object].entity
    guard entityIndex >= 0 else { return [] }
    let entity = model.entities[entityIndex]
    var pairs: [(String, String)] = []
    // Members of a uniqueness constraint get values no other object of the template has.
    var constrained: Set<Int> = []
    for constraint in entity.uniquenessConstraints {
      for case .attribute(let index) in constraint.members ?? [] { constrained.insert(index) }
    }
    // Transient and derived values are not stored (OL205, OL206): never written.
    for (index, attribute) in entity.attributes.enumerated()
    where !attribute.isTransient && !attribute.isDerived {
      if index == entity.orderAttribute {
        if let order = objects[object].order { pairs.append((attribute.name, String(order))) }
        continue
      }
      if constrained.contains(index),
        let value = OutlineTemplate.distinctPlaceholder(for: attribute, serial: object)
      {
        pairs.append((attribute.name, value))
        continue
      }
      let isTitle = index == entity.titleAttribute && object != 0 && attribute.type == .string
      guard !attribute.isOptional || isTitle else { continue }
      if let value = OutlineTemplate.placeholder(for: attribute, title: isTitle, serial: object) {
        pairs.append((attribute.name, value))
      }
    }
    for relationship in entity.relationships {
      guard let targets = objects[object].references[relationship.name], !targets.isEmpty else { continue }
      pairs.append((relationship.name, targets.map { identifier($0) }.joined(separator: " ")))
    }
    let referenced = objects.contains { other in other.references.values.contains { $0.contains(object) } }
    if referenced || !objects[object].references.isEmpty {
      pairs.insert(("xml:id", identifier(object)), at: 0)
    }
    return pairs
  }

  /// The document: nested two spaces a level, walked with an explicit stack.
  mutating func write(modelPath: String?, modelVersion: String?) -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\""
    if let modelPath { text += " model=\"\(XMLEscaping.escapeAttribute(modelPath))\"" }
    if let modelVersion { text += " modelVersion=\"\(XMLEscaping.escapeAttribute(modelVersion))\"" }
    for (name, value) in attributes(of: 0) {
      // The root's own names are the format's: a property of the root entity so named cannot
      // be written (a problem when it is required, said by `build`).
      if RootFormat.isAttribute(name) { continue }
      text += " \(name)=\"\(XMLEscaping.escapeAttribute(value))\""
    }
    if objects[0].children.isEmpty { return text + "/>\n" }
    text += ">\n"
    // (object, depth, closing): a closing entry writes the end tag.
    var stack: [(Int, Int, Bool)] = objects[0].children.reversed().map { ($0, 1, false) }
    while let (object, depth, closing) = stack.popLast() {
      let indent = String(repeating: "  ", count: min(depth, 100))
      let name = model.entities[objects[object].entity].name
      if closing {
        text += "\(indent)</\(name)>\n"
        continue
      }
      text += "\(indent)<\(name)"
      for (key, value) in attributes(of: object) {
        text += " \(key)=\"\(XMLEscaping.escapeAttribute(value))\""
      }
      if objects[object].children.isEmpty {
        text += "/>\n"
      } else {
        text += ">\n"
        stack.append((object, depth, true))
        stack += objects[object].children.reversed().map { ($0, depth + 1, false) }
      }
    }
    return text + "</outline>\n"
  }
}
