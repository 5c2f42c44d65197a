// One object's line of the JSON form, made from its start tag's bytes: per-entity tables of pre-quoted keys
// laid out for the per-item loop (the names, kinds and containments come from the model's ``ModelIndex``), then `@entity`, `@id`, attributes and references in model order,
// each value quoted straight from the file or normalized by its attribute type. This runs once per item, so it
// works on bytes.

import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML

/// Writes one object's opening: `{"@entity":...,"@id":...,attributes...`.
///
/// This runs once per item of a document, so it works on the tag's bytes:
/// names are matched against per-entity tables of bytes, keys come
/// pre-quoted, and a value that needs no decoding is quoted straight from
/// the file (strings are made only for numbers and references that need
/// normalizing, which are rare).
struct ObjectHead {
  let model: Model
  let rootEntity: Int?
  /// How the root's model reference is written, when the output lies in another folder than the
  /// input (a relative path is relative to the file it is in); nil: as it stands.
  var rebaseModel: (@Sendable (String) -> String)?
  private let index: ModelIndex
  let tables: [EntityTable]
  /// `,"name":[` for each entity's relationships; `@objects` is the last.
  private let arrayOpenings: [[[UInt8]]]

  /// One attribute or relationship an entity's objects may carry.
  struct Key {
    enum Kind { case string, integer, other, toOne, toMany }
    let name: [UInt8]
    /// `,"name":` (the comma is skipped for the first key).
    let quoted: [UInt8]
    /// Model order: attributes, then relationships.
    let rank: Int
    let kind: Kind
    /// An attribute's kind of value (nil for a relationship).
    let valueKind: ValueKind?
  }

  init(model: Model, rootEntity: Int?) {
    self.model = model
    self.rootEntity = rootEntity
    let index = model.index
    self.index = index
    tables = model.entities.indices.map { entity in
      let definition = model.entities[entity]
      var keys: [Key] = []
      for (rank, facts) in index.attributes[entity].enumerated() {
        let kind: Key.Kind
        switch facts.valueKind {
        case .integer: kind = .integer
        case .number, .boolean: kind = .other
        case .string, .text, .opaque: kind = .string
        }
        keys.append(
          Key(
            name: index.keys[entity][rank], quoted: Array(",\(JSONText.quote(facts.declaration.name)):".utf8),
            rank: rank, kind: kind, valueKind: facts.valueKind))
      }
      for (relationship, kind) in index.relationshipKinds[entity].enumerated() {
        let rank = index.attributeCount[entity] + relationship
        let name = definition.relationships[relationship].name
        keys.append(
          Key(
            name: index.keys[entity][rank], quoted: Array(",\(JSONText.quote(name)):".utf8), rank: rank,
            kind: kind == .toOne ? .toOne : .toMany, valueKind: nil))
      }
      return EntityTable(
        entity: Array(",\"@entity\":\(JSONText.quote(definition.name))".utf8), keys: keys,
        elementName: index.entityNames[entity])
    }
    arrayOpenings = model.entities.map { definition in
      (definition.relationships.map(\.name) + ["@objects"]).map { Array(",\(JSONText.quote($0)):[".utf8) }
    }
  }

  /// The containment relationship that holds `child` under `parent`, or -1 (`@objects`).
  func arrayIndex(parentEntity: Int?, child: Int?) -> Int {
    guard let parentEntity, let child else { return -1 }
    return index.containmentIndex(of: parentEntity, holding: child)
  }

  /// `,"key":[` for an array of `parentEntity`'s objects.
  func arrayOpening(parentEntity: Int?, index: Int) -> [UInt8] {
    guard let parentEntity else { return Array(",\"@objects\":[".utf8) }
    let openings = arrayOpenings[parentEntity]
    return index >= 0 ? openings[index] : openings[openings.count - 1]
  }

  /// The entity of a non-root element.
  func entity(of tag: StartTag) -> Int? {
    XMLName.index(of: tag.name, in: index.entityNames)
  }

  /// Appends the opening of `tag`'s object to `out`: written through a pointer into a reused
  /// buffer, so the millions of small appends make no array uniqueness or capacity checks.
  func write(_ tag: StartTag, entity: Int?, isRoot: Bool, into out: inout ByteOutput) {
    // Every key is written with a leading comma; the first one's is overwritten by `{`.
    let opening = out.count
    if isRoot {
      out.append(",\"@outline\":1")
      if let index = tag.index(of: "model") {
        out.append(",\"@model\":")
        if let rebaseModel {
          out.append(Array(JSONText.quote(rebaseModel(tag.value(of: index))).utf8))
        } else {
          Self.appendString(tag.unsafeRawValue(of: index), to: &out)
        }
      }
      if let index = tag.index(of: "modelVersion") {
        out.append(",\"@modelVersion\":")
        Self.appendString(tag.unsafeRawValue(of: index), to: &out)
      }
      Self.appendNamespaces(tag, to: &out)
    }
    if let entity {
      let table = tables[entity]
      if !isRoot && table.keyCount <= 64 {
        writeItem(tag, table: table, into: &out)
        return
      }
      // One pass over the attributes finds `xml:id` and the entity's keys.
      table.appendEntity(to: &out)
      writeValues(tag, table: table, isRoot: isRoot, into: &out)
    } else if let index = tag.index(of: "xml:id") {
      Self.appendID(tag.unsafeRawValue(of: index), to: &out)
    }
    if out.count > opening {
      out.base[opening] = UInt8(ascii: "{")
    } else {
      out.append(UInt8(ascii: "{"))
    }
  }

