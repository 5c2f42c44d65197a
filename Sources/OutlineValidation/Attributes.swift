import OutlineCore
import OutlineModel
import OutlineXML

/// What the attribute pass learned about one object.
struct AttributeFindings {
  var order: Int64?
  var orderRange: TextRange?
  var titleRange: TextRange?
  var titleIndex: Int?
  var idRange: TextRange?
  /// Where the object's tracked-relationship counters start, or -1.
  var firstCounter = -1
  /// The number of the object's id in the reference table, or -1.
  var idIndex = -1
}

extension OutlineValidator {
  /// Checks an object's XML attributes (OL203-OL205, OL300-OL302, OL500,
  /// OL503) and records its id and references. `implied` is the
  /// relationship its nesting sets (the inverse of the containment that
  /// holds it), or -1.
  func checkAttributes(_ tag: StartTag, entity: Int, isRoot: Bool, implied: Int, schema: ModelIndex)
    -> AttributeFindings
  {
    var findings = AttributeFindings()
    let attributeCount = schema.attributeCount[entity]
    // Which attributes the tag writes: bits, or `present` for an entity with more than 64.
    var presentBits: UInt64 = 0
    let wide = attributeCount > 64
    if wide {
      present.removeAll(keepingCapacity: true)
      present.append(contentsOf: repeatElement(false, count: attributeCount))
    }
    if !written.isEmpty { written.removeAll(keepingCapacity: true) }
    let plain = keyLookup.plain[entity]
    let keepsTags = schema.uniqueness.hasChecks[entity]
    if keepsTags {
      attributeTag.removeAll(keepingCapacity: true)
      attributeTag.append(contentsOf: repeatElement(-1, count: attributeCount))
    }
    var idIndex: Int?
    let orderAttribute = schema.orderAttribute[entity]
    let titleAttribute = schema.titleAttribute[entity]

    for index in 0..<tag.unsafeAttributes.count {
      let name = tag.unsafeName(of: index)
      // The root's format attributes are never the root entity's properties, whatever their names.
      guard !(isRoot && RootFormat.isAttribute(name)),
        let attribute = keyLookup.attribute(name, of: entity, in: schema)
      else {
        // An id, a relationship, a format attribute or something unknown: out of the loop that
        // every attribute of every tag runs, so the loop keeps its registers.
        otherAttribute(
          tag, index: index, entity: entity, isRoot: isRoot, implied: implied, schema: schema,
          findings: &findings, idIndex: &idIndex)
        continue
      }
      if wide { present[attribute] = true } else { presentBits |= 1 << UInt64(attribute) }
      if keepsTags { attributeTag[attribute] = index }
      if attribute == orderAttribute {
        guard !isRoot else {
          rootOrder(tag, index: index, attribute: attribute, entity: entity, schema: schema)
          continue
        }
        findings.orderRange = tag.valueRange(of: index)
        if let value = orderValue(tag.unsafeRawValue(of: index)),
          (value >= Int64(Int16.min) && value <= Int64(Int16.max))
            || fits(value, schema.entities[entity].attributes[attribute].type)
        {
          findings.order = value
          continue
        }
      }
      if attribute == titleAttribute {
        findings.titleRange = tag.valueRange(of: index)
        findings.titleIndex = index
      }
      // Stored, untyped, unconstrained (a title, say): nothing more to check.
      if attribute < 64 && plain & (1 << UInt64(attribute)) != 0 { continue }
      checkAttributeValue(tag, index: index, attribute: attribute, entity: entity, schema: schema)
    }

    if let idIndex { defineID(tag, index: idIndex, entity: entity, schema: schema, findings: &findings) }
    if written.isEmpty && !schema.mayMissRequired[entity] { return findings }
    let id = idIndex.map { tag.value(of: $0) }
    let model = schema
    let definition = model.entities[entity]
    for (relationship, index) in written
    where relationship != implied && !definition.relationships[relationship].isContainment {
      checkReferenceNames(
        tag.unsafeRawValue(of: index), range: tag.valueRange(of: index),
        relationship: definition.relationships[relationship].name)
      references.add(
        from: id, entity: entity, relationship: relationship, value: tag.value(of: index),
        raw: tag.unsafeRawValue(of: index), range: tag.valueRange(of: index))
      if findings.firstCounter >= 0, schema.trackedSlot[entity][relationship] >= 0 {
        references.markWritten(findings.firstCounter, slot: schema.trackedSlot[entity][relationship])
      }
    }
    reportMissing(
      definition, present: { wide ? self.present[$0] : presentBits & (1 << UInt64($0)) != 0 },
      written: written, tag: tag, isRoot: isRoot, implied: implied,
      counted: findings.firstCounter >= 0 ? schema.trackedSlot[entity] : nil)
    return findings
  }

