import OutlineCore
import OutlineXML

/// Reads the elements of a model file into unresolved entities.
///
/// Reads `model`, `entity`, `attribute`, `relationship`, `fetchedProperty`,
/// `uniquenessConstraints`, `fetchIndex`, `compoundIndexes`, `composite` and `userInfo/entry`;
/// everything else
/// Xcode writes is passed over, so unknown elements and attributes never
/// fail a load.
final class ModelReader: XMLEventHandler {
  var entities: [Entity] = []
  var composites: [Composite] = []
  var diagnostics: [Diagnostic] = []
  private var stack: [String] = []
  /// The open elements' name ranges, beside `stack`.
  private var openNames: [TextRange] = []
  private var userInfoTarget: UserInfoTarget?
  private var sawRoot = false
  /// The name of the fetch index being read.
  private var fetchIndexName = ""

  private enum UserInfoTarget {
    case entity(Int)
    case attribute(Int, Int)
    case relationship(Int, Int)
  }

  func startElement(_ tag: StartTag) {
    let name = XMLName.string(tag.name)
    defer {
      stack.append(name)
      openNames.append(tag.nameRange)
    }
    let parent = stack.last
    if stack.isEmpty {
      sawRoot = true
      if name != "model" {
        diagnostics.append(
          Diagnostic(
            .modelStructure,
            "The root element is \(Excerpt.quoted(name)), not 'model': this is not a Core Data model",
            at: tag.nameRange))
      }
      return
    }
    guard Self.reads(parent: parent, name: name) else { return }
    let values = TagFields(tag)
    let ranges = values.ranges
    switch (parent, name) {
    case ("model", "entity"):
      guard let entityName = required("entity", values, tag) else { return }
      entities.append(
        Entity(
          name: entityName, isAbstract: ModelValues.boolean(values["isAbstract"]) == true,
          parentName: values["parentEntity"], userInfo: [],
          nameRange: ranges["name"]!, ranges: ranges))
      entities[entities.count - 1].startTagRange = TextRange(
        start: tag.offset, end: tag.offset + tag.bytes.count)
      userInfoTarget = .entity(entities.count - 1)
    case ("entity", "attribute"):
      guard !entities.isEmpty, let propertyName = required("attribute", values, tag) else { return }
      entities[entities.count - 1].attributes.append(
        attribute(propertyName, values, ranges, declaringEntity: entities[entities.count - 1].name))
      userInfoTarget = .attribute(entities.count - 1, entities[entities.count - 1].attributes.count - 1)
    case ("model", "composite"):
      userInfoTarget = nil
      guard let compositeName = required("composite", values, tag) else { return }
      composites.append(Composite(name: compositeName, attributes: [], nameRange: ranges["name"]!))
    case ("composite", "attribute"):
      guard !composites.isEmpty, let propertyName = required("attribute", values, tag) else { return }
      composites[composites.count - 1].attributes.append(
        attribute(propertyName, values, ranges, declaringEntity: composites[composites.count - 1].name))
    case ("entity", "fetchedProperty"):
      guard !entities.isEmpty, let propertyName = required("fetched property", values, tag) else { return }
      entities[entities.count - 1].fetchedProperties.append(
        FetchedProperty(
          name: propertyName, fetchedEntity: nil, predicate: nil,
          declaringEntity: entities[entities.count - 1].name, nameRange: ranges["name"]!))
    case ("fetchedProperty", "fetchRequest"):
      guard let last = entities.indices.last, !entities[last].fetchedProperties.isEmpty else { return }
      let property = entities[last].fetchedProperties.count - 1
      entities[last].fetchedProperties[property].fetchedEntity = values["entity"]
      entities[last].fetchedProperties[property].predicate = values["predicateString"]
    case ("uniquenessConstraints", "uniquenessConstraint"):
      guard let last = entities.indices.last else { return }
      entities[last].uniquenessConstraints.append(
        UniquenessConstraint(names: [], ranges: [], declaringEntity: entities[last].name))
    case ("uniquenessConstraint", "constraint"):
      guard let last = entities.indices.last, !entities[last].uniquenessConstraints.isEmpty,
        let member = values["value"]
      else { return }
      let constraint = entities[last].uniquenessConstraints.count - 1
      entities[last].uniquenessConstraints[constraint].names.append(member)
      entities[last].uniquenessConstraints[constraint].ranges.append(ranges["value"]!)
    case ("entity", "relationship"):
      guard !entities.isEmpty, let propertyName = required("relationship", values, tag) else { return }
      entities[entities.count - 1].relationships.append(
        Relationship(
          name: propertyName, destinationName: values["destinationEntity"],
          inverseName: values["inverseName"],
          isToMany: ModelValues.boolean(values["toMany"]) == true,
          isOrdered: ModelValues.boolean(values["ordered"]) == true,
          isOptional: ModelValues.boolean(values["optional"]) == true,
          isTransient: ModelValues.boolean(values["transient"]) == true,
          minCount: values["minCount"].flatMap { Int($0) },
          maxCount: values["maxCount"].flatMap { Int($0) },
          deletionRule: values["deletionRule"].flatMap(DeletionRule.init(rawValue:)) ?? .nullify,
          userInfo: [], declaringEntity: entities[entities.count - 1].name,
          nameRange: ranges["name"]!, ranges: ranges))
      userInfoTarget = .relationship(
        entities.count - 1, entities[entities.count - 1].relationships.count - 1)
    case ("entity", "fetchIndex"):
      fetchIndexName = values["name"] ?? ""
    case ("fetchIndex", "fetchIndexElement"), ("compoundIndex", "index"):
      // A fetch index element may be an expression instead of a property.
      let key = name == "index" ? "value" : "property"
      guard let last = entities.indices.last, let property = values[key], let range = ranges[key] else {
        return
      }
      entities[last].indexReferences.append(
        IndexReference(
          name: property, range: range,
          index: name == "index" ? "a compound index" : "fetch index '\(fetchIndexName)'"))
    case ("userInfo", "entry"):
      guard stack.count >= 2, let key = values["key"] else { return }
      let owner = stack[stack.count - 2]
      let entry = UserInfoEntry(
        key: key, value: values["value"] ?? "", valueRange: ranges["value"] ?? ranges["key"]!)
      switch (owner, userInfoTarget) {
      case ("entity", .entity(let e)): entities[e].userInfo.append(entry)
      case ("attribute", .attribute(let e, let a)): entities[e].attributes[a].userInfo.append(entry)
      case ("relationship", .relationship(let e, let r)):
        entities[e].relationships[r].userInfo.append(entry)
      default: break
      }
    default:
      break
    }
  }