  /// Appends `,"@xmlns":{...}`, the root's namespace declarations (prefix: namespace name, `""`
  /// for `xmlns`), when it has some: the prefixed attributes they declare read back.
  private static func appendNamespaces(_ tag: StartTag, to out: inout ByteOutput) {
    var first = true
    for index in 0..<tag.unsafeAttributes.count {
      // `xml` is bound without a declaration: one written anyway is not the document's data.
      guard let prefix = XMLName.declaredPrefix(tag.unsafeName(of: index)), !XMLName.equals(prefix, "xml")
      else { continue }
      out.append(first ? ",\"@xmlns\":{" : ",")
      first = false
      appendString(prefix, to: &out)
      out.append(UInt8(ascii: ":"))
      appendString(tag.unsafeRawValue(of: index), to: &out)
    }
    if !first { out.append(UInt8(ascii: "}")) }
  }

  /// Appends `,"@id":` and the quoted `xml:id` value.
  private static func appendID(_ raw: UnsafeBufferPointer<UInt8>, to out: inout ByteOutput) {
    out.append(",\"@id\":")
    appendString(raw, to: &out)
  }

  /// The `xml:id` (`@id`) and then the attributes and references the entity knows, in model order.
  private func writeValues(_ tag: StartTag, table: EntityTable, isRoot: Bool, into out: inout ByteOutput) {
    let count = tag.unsafeAttributes.count
    guard count > 0 else { return }
    withUnsafeTemporaryAllocation(of: (key: Int, attribute: Int).self, capacity: count) { found in
      var used = 0
      var id: Int?
      for attribute in 0..<count {
        let name = tag.unsafeName(of: attribute)
        if id == nil && XMLName.equals(name, "xml:id") { id = attribute }
        // On the root, `version`, `model`, `entity` and `modelVersion` are the format's, even
        // where the root entity has a property of that name.
        if isRoot && RootFormat.isAttribute(name) { continue }
        guard let key = table.key(named: name) else { continue }
        // Insertion in rank order; documents written by fmt are already in it.
        var slot = used
        while slot > 0 && table.ranks[found[slot - 1].key] > table.ranks[key] {
          found[slot] = found[slot - 1]
          slot -= 1
        }
        found[slot] = (key, attribute)
        used += 1
      }
      if let id { Self.appendID(tag.unsafeRawValue(of: id), to: &out) }
      for entry in found[0..<used] {
        let raw = tag.unsafeRawValue(of: entry.attribute)
        // A to-one that names nothing is left out, as the reader wants it (no `null`).
        if table.kinds[entry.key] == .toOne && Self.namesNothing(raw) { continue }
        table.appendQuoted(entry.key, to: &out)
        switch table.kinds[entry.key] {
        case .string:
          Self.appendString(raw, to: &out)
        case .integer where CanonicalLayout.isCanonicalInteger(raw):
          out.append(raw)
        case .integer, .other, .toOne, .toMany:
          Self.appendConverted(raw, key: entry.key, table: table, to: &out)
        }
      }
    }
  }

  /// Whether a reference value holds no id (empty, or white space only).
  static func namesNothing(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    XMLEscaping.decodeAttribute(raw).allSatisfy { $0 == " " }
  }

  /// Appends a value that is not copied as it stands: a number or boolean normalized by its
  /// attribute type, or a reference's ids (an array for a to-many relationship).
  static func appendConverted(
    _ raw: UnsafeBufferPointer<UInt8>, key: Int, table: EntityTable, to out: inout ByteOutput
  ) {
    switch table.kinds[key] {
    case .toOne, .toMany:
      let ids = XMLEscaping.decodeAttribute(raw).split(separator: " ").map { JSONText.quote(String($0)) }
      out.append(
        Array(
          (table.kinds[key] == .toMany
            ? "[" + ids.joined(separator: ",") + "]" : ids.first ?? "null")
            .utf8))
    case .string, .integer, .other:
      out.append(Array(Self.json(XMLEscaping.decodeAttribute(raw), table.keys[key].valueKind).utf8))
    }
  }

