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
  private let index: ModelIndex
  private let tables: [EntityTable]
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

  /// An entity's keys, laid out for the per-item loop: names and quoted
  /// keys one after another with where each ends, so matching and writing
  /// touch no `Key` value (nor its reference counts).
  final class EntityTable {
    /// `,"@entity":"Name"`.
    let entity: [UInt8]
    let keys: [Key]
    let names: [UInt8]
    let nameEnds: [Int]
    let quoted: [UInt8]
    let quotedEnds: [Int]
    let ranks: [Int]
    let kinds: [Key.Kind]
    /// `entity` then `quoted`, in memory this table owns: each item's copies of them read
    /// no array (no uniqueness, bounds or reference count work).
    private let bytes: UnsafeMutablePointer<UInt8>
    /// Where each key's `,"name":` starts in `bytes`, and where the last ends.
    private let quotedStarts: UnsafeMutablePointer<Int>

    init(entity: [UInt8], keys: [Key]) {
      self.entity = entity
      self.keys = keys
      names = keys.flatMap(\.name)
      quoted = keys.flatMap(\.quoted)
      var end = 0
      nameEnds = keys.map {
        end += $0.name.count
        return end
      }
      end = 0
      quotedEnds = keys.map {
        end += $0.quoted.count
        return end
      }
      ranks = keys.map(\.rank)
      kinds = keys.map(\.kind)
      let all = entity + quoted
      bytes = .allocate(capacity: max(all.count, 1))
      bytes.initialize(from: all, count: all.count)
      let starts = [entity.count] + quotedEnds.map { entity.count + $0 }
      quotedStarts = .allocate(capacity: starts.count)
      quotedStarts.initialize(from: starts, count: starts.count)
    }

    deinit {
      bytes.deallocate()
      quotedStarts.deallocate()
    }

    /// Appends `,"@entity":"Name"`.
    @inline(__always)
    func appendEntity(to out: inout ByteOutput) {
      out.append(UnsafeBufferPointer(start: bytes, count: quotedStarts[0]))
    }

    /// Appends `,"name":` of key `index`.
    @inline(__always)
    func appendQuoted(_ index: Int, to out: inout ByteOutput) {
      let start = quotedStarts[index]
      out.append(UnsafeBufferPointer(start: bytes + start, count: quotedStarts[index + 1] - start))
    }

    /// The key named by `name`, if the entity has one.
    func key(named name: UnsafeBufferPointer<UInt8>) -> Int? {
      names.withUnsafeBufferPointer { names in
        var start = 0
        for (index, end) in nameEnds.enumerated() {
          // The first byte is compared here: most names that differ do so there, without a call.
          if end - start == name.count && names[start] == name[0]
            && memcmp(names.baseAddress! + start, name.baseAddress!, name.count) == 0
          {
            return index
          }
          start = end
        }
        return nil
      }
    }
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
      return EntityTable(entity: Array(",\"@entity\":\(JSONText.quote(definition.name))".utf8), keys: keys)
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
        Self.appendString(tag.rawValue(of: index), to: &out)
      }
      if let index = tag.index(of: "modelVersion") {
        out.append(",\"@modelVersion\":")
        Self.appendString(tag.rawValue(of: index), to: &out)
      }
    }
    if let entity {
      // One pass over the attributes finds `xml:id` and the entity's keys.
      let table = tables[entity]
      table.appendEntity(to: &out)
      writeValues(tag, table: table, into: &out)
    } else if let index = tag.index(of: "xml:id") {
      Self.appendID(tag.rawValue(of: index), to: &out)
    }
    if out.count > opening {
      out.base[opening] = UInt8(ascii: "{")
    } else {
      out.append(UInt8(ascii: "{"))
    }
  }

  /// Appends `,"@id":` and the quoted `xml:id` value.
  private static func appendID(_ raw: UnsafeBufferPointer<UInt8>, to out: inout ByteOutput) {
    out.append(",\"@id\":")
    appendString(raw, to: &out)
  }

  /// The `xml:id` (`@id`) and then the attributes and references the entity knows, in model order.
  private func writeValues(_ tag: StartTag, table: EntityTable, into out: inout ByteOutput) {
    let count = tag.attributes.count
    guard count > 0 else { return }
    withUnsafeTemporaryAllocation(of: (key: Int, attribute: Int).self, capacity: count) { found in
      var used = 0
      var id: Int?
      for attribute in 0..<count {
        let name = tag.name(of: attribute)
        if id == nil && XMLName.equals(name, "xml:id") { id = attribute }
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
      if let id { Self.appendID(tag.rawValue(of: id), to: &out) }
      for entry in found[0..<used] {
        table.appendQuoted(entry.key, to: &out)
        let raw = tag.rawValue(of: entry.attribute)
        switch table.kinds[entry.key] {
        case .string:
          Self.appendString(raw, to: &out)
        case .integer where Self.isCanonicalInteger(raw):
          out.append(raw)
        case .integer, .other:
          out.append(Array(Self.json(XMLEscaping.decodeAttribute(raw), table.keys[entry.key].valueKind).utf8))
        case .toOne, .toMany:
          let ids = XMLEscaping.decodeAttribute(raw).split(separator: " ").map { JSONText.quote(String($0)) }
          out.append(
            Array(
              (table.kinds[entry.key] == .toMany
                ? "[" + ids.joined(separator: ",") + "]" : ids.first ?? "null")
                .utf8))
        }
      }
    }
  }

  /// A mask whose lowest set bit is in the first of the eight bytes at `word` that is `&`, `"`, `\\`
  /// or a control character (the bytes ``appendString(_:to:)`` does more with than copy), or 0 when
  /// there is none. Bits above the first may be set for bytes that need nothing.
  @inline(__always)
  private static func workMask(_ word: UnsafeRawPointer) -> UInt64 {
    let value = word.loadUnaligned(as: UInt64.self)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZero(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
    let below = (value &- ones &* 0x20) & ~value & highs
    return below | hasZero(value ^ (ones &* 0x26)) | hasZero(value ^ (ones &* 0x22))
      | hasZero(value ^ (ones &* 0x5C))
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

  /// `0`, or an optional `-` and up to 18 digits not starting with 0: the
  /// JSON of such an integer is its text.
  static func isCanonicalInteger(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    var digits = raw[...]
    if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.count <= 18, digits.first != UInt8(ascii: "0") || raw.count == 1 else {
      return false
    }
    return digits.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
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