  /// Checks the `xml:id` at attribute `index` (its range in `findings`) and defines it,
  /// noting its number and counters in `findings`.
  @inline(__always)
  func defineID(
    _ tag: StartTag, index: Int, entity: Int, schema: ModelIndex, findings: inout AttributeFindings
  ) {
    checkIDName(tag.unsafeRawValue(of: index), range: findings.idRange!)
    let before = references.definitions.count
    findings.firstCounter = references.define(
      raw: tag.unsafeRawValue(of: index), entity: entity, range: findings.idRange!, validator: self,
      trackedCount: schema.trackedCount[entity])
    if references.definitions.count > before { findings.idIndex = before }
  }

  /// The root carries the order attribute, which only children have (OL203).
  @inline(never)
  private func rootOrder(_ tag: StartTag, index: Int, attribute: Int, entity: Int, schema: ModelIndex) {
    let declaration = schema.entities[entity].attributes[attribute]
    report(
      .unknownAttribute,
      "The root object has no \(Excerpt.quoted(declaration.name)): only its children are numbered",
      at: tag.nameRange(of: index))
  }

  /// An attribute of the model that needs more than being read: a transient, derived or typed
  /// one, or a string with bounds (an order already read is not here).
  @inline(never)
  func checkAttributeValue(
    _ tag: StartTag, index: Int, attribute: Int, entity: Int, schema: ModelIndex
  ) {
    let info = schema.attributes[entity][attribute]
    if info.isTransient {
      report(
        .transientStored,
        "\(Excerpt.quoted(info.declaration.name)) is transient: Core Data does not store it, so the value would be lost",
        at: tag.nameRange(of: index))
    }
    if info.isDerived {
      let expression = info.declaration.derivationExpression.map { " (\(Excerpt.escaped($0)))" } ?? ""
      report(
        .derivedStored,
        "\(Excerpt.quoted(info.declaration.name)) is derived\(expression): Core Data computes it and overwrites this value; remove it",
        at: tag.nameRange(of: index))
      return
    }
    if info.needsCheck {
      checkValue(tag.unsafeRawValue(of: index), range: tag.valueRange(of: index), attribute: info)
    }
  }

  /// A name that is not an attribute of the entity: its `xml:id`, a relationship, what the root
  /// may carry, a namespace declaration, or an unknown name (OL203).
  @inline(never)
  private func otherAttribute(
    _ tag: StartTag, index: Int, entity: Int, isRoot: Bool, implied: Int, schema: ModelIndex,
    findings: inout AttributeFindings, idIndex: inout Int?
  ) {
    let name = tag.unsafeName(of: index)
    if XMLName.equals(name, "xml:id") {
      findings.idRange = tag.valueRange(of: index)
      idIndex = index
    } else if isRoot && RootFormat.isAttribute(name) {
      return
    } else if let relationship = keyLookup.relationship(name, of: entity, in: schema) {
      checkRelationshipAttribute(
        tag, index: index, entity: entity, relationship: relationship, implied: implied, model: schema)
      written.append((relationship, index))
    } else if XMLName.declaredPrefix(name) != nil {
      noteNamespace(tag, index: index, isRoot: isRoot)
      return
    } else {
      let text = XMLName.string(name)
      let entityName = schema.entities[entity].name
      if schema.entities[entity].fetchedProperties.contains(where: { $0.name == text }) {
        report(
          .unknownAttribute,
          "\(Excerpt.quoted(text)) is a fetched property of \(Excerpt.quoted(entityName)): a saved query Core Data evaluates when it is read, never stored; remove it",
          at: tag.nameRange(of: index))
        return
      }
      report(
        .unknownAttribute,
        "\(Excerpt.quoted(text)) is not an attribute or relationship of \(Excerpt.quoted(entityName))",
        at: tag.nameRange(of: index))
    }
  }

  /// An order's value as ``ModelValues/integer(_:)`` reads it; one to four
  /// digits, what siblings are mostly numbered with, read without its sign
  /// and overflow checks.
  @inline(__always)
  private func orderValue(_ raw: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard let base = raw.baseAddress, let value = Self.smallOrder(base, raw.count) else {
      return Self.integer(raw)
    }
    return value
  }

