import OutlineCore
import OutlineModel
import OutlineXML

/// The ids a file defines and the references it makes, resolved at the end
/// (a reference may name an object further down) (OL500-OL504).
struct ReferenceTable {
  struct Reference {
    var sourceID: String?
    var entity: Int
    var relationship: Int
    var targets: [(id: String, range: TextRange)]
  }

  private(set) var definitions = IDTable()
  private var references: [Reference] = []

  /// Defines the id whose raw attribute value is `raw`, reporting a second definition.
  mutating func define(
    raw: UnsafeBufferPointer<UInt8>, entity: Int?, range: TextRange, validator: OutlineValidator
  ) {
    guard let first = definitions.define(raw: raw, entity: entity, range: range) else { return }
    let id = XMLEscaping.decodeAttribute(raw)
    validator.report(
      .duplicateID, "The id '\(id)' is used twice", at: range,
      related: [RelatedLocation(range: first.range, message: "'\(id)' is first defined here")])
  }

  /// Records a written relationship; `raw` gives the id ranges inside `range`.
  mutating func add(
    from sourceID: String?, entity: Int, relationship: Int, value: String,
    raw: UnsafeBufferPointer<UInt8>, range: TextRange
  ) {
    var targets: [(String, TextRange)] = []
    // Ids are split on the raw bytes so each keeps its exact range; ids are
    // names, so they hold no references that would shift offsets.
    var index = 0
    while index < raw.count {
      while index < raw.count && isSpace(raw[index]) { index += 1 }
      let start = index
      while index < raw.count && !isSpace(raw[index]) { index += 1 }
      if index > start {
        let id = String(decoding: UnsafeBufferPointer(rebasing: raw[start..<index]), as: UTF8.self)
        targets.append((id, TextRange(start: range.start + start, end: range.start + index)))
      }
    }
    references.append(
      Reference(sourceID: sourceID, entity: entity, relationship: relationship, targets: targets))
  }

  private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  func resolve(model: Model, validator: OutlineValidator) {
    // What each identified object wrote, for the inverse check.
    var written: [String: [Int: Set<String>]] = [:]
    for reference in references {
      guard let source = reference.sourceID else { continue }
      let name = reference.relationship
      written[source, default: [:]][name, default: []].formUnion(reference.targets.map(\.id))
    }
    for reference in references {
      let relationship = model.entities[reference.entity].relationships[reference.relationship]
      for target in reference.targets {
        guard let definition = definitions.definition(of: target.id) else {
          validator.report(
            .unknownID,
            "'\(relationship.name)' names '\(target.id)', which no object in the file has as its id",
            at: target.range)
          continue
        }
        guard let destination = relationship.destination else { continue }
        guard let entity = definition.entity, model.isKind(entity, of: destination) else {
          let actual = definition.entity.map { model.entities[$0].name } ?? "an unknown entity"
          validator.report(
            .wrongEntityReference,
            "'\(relationship.name)' leads to '\(model.entities[destination].name)', but '\(target.id)' is \(actual)",
            at: target.range,
            related: [RelatedLocation(range: definition.range, message: "'\(target.id)' is defined here")])
          continue
        }
        // Where the other side is written too, it must name this object.
        guard let inverse = relationship.inverse,
          let inverseIndex = model.entities[entity].relationshipIndex[
            model.entities[destination].relationships[inverse].name],
          let back = written[target.id]?[inverseIndex]
        else { continue }
        if let source = reference.sourceID, back.contains(source) { continue }
        let inverseName = model.entities[destination].relationships[inverse].name
        let who = reference.sourceID.map { "'\($0)'" } ?? "this object (it has no id)"
        validator.report(
          .inverseDisagrees,
          "'\(relationship.name)' names '\(target.id)', but its '\(inverseName)' does not name \(who)",
          at: target.range,
          related: [RelatedLocation(range: definition.range, message: "'\(target.id)' is defined here")])
      }
    }
  }
}
