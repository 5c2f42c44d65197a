// What `outline export` refuses: an outline whose OPML `outline import` would not read back as the same document.
// Export writes the OPML model's objects (an `OPML` root, `Outline` objects under its `outlines` and each other's
// `children`) and every attribute as text; anything else would be lost or changed on the way, so it is named, at its
// place in the outline, instead of written.

import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineXML

extension OPMLConversion {
  /// The OPML model's names, as `outline import` writes them.
  static let rootEntityName = "OPML"
  static let outlineEntityName = "Outline"
  static let topRelationshipName = "outlines"
  static let nestedRelationshipName = "children"

  /// One thing an outline holds that its OPML would not give back: what, and where in the outline.
  public struct ExportProblem: Sendable, Equatable {
    /// What cannot be written, and why.
    public var message: String
    /// Where: an element's name or an attribute's name.
    public var range: TextRange
  }

  /// Why an outline is not exported: every ``ExportProblem``, in document order (the first place of
  /// each, with how many more there are like it).
  public struct ExportRefusal: Error, Sendable, Equatable {
    public var problems: [ExportProblem]
  }

  /// Where export writes a root attribute.
  enum RootPlace: Equatable {
    /// Not written: the format's own (`version`, `model`, `modelVersion`, `entity`), which import
    /// writes afresh (an OPML `<modelVersion>` is imported as `head.modelVersion`).
    case format
    /// The root's `xml:id`, which OPML has no place for.
    case id
    /// A namespace declaration, written on `<opml>`.
    case namespace(String)
    /// An attribute of `<opml>` (`opmlVersion` is its `version`).
    case opmlAttribute(String)
    /// A head field.
    case headField(String)
    /// An attribute of `<body>`.
    case bodyAttribute(String)
  }

  /// Where export writes the root attribute `name`.
  static func rootPlace(of name: String) -> RootPlace {
    switch name {
    case "version", "model", "modelVersion", "entity": .format
    case "xml:id": .id
    case "opmlVersion": .opmlAttribute("version")
    case _ where isNamespaceDeclaration(name): .namespace(name)
    case _ where name.hasPrefix("opml."): .opmlAttribute(String(name.dropFirst(5)))
    case _ where name.hasPrefix("body."): .bodyAttribute(String(name.dropFirst(5)))
    case _ where name.hasPrefix("head."): .headField(String(name.dropFirst(5)))
    default: .headField(name)
    }
  }

  /// What export writes at `place`, as OPML shows it.
  static func describe(_ place: RootPlace) -> String {
    switch place {
    case .format, .id, .namespace: ""
    case .opmlAttribute(let name): "the <opml> attribute \(Excerpt.quoted(name))"
    case .headField(let name): "the head field <\(name)>"
    case .bodyAttribute(let name): "the <body> attribute \(Excerpt.quoted(name))"
    }
  }

  /// The root attribute `outline import` makes of what export wrote at `place`; nil when it makes
  /// none of it (the format's names and declarations are not compared).
  static func importedRootName(_ place: RootPlace) -> String? {
    switch place {
    case .format, .id, .namespace: nil
    case .opmlAttribute(let name): isNamespaceDeclaration(name) ? nil : opmlAttributeName(name)
    case .headField(let name): headName(name)
    case .bodyAttribute(let name): isNamespaceDeclaration(name) ? nil : bodyAttributeName(name)
    }
  }

  /// The `<outline>` attribute export writes for an `Outline` attribute (`opml.` dropped: import adds it
  /// to OPML names that clash with the format's).
  static func exportedOutlineName(_ name: String) -> String {
    name.hasPrefix("opml.") ? String(name.dropFirst(5)) : name
  }

  /// The `Outline` attribute import makes of the `<outline>` attribute `name`; nil for its id and
  /// namespace declarations, which are no attributes of the object.
  static func importedOutlineName(_ name: String) -> String? {
    name == "xml:id" || isNamespaceDeclaration(name) ? nil : outlineName(name)
  }

  static func isNamespaceDeclaration(_ name: String) -> Bool { name == "xmlns" || name.hasPrefix("xmlns:") }