  private func fits(_ value: Int64, _ type: AttributeType?) -> Bool {
    let bounds = ModelValues.integerBounds(type ?? .integer64)
    return value >= bounds.lowerBound && value <= bounds.upperBound
  }

  /// Keeps the root's namespace declarations, and notes one elsewhere that the root does not
  /// make the same: the JSON form keeps the root's only (`@xmlns`), so converting it would
  /// move a prefixed name into another namespace.
  private func noteNamespace(_ tag: StartTag, index: Int, isRoot: Bool) {
    let name = XMLName.string(tag.unsafeName(of: index))
    let value = tag.value(of: index)
    if isRoot {
      rootNamespaces[name] = value
    } else if rootNamespaces[name] != value {
      unportableNamespaces.append(
        Diagnostic(
          .unknownAttribute,
          "\(Excerpt.quoted(name + "=\"" + value + "\"")) is declared on an object other than the root, which does not declare it so: the JSON form keeps the root's declarations only; declare it on the root",
          at: tag.nameRange(of: index)))
    }
  }

  private func checkRelationshipAttribute(
    _ tag: StartTag, index: Int, entity: Int, relationship: Int, implied: Int, model: ModelIndex
  ) {
    let declaration = model.entities[entity].relationships[relationship]
    if declaration.isContainment {
      report(
        .unknownAttribute,
        "\(Excerpt.quoted(declaration.name)) is a containment relationship: write its objects as child elements",
        at: tag.nameRange(of: index))
      return
    }
    if relationship == implied {
      report(
        .unknownAttribute,
        "\(Excerpt.quoted(declaration.name)) is implied by nesting here and is not written",
        at: tag.nameRange(of: index))
      return
    }
    // The objects it names: a to-many relationship is a set, so an id written twice counts once.
    let ids = Set(
      XMLName.tokens(tag.value(of: index)))
    let label = Excerpt.quoted(declaration.name)
    if !declaration.isToMany && ids.count > 1 {
      report(
        .cardinality, "\(label) is to-one but holds \(ids.count) ids", at: tag.valueRange(of: index))
    } else if declaration.isToMany, let minimum = declaration.minCount, minimum > 0, ids.count < minimum,
      !(ids.isEmpty && declaration.isOptional)
    {
      report(
        .cardinality, "\(label) holds \(counted(ids.count, "id")), fewer than the minimum \(minimum)",
        at: tag.valueRange(of: index))
    } else if declaration.isToMany, let maximum = declaration.maxCount, maximum > 0, ids.count > maximum {
      report(
        .cardinality, "\(label) holds \(ids.count) ids, more than the maximum \(maximum)",
        at: tag.valueRange(of: index))
    } else if ids.isEmpty && !declaration.isOptional {
      report(.cardinality, "\(label) is required but empty", at: tag.valueRange(of: index))
    }
  }

  /// Reports what the object lacks; relationships with a slot in `counted`
  /// are checked when the file is read, since other objects can set them.
  private func reportMissing(
    _ definition: Entity, present: (Int) -> Bool, written: [(relationship: Int, index: Int)],
    tag: StartTag, isRoot: Bool, implied: Int, counted: [Int]?
  ) {
    for (index, attribute) in definition.attributes.enumerated() where !present(index) {
      // A missing order is OL400 where siblings are numbered; the root has none.
      if index == definition.orderAttribute { continue }
      if !attribute.isRequired { continue }
      report(
        .requiredAttributeMissing,
        "\(Excerpt.quoted(definition.name)) needs \(Excerpt.quoted(attribute.name)) (\(Excerpt.escaped(attribute.typeName)), not optional, no default)"
          + (isRoot ? Self.formatNameNote(attribute.name) : ""),
        at: tag.nameRange)
    }
    for (index, relationship) in definition.relationships.enumerated()
    where relationship.isRequired && index != implied && (counted?[index] ?? -1) < 0
      && !written.contains(where: { $0.relationship == index })
    {
      report(
        .cardinality,
        "\(Excerpt.quoted(definition.name)) needs \(Excerpt.quoted(relationship.name)) (not optional)"
          + (isRoot ? Self.formatNameNote(relationship.name) : ""),
        at: tag.nameRange)
    }
  }

  /// Why a required property of the root entity named like a format attribute cannot be
  /// written on the root element; empty for any other name.
  private static func formatNameNote(_ name: String) -> String {
    guard RootFormat.isAttribute(name) else { return "" }
    return
      ", which the root element cannot hold: its \(Excerpt.quoted(name)) is \(RootFormat.meaning(of: name)) (OM217; rename the property in the model)"
  }
}
