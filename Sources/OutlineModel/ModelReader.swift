import OutlineCore
import OutlineXML

/// Reads the elements of a model file into unresolved entities.
///
/// Reads `model`, `entity`, `attribute`, `relationship` and `userInfo/entry`;
/// everything else Xcode writes is passed over, so unknown elements and
/// attributes never fail a load.
final class ModelReader: XMLEventHandler {
  var entities: [Entity] = []
  var diagnostics: [Diagnostic] = []
  private var stack: [String] = []
  private var userInfoTarget: UserInfoTarget?
  private var sawRoot = false

  private enum UserInfoTarget {
    case entity(Int)
    case attribute(Int, Int)
    case relationship(Int, Int)
  }

  func startElement(_ tag: StartTag) {
    let name = XMLName.string(tag.name)
    defer { stack.append(name) }
    var values: [String: String] = [:]
    var ranges: [String: TextRange] = [:]
    for index in 0..<tag.attributes.count {
      let key = XMLName.string(tag.name(of: index))
      values[key] = tag.value(of: index)
      ranges[key] = tag.valueRange(of: index)
    }
    let parent = stack.last
    if stack.isEmpty {
      sawRoot = true
      if name != "model" {
        diagnostics.append(
          Diagnostic(
            .modelStructure, "The root element is '\(name)', not 'model': this is not a Core Data model",
            at: tag.nameRange))
      }
      return
    }
    switch (parent, name) {
    case ("model", "entity"):
      guard let entityName = required("entity", values, tag) else { return }
      entities.append(
        Entity(
          name: entityName, isAbstract: ModelValues.boolean(values["isAbstract"]) == true,
          parentName: values["parentEntity"], userInfo: [],
          nameRange: ranges["name"]!, ranges: ranges))
      userInfoTarget = .entity(entities.count - 1)
    case ("entity", "attribute"):
      guard !entities.isEmpty, let propertyName = required("attribute", values, tag) else { return }
      let typeName = values["attributeType"] ?? "Undefined"
      entities[entities.count - 1].attributes.append(
        Attribute(
          name: propertyName, type: AttributeType(rawValue: typeName), typeName: typeName,
          isOptional: ModelValues.boolean(values["optional"]) == true,
          isTransient: ModelValues.boolean(values["transient"]) == true,
          defaultValue: values["defaultValueString"], minValue: values["minValueString"],
          maxValue: values["maxValueString"], regularExpression: values["regularExpressionString"],
          userInfo: [], declaringEntity: entities[entities.count - 1].name,
          nameRange: ranges["name"]!, ranges: ranges))
      userInfoTarget = .attribute(entities.count - 1, entities[entities.count - 1].attributes.count - 1)
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

  private func required(_ kind: String, _ values: [String: String], _ tag: StartTag) -> String? {
    if let name = values["name"], !name.isEmpty { return name }
    diagnostics.append(Diagnostic(.modelStructure, "This \(kind) has no name", at: tag.nameRange))
    return nil
  }

  func endElement(range: TextRange?) {
    let closed = stack.popLast()
    if closed == "attribute" || closed == "relationship", let target = userInfoTarget {
      if case .attribute(let e, _) = target { userInfoTarget = .entity(e) }
      if case .relationship(let e, _) = target { userInfoTarget = .entity(e) }
    }
  }

  func comment(range: TextRange, content: UnsafeBufferPointer<UInt8>) {}
  func text(range: TextRange) {}

  func doctype(range: TextRange) {
    diagnostics.append(
      Diagnostic(
        .modelNotWellFormed, "The model has a DOCTYPE; models have no DTD and it is not read",
        at: range))
  }

  func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    diagnostics.append(Diagnostic(.modelNotWellFormed, message, at: range))
  }

  func finish(sourceLength: Int) {
    if !sawRoot && !diagnostics.contains(where: { $0.code == .modelNotWellFormed }) {
      diagnostics.append(
        Diagnostic(.modelNotWellFormed, "The model file is empty", at: TextRange(at: 0)))
    }
  }
}