  /// Whether `name` can name an element or attribute in OPML: an XML name, with at most one colon
  /// between two of them.
  static func isWritableName(_ name: String) -> Bool {
    let parts = name.split(separator: ":", omittingEmptySubsequences: false)
    return parts.count <= 2 && parts.allSatisfy { XMLName.isNCName(String($0)) }
  }

  /// Every place where `tree` (validated against `model`, without errors) holds what its OPML would
  /// not give back through `outline import`; empty when export writes it whole.
  public static func exportProblems(_ source: SourceText, tree: ItemTree, model: Model) -> [ExportProblem] {
    var problems = ProblemList()
    guard !tree.items.isEmpty else { return [] }
    // Per entity, the attributes an object has by their default when it leaves them out: import
    // makes every attribute an optional String with no default, so it would come back with none.
    let defaulted = model.entities.map { entity in
      entity.attributes.filter {
        $0.defaultValue != nil && !$0.isTransient && !$0.isDerived && !isOrder($0.name, of: entity)
      }
    }
    for (index, item) in tree.items.enumerated() {
      let entity = item.entity >= 0 ? model.entities[Int(item.entity)] : nil
      let entityName = entity?.name ?? "?"
      // The object itself: the OPML model's entities, in the containments import makes.
      if index == 0 {
        if entityName != rootEntityName {
          problems.add(
            "root",
            "The root is \(Excerpt.quoted(entityName)), not \(Excerpt.quoted(rootEntityName)): export writes documents in the OPML model, as `outline import` makes them",
            at: item.nameRange)
        }
      } else if entityName != outlineEntityName {
        problems.add(
          "entity \(entityName)",
          "\(Excerpt.quoted(entityName)) objects have no place in OPML, which holds \(Excerpt.quoted(outlineEntityName)) objects only (each an <outline> element)",
          at: item.nameRange)
      } else {
        let parent = tree.items[Int(item.parent)]
        let expected = item.parent == 0 ? topRelationshipName : nestedRelationshipName
        let held: String? =
          parent.entity >= 0 && item.relationship >= 0
          ? model.entities[Int(parent.entity)].relationships[Int(item.relationship)].name : nil
        if held != expected {
          problems.add(
            "containment \(held ?? "")",
            held.map {
              "This \(Excerpt.quoted(outlineEntityName)) stands in \(Excerpt.quoted($0)), which OPML cannot say: `outline import` puts an <outline> in \(Excerpt.quoted(expected))"
            }
              ?? "This \(Excerpt.quoted(outlineEntityName)) is a free object, which OPML cannot say: an <outline> stands in \(Excerpt.quoted(expected))",
            at: item.nameRange)
        }
      }
      guard let entity else { continue }
      let unsaid = defaulted[Int(item.entity)]
      var present: Set<String> = []
      TagScanner.withStartTag(in: source.bytes, range: item.startTag) { tag in
        for attribute in 0..<tag.attributes.count {
          let name = XMLName.string(tag.name(of: attribute))
          if !unsaid.isEmpty { present.insert(name) }
          let range = tag.nameRange(of: attribute)
          if index == 0 {
            checkRootAttribute(name, entity: entity, range: range, into: &problems)
          } else {
            checkOutlineAttribute(name, entity: entity, range: range, into: &problems)
          }
        }
      }
      // A value the object has without saying it.
      for attribute in unsaid where !present.contains(attribute.name) {
        problems.add(
          "default \(entity.name).\(attribute.name)",
          "This \(Excerpt.quoted(entity.name)) has \(Excerpt.quoted(attribute.name)) by its default \(Excerpt.quoted(attribute.defaultValue!)), which OPML cannot say: `outline import` would give it no value",
          at: item.nameRange)
      }
    }
    return problems.sorted()
  }

  /// Whether `name` is the attribute `entity` orders its objects by, which export writes as the
  /// `<outline>` element's place.
  private static func isOrder(_ name: String, of entity: Entity) -> Bool {
    name == "order" && entity.orderAttribute.map { entity.attributes[$0].name == name } == true
  }

