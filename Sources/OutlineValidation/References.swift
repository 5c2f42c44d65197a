import OutlineCore
import OutlineModel
import OutlineXML

/// The ids a file defines and the references it makes, resolved at the end
/// (a reference may name an object further down) (OL500-OL504).
///
/// Core Data keeps both sides of an inverse pair: setting `a.tags` to `t`
/// puts `a` in `t.items`. So a relationship that other objects can set
/// through its inverse (a *tracked* one, ``ModelIndex/trackedSlot``) is
/// counted when the file is read: its object's count is what it writes, or,
/// when it writes nothing, how many objects name it through the inverse
/// (plus its nested children, for a containment). An object with an id
/// keeps one 4-byte counter per tracked relationship of its entity.
struct ReferenceTable {
  struct Reference {
    var sourceID: String?
    var entity: Int
    var relationship: Int
    var targets: [(id: String, range: TextRange)]
  }

  private(set) var definitions = IDTable()
  private var references: [Reference] = []
  /// How many relationships were written as references.
  var referenceCount: Int { references.count }
  /// Per definition: where its tracked counters start in `counts`, or -1.
  private var firstCounter: [Int32] = []
  /// The tracked relationships' counters; ``writtenMark`` when the object writes it.
  private var counts: [Int32] = []
  static let writtenMark: Int32 = -1

  /// Forgets every id and reference, keeping small storage (``IDTable/removeAll()``).
  mutating func removeAll() {
    definitions.removeAll()
    if !references.isEmpty { references.removeAll(keepingCapacity: references.capacity <= 256) }
    if !firstCounter.isEmpty { firstCounter.removeAll(keepingCapacity: firstCounter.capacity <= 256) }
    if !counts.isEmpty { counts.removeAll(keepingCapacity: counts.capacity <= 1024) }
  }

  /// Defines the id whose raw attribute value is `raw`, reporting a second
  /// definition; returns where the object's `trackedCount` counters start,
  /// or -1 (no counters, or the id was already defined).
  @discardableResult
  mutating func define(
    raw: UnsafeBufferPointer<UInt8>, entity: Int?, range: TextRange, validator: OutlineValidator,
    trackedCount: Int = 0
  ) -> Int {
    guard let first = definitions.define(raw: raw, entity: entity, range: range) else {
      guard trackedCount > 0 else {
        firstCounter.append(-1)
        return -1
      }
      firstCounter.append(Int32(truncatingIfNeeded: counts.count))
      counts.append(contentsOf: repeatElement(0, count: trackedCount))
      return counts.count - trackedCount
    }
    let id = XMLEscaping.decodeAttribute(raw)
    validator.report(
      .duplicateID, "The id \(Excerpt.quoted(id)) is used twice", at: range,
      related: [RelatedLocation(range: first.range, message: "\(Excerpt.quoted(id)) is first defined here")])
    return -1
  }

  /// Brings the id table's slot for the id `raw` into the caches (``IDTable/prefetch(raw:)``).
  /// Mutating only so that the table is reached in place: a non-mutating call on the
  /// validator's stored table copied it, retaining and releasing each of its arrays.
  mutating func prefetch(raw: UnsafeBufferPointer<UInt8>) { definitions.prefetch(raw: raw) }

  /// Tells the id table the document's size (``IDTable/expectedDocumentBytes``).
  mutating func expect(documentBytes: Int) { definitions.expectedDocumentBytes = documentBytes }

  /// Notes that the object whose counters start at `first` writes tracked relationship `slot`.
  mutating func markWritten(_ first: Int, slot: Int) {
    counts[first + slot] = Self.writtenMark
  }

  /// Adds `count` nested children to tracked containment `slot`.
  mutating func addNested(_ count: Int, first: Int, slot: Int) {
    if counts[first + slot] != Self.writtenMark { counts[first + slot] += Int32(truncatingIfNeeded: count) }
  }

  /// Records a written relationship; `raw` gives the id ranges inside `range`.
  mutating func add(
    from sourceID: String?, entity: Int, relationship: Int, value: String,
    raw: UnsafeBufferPointer<UInt8>, range: TextRange
  ) {
    var targets: [(String, TextRange)] = []
    // A to-many relationship is a set: an id named twice is one object (counted once through
    // the inverse, checked once), kept at its first place.
    var seen: Set<String> = []
    // Ids are split on the raw bytes so each keeps its exact range (the range of the id as
    // written), and each is decoded as `xml:id` values are: `&#233;6` names the object
    // whose `xml:id` is `é6`, however either is written.
    var index = 0
    while index < raw.count {
      while index < raw.count && XMLName.isSpace(raw[index]) { index += 1 }
      let start = index
      while index < raw.count && !XMLName.isSpace(raw[index]) { index += 1 }
      if index > start {
        let token = UnsafeBufferPointer(rebasing: raw[start..<index])
        let id =
          token.contains(UInt8(ascii: "&"))
          ? XMLEscaping.decodeAttribute(token) : String(decoding: token, as: UTF8.self)
        if seen.insert(id).inserted {
          targets.append((id, TextRange(start: range.start + start, end: range.start + index)))
        }
      }
    }
    references.append(
      Reference(sourceID: sourceID, entity: entity, relationship: relationship, targets: targets))
  }