  private func attribute(
    _ name: String, _ values: TagFields, _ ranges: AttributeRanges, declaringEntity: String
  ) -> Attribute {
    let typeName = values["attributeType"] ?? "Undefined"
    var attribute = Attribute(
      name: name, type: AttributeType(rawValue: typeName), typeName: typeName,
      isOptional: ModelValues.boolean(values["optional"]) == true,
      isTransient: ModelValues.boolean(values["transient"]) == true,
      defaultValue: values["defaultValueString"], minValue: values["minValueString"],
      maxValue: values["maxValueString"], regularExpression: values["regularExpressionString"],
      userInfo: [], declaringEntity: declaringEntity, nameRange: ranges["name"]!, ranges: ranges)
    attribute.isDerived = ModelValues.boolean(values["derived"]) == true
    attribute.derivationExpression = values["derivationExpression"]
    attribute.compositeName = values["composite"]
    return attribute
  }

  /// Whether an element named `name` inside `parent` is one the reader takes anything from.
  private static func reads(parent: String?, name: String) -> Bool {
    switch (parent, name) {
    case ("model", "entity"), ("entity", "attribute"), ("model", "composite"), ("composite", "attribute"),
      ("entity", "fetchedProperty"), ("fetchedProperty", "fetchRequest"),
      ("uniquenessConstraints", "uniquenessConstraint"), ("uniquenessConstraint", "constraint"),
      ("entity", "relationship"), ("userInfo", "entry"), ("entity", "fetchIndex"),
      ("fetchIndex", "fetchIndexElement"), ("compoundIndex", "index"):
      return true
    default:
      return false
    }
  }

  private func required(_ kind: String, _ values: TagFields, _ tag: StartTag) -> String? {
    if let name = values["name"], !name.isEmpty { return name }
    diagnostics.append(Diagnostic(.modelStructure, "This \(kind) has no name", at: tag.nameRange))
    return nil
  }

  func endElement(range: TextRange?) {
    let closed = stack.popLast()
    _ = openNames.popLast()
    // Where an annotation can be added to an entity (``ModelRename``).
    if closed == "entity", stack.count == 1, let last = entities.indices.last {
      entities[last].endTagRange = range
    } else if closed == "userInfo", stack.last == "entity", stack.count == 2, let last = entities.indices.last
    {
      entities[last].userInfoEndTagRange = range
    }
    if closed == "attribute" || closed == "relationship", let target = userInfoTarget {
      if case .attribute(let e, _) = target { userInfoTarget = .entity(e) }
      if case .relationship(let e, _) = target { userInfoTarget = .entity(e) }
    }
  }

  func comment(range: TextRange, content: ByteView) {}
  func text(range: TextRange) {}

  func doctype(range: TextRange) {
    diagnostics.append(
      Diagnostic(
        .modelNotWellFormed, "The model has a DOCTYPE; models have no DTD and it is not read",
        at: range))
  }

  func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    if let exact = XMLErrorText.withoutLine(message), let open = openNames.last {
      diagnostics.append(
        Diagnostic(
          .modelNotWellFormed, exact.message, at: range,
          related: [RelatedLocation(range: open, message: exact.note)]))
      return
    }
    diagnostics.append(Diagnostic(.modelNotWellFormed, message, at: range))
  }

  func finish(sourceLength: Int) {
    if !sawRoot && !diagnostics.contains(where: { $0.code == .modelNotWellFormed }) {
      diagnostics.append(
        Diagnostic(.modelNotWellFormed, "The model file is empty", at: TextRange(at: 0)))
    }
  }
}