  /// The problems a root attribute or an `Outline` attribute has as a property of its object: a
  /// relationship (ids) or a typed attribute, which OPML's text attributes cannot carry.
  private static func checkProperty(
    _ name: String, entity: Entity, range: TextRange, into problems: inout ProblemList
  ) -> Bool {
    if entity.relationshipIndex[name] != nil {
      problems.add(
        "relationship \(entity.name).\(name)",
        "\(Excerpt.quoted(name)) relates this \(Excerpt.quoted(entity.name)) to other objects by id, which OPML cannot say: its attributes are text, and `outline import` reads them back as String attributes",
        at: range)
      return false
    }
    if let index = entity.attributeIndex[name], let type = entity.attributes[index].type, type != .string {
      problems.add(
        "type \(entity.name).\(name)",
        "\(Excerpt.quoted(name)) holds \(type.rawValue) values in \(Excerpt.quoted(entity.name)), which OPML cannot say: its attributes are text, and `outline import` reads them back as String attributes",
        at: range)
      return false
    }
    return true
  }

  private static func checkRootAttribute(
    _ name: String, entity: Entity, range: TextRange, into problems: inout ProblemList
  ) {
    let place = rootPlace(of: name)
    switch place {
    case .format, .namespace: return
    case .id:
      problems.add(
        "root id", "The root's xml:id has no place in OPML: `outline import` gives the root no id", at: range)
      return
    case .opmlAttribute, .headField, .bodyAttribute: break
    }
    guard checkProperty(name, entity: entity, range: range, into: &problems) else { return }
    let written: String
    switch place {
    case .opmlAttribute(let other), .headField(let other), .bodyAttribute(let other): written = other
    case .format, .id, .namespace: return
    }
    let back = importedRootName(place)
    if !isWritableName(written) || back != name {
      problems.add(
        "root name \(name)",
        "\(Excerpt.quoted(name)) would be written as \(describe(place)), "
          + (!isWritableName(written)
            ? "which is not an XML name"
            : back.map { "which `outline import` reads back as \(Excerpt.quoted($0))" }
              ?? "which `outline import` reads as no attribute"),
        at: range)
    }
  }

  private static func checkOutlineAttribute(
    _ name: String, entity: Entity, range: TextRange, into problems: inout ProblemList
  ) {
    if name == "xml:id" || isNamespaceDeclaration(name) { return }
    if name == "order" && isOrder(name, of: entity) { return }
    guard checkProperty(name, entity: entity, range: range, into: &problems) else { return }
    let written = exportedOutlineName(name)
    let back = importedOutlineName(written)
    if !isWritableName(written) || back != name {
      problems.add(
        "outline name \(name)",
        "\(Excerpt.quoted(name)) would be written as the <outline> attribute \(Excerpt.quoted(written)), "
          + (!isWritableName(written)
            ? "which is not an XML name"
            : back.map { "which `outline import` reads back as \(Excerpt.quoted($0))" }
              ?? "which `outline import` reads as \(written == "xml:id" ? "the object's id" : "a namespace declaration")"),
        at: range)
    }
  }

  /// The problems found, each kind once at its first place, with how many places it has.
  struct ProblemList {
    private var problems: [ExportProblem] = []
    private var counts: [Int] = []
    private var kinds: [String: Int] = [:]

    mutating func add(_ kind: String, _ message: @autoclosure () -> String, at range: TextRange) {
      if let index = kinds[kind] {
        counts[index] += 1
        return
      }
      kinds[kind] = problems.count
      problems.append(ExportProblem(message: message(), range: range))
      counts.append(1)
    }

    var isEmpty: Bool { problems.isEmpty }

    /// In document order; a problem found in several places says how many more.
    func sorted() -> [ExportProblem] {
      zip(problems, counts).map { problem, count in
        var problem = problem
        if count > 1 { problem.message += " (and \(counted(count - 1, "more place")) like it)" }
        return problem
      }.sorted { $0.range < $1.range }
    }
  }
}
