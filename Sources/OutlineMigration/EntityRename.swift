import OutlineCore
import OutlineModel
import OutlineXML

extension ModelRename {
  /// The edits on `model.source` that rename entity `entityName` to `newName`:
  /// its name, a `renamingIdentifier` naming the old one (unless it has one,
  /// which stays the canonical name, as for properties), and every reference
  /// to it in the model file: a sub-entity's `parentEntity`, a relationship's
  /// `destinationEntity` and `inverseEntity`, a fetch request's or fetched
  /// property's `entity`, a configuration's `memberEntity` and the diagram's `element`.
  public static func entityEdits(in model: Model, entity entityName: String, to newName: String)
    throws(Refusal) -> [TextEdit]
  {
    guard let index = model.entity(named: entityName) else {
      throw Refusal(description: "the model has no entity \(Excerpt.quoted(entityName))")
    }
    guard XMLName.isNCName(newName) else {
      throw Refusal(
        description: "\(Excerpt.quoted(newName)) cannot be an entity name (it is not an XML name)")
    }
    if newName != entityName, model.entity(named: newName) != nil {
      throw Refusal(description: "the model already has an entity named \(Excerpt.quoted(newName))")
    }
    let entity = model.entities[index]
    let references = EntityReferences(name: entityName)
    XMLEventParser.parse(model.source.bytes, handler: references)
    var edits = references.ranges.map { TextEdit(range: $0, newText: XMLEscaping.escapeAttribute(newName)) }
    if entity.ranges["renamingIdentifier"] == nil {
      edits.append(
        TextEdit(
          range: TextRange(at: entity.nameRange.end + 1),
          newText: " renamingIdentifier=\"\(XMLEscaping.escapeAttribute(entityName))\""))
    }
    return edits.sorted { $0.range.start < $1.range.start }
  }

  /// The edits that make the document `source`, written for `model`, one for
  /// the model `modelEdits` make of it (renamed elements and attributes), as
  /// `outline migrate` would move it from the one to the other; its recorded
  /// version is left as it is.
  public static func documentEdits(_ source: SourceText, model: Model, applying modelEdits: [TextEdit])
    throws(Refusal) -> [TextEdit]
  {
    guard let renamed = TextEdit.apply(modelEdits, to: model.source.bytes) else {
      throw Refusal(description: "the model's edits overlap")
    }
    let history = ModelHistory(
      versions: [
        ModelVersion(name: "before", model: model),
        ModelVersion(name: "after", model: ModelLoader.load(SourceText(bytes: renamed), path: model.path)),
      ], current: 1)
    var plan = MigrationPlan(history: history, from: 0, to: 1, settings: MigrationSettings())
    plan.recordsVersion = false
    var documentEdits: [TextEdit] = []
    let migrator = Migrator(plan: plan) { documentEdits.append($0) }
    XMLEventParser.parse(source.bytes, handler: migrator)
    if let first = migrator.clashes.first {
      throw Refusal(description: "\(first): rename or remove the attribute already there first")
    }
    return documentEdits
  }
}

/// The value ranges, in a model file, that name one entity.
private final class EntityReferences: XMLEventHandler {
  let name: String
  var ranges: [TextRange] = []

  init(name: String) { self.name = name }

  /// The attributes naming an entity, per element.
  private static let keys: [String: [String]] = [
    "entity": ["name", "parentEntity"],
    "relationship": ["destinationEntity", "inverseEntity"],
    "fetchRequest": ["entity"],
    "fetchedProperty": ["entity"],
    "memberEntity": ["name"],
    "element": ["name"],
  ]

  func startElement(_ tag: StartTag) {
    guard let keys = Self.keys[XMLName.string(tag.name)] else { return }
    for index in 0..<tag.attributes.count
    where keys.contains(XMLName.string(tag.name(of: index))) && tag.value(of: index) == name {
      ranges.append(tag.valueRange(of: index))
    }
  }
  func endElement(range: TextRange?) {}
  func comment(range: TextRange, content: ByteView) {}
  func text(range: TextRange) {}
  func doctype(range: TextRange) {}
  func syntaxError(message: String, range: TextRange, isFatal: Bool) {}
}