  mutating func resolve(schema: ModelIndex, validator: OutlineValidator) {
    let model = schema
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
            "\(Excerpt.quoted(relationship.name)) names \(Excerpt.quoted(target.id)), which no object in the file has as its id",
            at: target.range)
          continue
        }
        guard let destination = relationship.destination else { continue }
        guard let entity = definition.entity, model.isKind(entity, of: destination) else {
          let actual =
            definition.entity.map { Excerpt.escaped(model.entities[$0].name) } ?? "an unknown entity"
          validator.report(
            .wrongEntityReference,
            "\(Excerpt.quoted(relationship.name)) leads to \(Excerpt.quoted(model.entities[destination].name)), but \(Excerpt.quoted(target.id)) is \(actual)",
            at: target.range,
            related: [
              RelatedLocation(
                range: definition.range, message: "\(Excerpt.quoted(target.id)) is defined here")
            ])
          continue
        }
        guard let inverse = relationship.inverse,
          let inverseIndex = model.entities[entity].relationshipIndex[
            model.entities[destination].relationships[inverse].name]
        else { continue }
        // The other side counts this object, unless it writes its own list.
        let slot = schema.trackedSlot[entity][inverseIndex]
        if slot >= 0, firstCounter[definition.index] >= 0 {
          let counter = Int(firstCounter[definition.index]) + slot
          if counts[counter] != Self.writtenMark { counts[counter] += 1 }
        }
        // Where the other side is written too, it must name this object.
        guard let back = written[target.id]?[inverseIndex] else { continue }
        if let source = reference.sourceID, back.contains(source) { continue }
        let inverseName = model.entities[destination].relationships[inverse].name
        let who = reference.sourceID.map { Excerpt.quoted($0) } ?? "this object (it has no id)"
        validator.report(
          .inverseDisagrees,
          "\(Excerpt.quoted(relationship.name)) names \(Excerpt.quoted(target.id)), but its \(Excerpt.quoted(inverseName)) does not name \(who)",
          at: target.range,
          related: [
            RelatedLocation(range: definition.range, message: "\(Excerpt.quoted(target.id)) is defined here")
          ])
      }
    }
    checkTracked(schema: schema, validator: validator)
  }

  /// Checks every tracked relationship an object with an id does not write
  /// against what the objects naming it through the inverse add up to (OL503).
  private func checkTracked(schema: ModelIndex, validator: OutlineValidator) {
    let model = schema
    for index in firstCounter.indices where firstCounter[index] >= 0 {
      let (id, definition) = definitions.definition(at: index)
      guard let entity = definition.entity else { continue }
      let first = Int(firstCounter[index])
      let declaration = model.entities[entity]
      for (position, slot) in schema.trackedSlot[entity].enumerated() where slot >= 0 {
        let count = Int(counts[first + slot])
        if count == Int(Self.writtenMark) { continue }
        let relationship = declaration.relationships[position]
        let inverse = relationship.inverseName ?? "its inverse"
        let object = "\(Excerpt.quoted(declaration.name)) \(Excerpt.quoted(id))"
        if count == 0 && !relationship.isOptional {
          validator.report(
            .cardinality,
            "\(object) needs \(Excerpt.quoted(relationship.name)) (not optional): it does not write it and no object names it through \(Excerpt.quoted(inverse))",
            at: definition.range)
        } else if !relationship.isToMany && count > 1 {
          validator.report(
            .cardinality,
            "\(object) is named through \(Excerpt.quoted(inverse)) by \(count) objects, but its \(Excerpt.quoted(relationship.name)) is to-one",
            at: definition.range)
        } else if relationship.isToMany, let minimum = relationship.minCount, count < minimum,
          count > 0 || !relationship.isOptional
        {
          validator.report(
            .cardinality,
            "\(object) has \(count) \(Excerpt.quoted(relationship.name)) (counting objects that name it through \(Excerpt.quoted(inverse))), fewer than the minimum \(minimum)",
            at: definition.range)
        } else if relationship.isToMany, let maximum = relationship.maxCount, maximum > 0, count > maximum {
          validator.report(
            .cardinality,
            "\(object) has \(count) \(Excerpt.quoted(relationship.name)) (counting objects that name it through \(Excerpt.quoted(inverse))), more than the maximum \(maximum)",
            at: definition.range)
        }
      }
    }
  }
}