  /// A mask whose lowest set bit is in the first of the eight bytes at `word` that is `&`, `"`, `\\`
  /// or a control character (the bytes ``appendString(_:to:)`` does more with than copy), or 0 when
  /// there is none. Bits above the first may be set for bytes that need nothing.
  @inline(__always)
  static func workMask(_ word: UnsafeRawPointer) -> UInt64 {
    workMask(of: word.loadUnaligned(as: UInt64.self))
  }

  /// ``workMask(_:)`` of the eight bytes of `value`, first byte lowest.
  @inline(__always)
  static func workMask(of value: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZero(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
    let below = (value &- ones &* 0x20) & ~value & highs
    // `"` (0x22) and `&` (0x26) are the two bytes that are 0x26 with bit 2 set: one test finds both.
    return below | hasZero((value | ones &* 0x04) ^ (ones &* 0x26)) | hasZero(value ^ (ones &* 0x5C))
  }

  /// Appends a raw attribute value as a JSON string: XML references
  /// resolved and white space normalized (XML 1.0 §3.3.3) on the way, with
  /// no intermediate buffer.
  static func appendString(_ raw: UnsafeBufferPointer<UInt8>, to out: inout ByteOutput) {
    out.append(UInt8(ascii: "\""))
    var index = 0
    var runStart = 0
    func flushRun() { out.append(UnsafeBufferPointer(rebasing: raw[runStart..<index])) }
    while index < raw.count {
      // One pass: runs of bytes that are copied as they are (most of a value)
      // are skipped eight at a time, and the word that holds a byte needing work
      // says where it is. The last bytes are read as the eight that end the value
      // (those before `index` are shifted out), so a value's tail is no byte loop.
      if raw.count >= 8 {
        var mask: UInt64 = 0
        while index + 8 <= raw.count {
          mask = Self.workMask(UnsafeRawPointer(raw.baseAddress! + index))
          if mask != 0 { break }
          index += 8
        }
        if mask == 0 {
          guard index < raw.count else { break }
          let tail = raw.count - 8
          mask = Self.workMask(UnsafeRawPointer(raw.baseAddress! + tail)) >> UInt64((index - tail) * 8)
          if mask == 0 {
            index = raw.count
            break
          }
        }
        index += mask.trailingZeroBitCount >> 3
      }
      let byte = raw[index]
      if byte == UInt8(ascii: "&"), let (scalar, length) = XMLEscaping.reference(in: raw, at: index) {
        flushRun()
        if scalar.value < 0x80 {
          out.appendJSONEscaped(UInt8(scalar.value))
        } else {
          UTF8.encode(scalar) { out.append($0) }
        }
        index += length
        runStart = index
        continue
      }
      if byte < 0x20 || byte == 0x22 || byte == 0x5C {
        flushRun()
        if byte == 0x0D || byte == 0x0A || byte == 0x09 {
          out.append(0x20)
          // A CR LF pair is one line end, so one space.
          if byte == 0x0D && index + 1 < raw.count && raw[index + 1] == 0x0A { index += 1 }
        } else {
          out.appendJSONEscaped(byte)
        }
        index += 1
        runStart = index
        continue
      }
      index += 1
    }
    flushRun()
    out.append(UInt8(ascii: "\""))
  }

  /// A value typed by its attribute: numbers, booleans, or strings.
  static func json(_ text: String, _ kind: ValueKind?) -> String {
    switch kind {
    case .integer?:
      return ModelValues.integer(text).map { String($0) } ?? JSONText.quote(text)
    case .number?:
      return ModelValues.isDecimalNumber(text) ? JSONNumber.normalize(text) : JSONText.quote(text)
    case .boolean?:
      return ModelValues.boolean(text).map { $0 ? "true" : "false" } ?? JSONText.quote(text)
    case .string?, .text?, .opaque?, nil:
      return JSONText.quote(text)
    }
  }

  /// The array key a child goes in: its containment relationship, or `@objects`.
  func arrayKey(parentEntity: Int?, child: Int?) -> String {
    let index = arrayIndex(parentEntity: parentEntity, child: child)
    guard let parentEntity, index >= 0 else { return "@objects" }
    return model.entities[parentEntity].relationships[index].name
  }
}

extension ByteOutput {
  /// Appends an ASCII `byte` as it stands inside a JSON string (``JSONText/appendEscaped(_:to:)``).
  mutating func appendJSONEscaped(_ byte: UInt8) {
    switch byte {
    case 0x22, 0x5C:
      append(0x5C)
      append(byte)
    case 0x20...:
      append(byte)
    default:
      var escaped: [UInt8] = []
      JSONText.appendEscaped(byte, to: &escaped)
      append(escaped)
    }
  }
}
