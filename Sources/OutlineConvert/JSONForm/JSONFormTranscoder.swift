// One pass of the JSON form reader over the input's bytes, the structure part: the pass's state, the walk over
// the JSON tokens with a flat stack of open objects (no recursion), each key resolved against the model's
// tables, objects opened and closed, and problems recorded with their JSON paths. What a value becomes is in
// JSONFormTranscoderValues.swift; the XML it writes, in JSONFormTranscoderXML.swift.

import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML

/// One pass over the JSON form.
struct Transcoder {
  enum Stop: Error, Equatable {
    case form(JSONFormError)
    /// An attribute after an array of children, in a pass that cannot place it.
    case late
  }

  enum Mode {
    /// Writes the XML; with late attributes collected by an earlier pass, or none expected.
    case write(late: LateAttributes?)
    /// Writes nothing; collects late attributes.
    case collectLate
  }

  /// An object being read.
  struct Open {
    var number: Int
    /// -1 until known.
    var entity: Int
    var isRoot: Bool
    /// The offset of its `{`.
    var start: Int
    /// Its index in the array it stands in.
    var index: Int
    var sawEntity = false
    /// Whether a key before `@entity` was reported.
    var reportedEntityOrder = false
    /// Whether an attribute or relationship key came.
    var sawData = false
    var headWritten = false
    /// Whether its start tag was written with children to come.
    var hasElements = false
    /// The key whose array of objects is being read.
    var array: Key?
    var arrayCount = 0
    /// The key whose value is being read (for paths).
    var pending: Key?
    var formatSeen: UInt8 = 0
    /// Where its bits in `seen`, its attributes in `attributes`, their text in `scratch` begin.
    var seenBase: Int
    var attributeBase: Int
    var scratchBase: Int
  }

  /// An attribute waiting for its start tag.
  struct Attribute {
    /// Canonical rank: group << 32 | index (root format 0, the root's namespace declarations 1,
    /// `xml:id` 2, attributes 3, relationships 4).
    var rank: Int
    var textStart: Int
    var textEnd: Int
    /// The JSON offset of the value.
    var offset: Int
  }

  /// The root's namespace declarations from `@xmlns`, as attribute names (`xmlns:p`, by rank
  /// index), and the prefixes they declare: a key `p:name` is then an attribute name.
  var namespaceNames: [[UInt8]] = []
  var declaredPrefixes: [[UInt8]] = []
  /// The model's facts.
  let tables: ModelIndex
  /// The entity last found by name, tried first for the next `@entity`.
  var lastEntity = 0
  let model: Model
  let mode: Mode
  var reader: JSONReader
  var validator: (any XMLEventHandler)?
  var sink: ((inout [UInt8]) -> Void)?
  /// How the root's `model` attribute is written, when the output lies in another folder than
  /// the input; nil: as the JSON says.
  var rebaseModel: (@Sendable (String) -> String)?
  /// The XML offsets (ascending) whose key or object the locating pass looks for, and what it found.
  var locating: [Int] = []
  var located: [Int: (path: String, offset: Int)] = [:]
  var nextTarget = 0
  /// The problems found, in the order found; `stopped` after a syntax error.
  var problems: [JSONFormError] = []
  var stopped = false
  /// Late attributes found by a collecting pass.
  var collected: LateAttributes = [:]

  var output: [UInt8] = []
  /// Bytes handed to `sink` (or dropped) so far.
  var flushed = 0
  var objects: [Open] = []
  var seen: [UInt64] = []
  var attributes: [Attribute] = []
  var scratch: [UInt8] = []
  var rawAttributes: [RawAttribute] = []
  var objectCount = 0
  var emits: Bool {
    if case .write = mode { return true }
    return false
  }

  init(bytes: ByteBuffer, model: Model, mode: Mode) {
    tables = model.index
    self.model = model
    self.mode = mode
    reader = JSONReader(bytes)
  }

  // MARK: Paths and errors

  func name(of key: Key, in object: Open) -> String {
    switch key {
    case .format(let format): String(decoding: FormatKey.names[format.rawValue], as: UTF8.self)
    case .entity(let index): String(decoding: tables.keys[object.entity][index], as: UTF8.self)
    }
  }

  func path(adding last: String? = nil) -> String {
    var out = "$"
    for object in objects {
      if !object.isRoot { out += "[\(object.index)]" }
      if let key = object.array ?? object.pending { out += Self.render(name(of: key, in: object)) }
    }
    if let last { out += Self.render(last) }
    return out
  }

