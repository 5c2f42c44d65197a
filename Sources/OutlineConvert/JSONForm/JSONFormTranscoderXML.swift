// The output part of the JSON form reader's pass: start tags in the canonical layout (attributes in canonical
// order, indentation) handed to the validator as written, end tags, the locating pass that maps a validator
// problem's XML offset back to its JSON key, and the output flushed in pieces of about 1 MiB.

import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML

extension Transcoder {
  mutating func appendElementName(_ object: Open) {
    if object.isRoot {
      output.append(contentsOf: [0x6F, 0x75, 0x74, 0x6C, 0x69, 0x6E, 0x65])  // outline
    } else {
      output.append(contentsOf: tables.entityNames[object.entity])
    }
  }

  mutating func indent(depth: Int) {
    output.append(contentsOf: repeatElement(0x20, count: CanonicalLayout.indentWidth(depth: depth)))
  }

  /// Writes the top object's start tag once: at its first array of children,
  /// or at its end (self-closing); hands it to the validator.
  mutating func writeHead(closing: Bool) {
    let top = objects.count - 1
    guard !objects[top].headWritten else { return }
    objects[top].headWritten = true
    objects[top].hasElements = !closing
    let object = objects[top]
    if case .write(let late?) = mode, let extra = late[object.number] {
      for attribute in extra {
        let textStart = scratch.count
        scratch += attribute.text
        attributes.append(
          Attribute(
            rank: attribute.rank, textStart: textStart, textEnd: scratch.count, offset: attribute.offset))
      }
    }
    defer {
      attributes.removeSubrange(object.attributeBase...)
      scratch.removeSubrange(object.scratchBase...)
    }
    guard emits else { return }
    sortAttributes(from: object.attributeBase)
    indent(depth: top)
    let start = output.count
    output.append(0x3C)
    appendElementName(object)
    let nameEnd = flushed + output.count
    var keyEnds: [Int] = []
    for position in object.attributeBase..<attributes.count {
      let attribute = attributes[position]
      output.append(0x20)
      appendAttributeName(rank: attribute.rank, entity: object.entity)
      output.append(contentsOf: [0x3D, 0x22])
      if attribute.rank == 1, let rebaseModel {
        // The root's `model` (the format's attributes rank first: version, model, ...).
        let reference = XMLEscaping.decodeAttribute(Array(scratch[attribute.textStart..<attribute.textEnd]))
        output.append(contentsOf: XMLEscaping.escapeAttribute(rebaseModel(reference)).utf8)
      } else {
        output.append(contentsOf: scratch[attribute.textStart..<attribute.textEnd])
      }
      output.append(0x22)
      if !locating.isEmpty { keyEnds.append(flushed + output.count) }
    }
    if closing { output.append(0x2F) }
    output.append(0x3E)
    let end = output.count
    output.append(0x0A)
    if let validator {
      output.withUnsafeBufferPointer { buffer in
        TagScanner.withStartTag(
          UnsafeBufferPointer(rebasing: buffer[start..<end]), at: flushed + start, attributes: &rawAttributes
        ) { validator.startElement($0) }
      }
      if closing { validator.endElement(range: nil) }
    }
    for target in targets(in: TextRange(start: flushed + start, end: flushed + end)) {
      // At the key whose value holds the problem, else at the object.
      if let slot = keyEnds.firstIndex(where: { target < $0 }), target >= nameEnd,
        let key = jsonKey(rank: attributes[object.attributeBase + slot].rank, entity: object.entity)
      {
        located[target] = (path(adding: key), attributes[object.attributeBase + slot].offset)
      } else {
        located[target] = (path(), object.start)
      }
    }
  }

  /// The target offsets inside `range` (targets before it are passed over: they are in no tag).
  mutating func targets(in range: TextRange) -> [Int] {
    var found: [Int] = []
    while nextTarget < locating.count && locating[nextTarget] < range.end {
      if locating[nextTarget] >= range.start { found.append(locating[nextTarget]) }
      nextTarget += 1
    }
    return found
  }

  /// Stable insertion sort by rank: keys mostly come in canonical order already.
  mutating func sortAttributes(from base: Int) {
    guard attributes.count - base > 1 else { return }
    for position in (base + 1)..<attributes.count {
      let moving = attributes[position]
      var slot = position
      while slot > base && attributes[slot - 1].rank > moving.rank {
        attributes[slot] = attributes[slot - 1]
        slot -= 1
      }
      attributes[slot] = moving
    }
  }

  mutating func appendAttributeName(rank: Int, entity: Int) {
    let index = rank & 0xFFFF_FFFF
    switch rank >> 32 {
    case 0: output.append(contentsOf: RootFormat.attributeNames[index].utf8)
    case 1: output.append(contentsOf: namespaceNames[index])
    case 2: output.append(contentsOf: "xml:id".utf8)
    case 3: output.append(contentsOf: tables.keys[entity][index])
    default: output.append(contentsOf: tables.keys[entity][tables.attributeCount[entity] + index])
    }
  }

  /// The JSON key an attribute came from (nil for the root's `version`).
  func jsonKey(rank: Int, entity: Int) -> String? {
    let index = rank & 0xFFFF_FFFF
    switch rank >> 32 {
    case 0: return [nil, "@model", "@modelVersion", "@entity"][index]
    case 1: return "@xmlns"
    case 2: return "@id"
    case 3: return String(decoding: tables.keys[entity][index], as: UTF8.self)
    default:
      return String(decoding: tables.keys[entity][tables.attributeCount[entity] + index], as: UTF8.self)
    }
  }

  /// Hands what was written so far to `sink`, or drops it.
  mutating func flush() {
    flushed += output.count
    sink?(&output)
    output.removeAll(keepingCapacity: true)
  }
}