  /// A key in a path: `.key`, or `["key"]` as a JSON string when it has other characters;
  /// a long key shortened as messages quote one (``Excerpt``).
  static func render(_ key: String) -> String {
    let shown = Excerpt.truncated(key)
    let simple = key.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "@"
    }
    return simple && !key.isEmpty ? "." + shown : "[\(JSONText.quote(shown))]"
  }

  func fail(_ message: String, at offset: Int? = nil, path: String? = nil) -> Stop {
    .form(JSONFormError(message: message, path: path ?? self.path(), offset: offset ?? reader.range.start))
  }

  /// Records a problem and reads on; at the current token unless `offset` says where.
  mutating func note(
    _ code: DiagnosticCode, _ message: String, at offset: Int? = nil, path: String? = nil
  ) {
    problems.append(
      JSONFormError(
        message: message, path: path ?? self.path(), offset: offset ?? reader.range.start,
        end: offset == nil ? reader.range.end : nil, code: code))
  }

  /// Reads past the value `value` starts: a whole array or object, token
  /// by token, so a syntax error in it is still found.
  mutating func skip(_ value: JSONToken) throws(Stop) {
    guard value.kind == .arrayStart || value.kind == .objectStart else { return }
    try skipRest(depth: 1)
  }

  /// Reads past the ends of `depth` open containers.
  mutating func skipRest(depth: Int) throws(Stop) {
    var depth = depth
    while depth > 0 {
      switch try token().kind {
      case .arrayStart, .objectStart: depth += 1
      case .arrayEnd, .objectEnd: depth -= 1
      default: break
      }
    }
  }

  /// Drops the top object, unwritten, after a problem that leaves it no
  /// element (its entity): reads past the rest of it.
  mutating func abandon(value: JSONToken?) throws(Stop) {
    if let value { try skip(value) }
    try skipRest(depth: 1)
    let object = objects.removeLast()
    seen.removeSubrange(object.seenBase...)
    attributes.removeSubrange(object.attributeBase...)
    scratch.removeSubrange(object.scratchBase...)
  }

  /// The next token inside a container (where the text cannot end).
  mutating func token() throws(Stop) -> JSONToken {
    do throws(JSONSyntaxError) {
      guard let token = try reader.nextToken() else {
        throw JSONSyntaxError(message: "Unexpected end of the JSON text", offset: reader.range.end)
      }
      return token
    } catch {
      throw .form(
        JSONFormError(message: "Invalid JSON: \(error.message)", path: path(), offset: error.offset))
    }
  }

  // MARK: The pass

  mutating func run() throws(Stop) {
    if emits { output += Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8) }
    do {
      guard let first = try reader.nextToken() else { throw fail("The input is empty") }
      guard first.kind == .objectStart else {
        throw fail("The document must be a JSON object (the root object)")
      }
      open(entity: model.defaultRootEntity ?? -1, isRoot: true, start: first.range.start, index: 0)
      try addAttribute(rank: 0, text: [0x31], offset: first.range.start)  // version="1"
      while let token = try reader.nextToken() {
        let top = objects.count - 1
        if let key = objects[top].array {
          switch token.kind {
          case .objectStart:
            objects[top].arrayCount += 1
            open(entity: -1, isRoot: false, start: token.range.start, index: objects[top].arrayCount - 1)
          case .arrayEnd:
            objects[top].array = nil
          default:
            note(
              .valueType, "\(Excerpt.quoted(name(of: key, in: objects[top]))) holds objects only",
              path: path() + "[\(objects[top].arrayCount)]")
            objects[top].arrayCount += 1
            try skip(token)
          }
          continue
        }
        switch token.kind {
        case .objectEnd: try close()
        case .key: try member(token)
        default: throw fail("Expected a key")
        }
      }
    } catch let error as JSONSyntaxError {
      stop(JSONFormError(message: "Invalid JSON: \(error.message)", path: path(), offset: error.offset))
    } catch Stop.form(let error) {
      stop(error)
    } catch let error as Stop {
      throw error
    } catch {
      stop(JSONFormError(message: "\(error)", path: path(), offset: reader.range.start))
    }
    flush()
  }

  /// Ends the pass at a problem nothing can be read past.
  mutating func stop(_ error: JSONFormError) {
    problems.append(error)
    stopped = true
  }

  mutating func open(entity: Int, isRoot: Bool, start: Int, index: Int) {
    objects.append(
      Open(
        number: objectCount, entity: entity, isRoot: isRoot, start: start, index: index, seenBase: seen.count,
        attributeBase: attributes.count, scratchBase: scratch.count))
    objectCount += 1
    if entity >= 0 { reserveSeen(for: entity) }
  }

  mutating func reserveSeen(for entity: Int) {
    let top = objects.count - 1
    seen.removeSubrange(objects[top].seenBase...)
    seen.append(contentsOf: repeatElement(0, count: (tables.keys[entity].count + 63) / 64))
  }

  /// One key of the top object and its value.
  mutating func member(_ token: JSONToken) throws(Stop) {
    let top = objects.count - 1
    let resolved: Key?
    if token.hasEscapes {
      let decoded = Array(reader.string(token).utf8)
      resolved = decoded.withUnsafeBufferPointer { name in resolve(name) }
    } else {
      resolved = resolve(reader.contents(of: token))
    }
    guard let key = resolved else {
      // Reported: its value is read past.
      try skip(try self.token())
      return
    }
    objects[top].pending = key
    let value = try self.token()
    switch key {
    case .format(let format): try formatValue(format, value)
    case .entity(let index): try entityValue(index, value)
    }
    if objects.count - 1 == top { objects[top].pending = nil }
  }

  /// Whether `name` is `prefix:local`, both XML names, with a prefix the root's `@xmlns` declares.
  func isDeclaredQName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let colon = name.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
    let prefix = Array(name[..<colon])
    // `xml` is bound without a declaration (`xml:lang`, `xml:space`, which OPML files carry).
    return (declaredPrefixes.contains(prefix) || prefix == Array("xml".utf8))
      && XMLName.isNCName(String(decoding: name[(colon + 1)...], as: UTF8.self))
  }

  /// The key `name` of the top object, checked to be new; nil (reported) when it cannot be read.
  mutating func resolve(_ name: UnsafeBufferPointer<UInt8>) -> Key? {
    let top = objects.count - 1
    let object = objects[top]
    var text: String { XMLName.string(name) }
    if let format = FormatKey(name) {
      let bit: UInt8 = 1 << format.rawValue
      if object.formatSeen & bit != 0 {
        note(.unknownAttribute, "The key \(Excerpt.quoted(text)) appears twice", path: path(adding: text))
        return nil
      }
      objects[top].formatSeen |= bit
      return .format(format)
    }
    guard object.entity >= 0, object.isRoot || object.sawEntity else {
      // Said once per object: its keys before `@entity` are read past.
      if !object.reportedEntityOrder {
        objects[top].reportedEntityOrder = true
        note(
          .unknownAttribute,
          object.isRoot
            ? "The model has no root entity for \(Excerpt.quoted(text))" : "'@entity' must come first",
          path: path(adding: text))
      }
      return nil
    }
    guard let index = tables.key(ByteView(name), of: object.entity) else {
      note(
        .unknownAttribute,
        "\(Excerpt.quoted(text)) is not an attribute or relationship of \(Excerpt.quoted(model.entities[object.entity].name))",
        path: path(adding: text))
      return nil
    }
    if !tables.keyIsXMLName[object.entity][index] && !isDeclaredQName(name) {
      note(
        .unknownAttribute, "\(Excerpt.quoted(text)) cannot be written as an XML attribute name",
        path: path(adding: text))
      return nil
    }
    // The root element's `version`, `model`, `modelVersion` and `entity` belong to the format:
    // a model attribute of that name cannot be written there.
    if object.isRoot && RootFormat.isAttribute(name) {
      note(
        .unknownAttribute,
        "\(Excerpt.quoted(text)) names a format attribute of the root element; the root cannot hold a model attribute of that name",
        path: path(adding: text))
      return nil
    }
    let word = object.seenBase + index >> 6
    let bit: UInt64 = 1 << UInt64(index & 63)
    if seen[word] & bit != 0 {
      note(.unknownAttribute, "The key \(Excerpt.quoted(text)) appears twice", path: path(adding: text))
      return nil
    }
    seen[word] |= bit
    objects[top].sawData = true
    return .entity(index)
  }

  // MARK: Objects

  mutating func startChildren(_ key: Key) {
    let top = objects.count - 1
    objects[top].pending = nil
    writeHead(closing: false)
    objects[top].array = key
    // Paths count each array's objects from 0 (an object's `@objects`, then its `children`).
    objects[top].arrayCount = 0
  }

  /// Checks and ends the top object, then pops it.
  mutating func close() throws(Stop) {
    let top = objects.count - 1
    let object = objects[top]
    if !object.isRoot && !object.sawEntity {
      note(.unknownEntity, "The object has no '@entity'", at: object.start)
      objects.removeLast()
      seen.removeSubrange(object.seenBase...)
      attributes.removeSubrange(object.attributeBase...)
      scratch.removeSubrange(object.scratchBase...)
      return
    }
    // Keys before a late `@entity` were read past (OL203 says so): whether a required one was
    // among them is not known, so none is said to be missing.
    if object.entity >= 0 && !object.reportedEntityOrder {
      let seenBase = object.seenBase
      for index in tables.requiredAttributes[object.entity]
      where seen[seenBase + index >> 6] & (1 << UInt64(index & 63)) == 0 {
        if object.isRoot && index == tables.orderAttribute[object.entity] { continue }
        let definition = model.entities[object.entity]
        note(
          .requiredAttributeMissing,
          "\(Excerpt.quoted(definition.name)) needs \(Excerpt.quoted(definition.attributes[index].name))",
          at: object.start)
      }
    }
    writeHead(closing: true)
    if object.hasElements && emits {
      indent(depth: top)
      let start = output.count
      output.append(contentsOf: [0x3C, 0x2F])  // </
      appendElementName(object)
      output.append(0x3E)
      let range = TextRange(start: flushed + start, end: flushed + output.count)
      output.append(0x0A)
      validator?.endElement(range: range)
      for target in targets(in: range) { located[target] = (path(), object.start) }
    }
    seen.removeSubrange(object.seenBase...)
    objects.removeLast()
    if output.count >= 1 << 20 { flush() }
  }
}
