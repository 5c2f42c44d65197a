import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML

/// A problem of a JSON input read as the JSON form: what, where (a JSON
/// path such as `$.children[2].title`), the byte offset and its catalog code.
/// Thrown for a refused input, it is the first error and carries the others.
public struct JSONFormError: Error, Sendable, Equatable {
  /// What is wrong, naming the values.
  public var message: String
  /// The JSON path of the value.
  public var path: String
  /// The UTF-8 offset in the input.
  public var offset: Int
  /// Where the token it is about ends (`offset` when only a point is known).
  public var end: Int
  /// The catalog code: the validator's for what the document means, else
  /// the nearest XML one (OL100 syntax, OL203 keys, OL300 JSON types...).
  public var code: DiagnosticCode
  /// The code's severity; only errors refuse the input.
  public var severity: Severity
  /// Whether the validator found it in the XML the input stands for (what
  /// the document means: orders, ids, values), rather than the reader.
  public var fromValidator = false
  /// The further errors of a refused input, in document order.
  public var others: [JSONFormError] = []

  /// A problem at `offset` (to `end`, else a point).
  public init(
    message: String, path: String, offset: Int, end: Int? = nil, code: DiagnosticCode = .notWellFormed,
    severity: Severity? = nil
  ) {
    self.message = message
    self.path = path
    self.offset = offset
    self.end = max(end ?? offset, offset)
    self.code = code
    self.severity = severity ?? code.defaultSeverity
  }

  /// Every error: this one, then the others.
  public var all: [JSONFormError] {
    var first = self
    first.others = []
    return [first] + others
  }
}

/// Reads the JSON form (SPEC §5) and writes `.outline` XML in the canonical
/// layout.
///
/// One pass over the input's bytes, with a flat stack of open objects and no
/// recursion: keys are compared as bytes against per-entity tables, values
/// go from JSON string to XML attribute text without a `String` between, and
/// each start tag is handed, as written, to the validator (no XML parser
/// runs), so what the document means (orders, ids, references, counts) is
/// checked by the same code that lints it and a converted file always lints
/// clean. A problem the validator finds is reported at the JSON value it came
/// from, which a second pass finds only when there is such a problem.
///
/// A start tag is written at an object's first array of children, so an
/// attribute that comes after one (this toolchain never writes that, people
/// may) cannot join it: the pass then stops, the output so far is dropped
/// (`restart`), and a first pass collects such late attributes before the
/// writing pass. `@entity` must come before an object's attributes and
/// arrays (as a type discriminator does); `@model` may stand anywhere in the
/// root: the model is chosen from the `@model` among the root's keys before
/// its first array, and a `@model` after one is a late attribute, so the
/// whole root is searched for it only then.
public enum JSONFormReader {
  /// The root's `@model`, wherever it stands in the root.
  public static func modelReference(in bytes: ByteBuffer) -> String? {
    modelReference(in: bytes, leadingOnly: false)
  }

  /// The root's `@model`; with `leadingOnly`, only among the keys before its first array or object.
  static func modelReference(in bytes: ByteBuffer, leadingOnly: Bool) -> String? {
    var reader = JSONReader(bytes)
    do {
      guard try reader.nextToken()?.kind == .objectStart else { return nil }
      while let token = try reader.nextToken() {
        if token.kind == .objectStart || token.kind == .arrayStart {
          if leadingOnly { return nil }
          reader.skipContainer()
          continue
        }
        guard token.kind == .key else { continue }
        if XMLName.equals(reader.contents(of: token), "@model")
          || token.hasEscapes && reader.string(token) == "@model"
        {
          guard let value = try reader.nextToken(), value.kind == .string else { return nil }
          return reader.string(value)
        }
      }
    } catch {}
    return nil
  }

  /// Every problem of `bytes` as the JSON form (errors, warnings and hints,
  /// in document order) with the model `choose` gives for the root's
  /// `@model`; what `choose` throws ends the check. Writes nothing.
  public static func check(_ bytes: ByteBuffer, choosingModel choose: (String?) throws -> Model) throws
    -> [JSONFormError]
  {
    try problems(bytes, choosingModel: choose, output: { _ in }, restart: {})
  }

  /// Checks `bytes` against `model`, then returns the XML (nothing on error).
  public static func convert(_ bytes: [UInt8], model: Model) throws(JSONFormError) -> [UInt8] {
    var xml: [UInt8] = []
    do {
      try convert(
        ByteBuffer(copying: bytes), choosingModel: { _ in model }, output: { xml += $0 },
        restart: { xml.removeAll() })
    } catch let error as JSONFormError {
      throw error
    } catch {
      preconditionFailure("a fixed model cannot fail: \(error)")
    }
    return xml
  }

  /// Writes the XML of `bytes` to `output` in pieces of about 1 MiB while
  /// checking it against the model `choose` gives for the root's `@model`
  /// (nil when it has none); what `choose` throws ends the conversion. On
  /// a ``JSONFormError`` this throws after `output` may have received
  /// pieces, which the caller discards (``AtomicFileWriter`` and a spooled
  /// standard output do); `restart` says everything received so far is void
  /// and the XML comes again from its start.
  public static func convert(
    _ bytes: ByteBuffer, choosingModel choose: (String?) throws -> Model, output: (inout [UInt8]) -> Void,
    restart: () -> Void
  ) throws {
    let errors = try problems(bytes, choosingModel: choose, output: output, restart: restart).filter {
      $0.severity == .error
    }
    guard var first = errors.first else { return }
    first.others = Array(errors.dropFirst())
    throw first
  }

  /// The passes of a conversion, until one needs no other: its problems.
  private static func problems(
    _ bytes: ByteBuffer, choosingModel choose: (String?) throws -> Model, output: (inout [UInt8]) -> Void,
    restart: () -> Void
  ) throws -> [JSONFormError] {
    // The model named among the root's keys before its first array; the
    // whole root is searched only when a pass stops (a late attribute, or
    // an error that a `@model` further on might explain).
    var reference = modelReference(in: bytes, leadingOnly: true)
    var searchedWhole = false
    while true {
      let model = try choose(reference)
      var found: [JSONFormError]?
      do {
        found = try withoutActuallyEscaping(output) { output throws(Transcoder.Stop) in
          try convert(bytes, model: model, output: output, collectingLate: searchedWhole)
        }
      } catch {
        precondition(!searchedWhole, "late attributes were collected")
      }
      if let found, searchedWhole || !found.contains(where: { $0.severity == .error }) { return found }
      searchedWhole = true
      let whole = modelReference(in: bytes)
      if let found, whole == reference { return found }
      reference = whole
      restart()
    }
  }

  /// One conversion with `model`: a single pass when no attribute comes
  /// after an array of children, else (`collectingLate`) a pass collecting
  /// those, then the pass that writes.
  private static func convert(
    _ bytes: ByteBuffer, model: Model, output: @escaping (inout [UInt8]) -> Void, collectingLate: Bool
  ) throws(Transcoder.Stop) -> [JSONFormError] {
    let tables = ModelTables(model)
    var late: LateAttributes?
    if collectingLate {
      var collect = Transcoder(bytes: bytes, tables: tables, mode: .collectLate)
      try collect.run()
      late = collect.collected
    }
    let validator = OutlineValidator(modelProvider: fixedModel(model))
    // A large input is validated on a second core while the next objects are read.
    let pipeline =
      bytes.buffer.count >= XMLEventPipeline.worthwhileBytes ? XMLEventPipeline(handler: validator) : nil
    var pass = Transcoder(bytes: bytes, tables: tables, mode: .write(late: late))
    pass.validator = pipeline ?? validator
    pass.sink = output
    do {
      try pass.run()
    } catch {
      pipeline?.finish()
      throw error
    }
    pipeline?.finish()
    validator.finish()
    // After a syntax error the XML is cut short: what it would mean is not asked.
    if pass.stopped || validator.diagnostics.isEmpty { return pass.problems }
    // Find the object, or the key, whose start or end tag bytes hold each problem.
    var locate = Transcoder(bytes: bytes, tables: tables, mode: .write(late: late))
    locate.locating = Array(Set(validator.diagnostics.map(\.range.start))).sorted()
    try? locate.run()
    // A value the reader refused already stands in the XML only to keep the
    // rest checkable: what the validator says about it again is left out.
    let refused = Set(pass.problems.map(\.path))
    var problems = pass.problems
    for diagnostic in validator.diagnostics {
      let at = locate.located[diagnostic.range.start] ?? (path: "$", offset: 0)
      if refused.contains(at.path) { continue }
      var problem = JSONFormError(
        message: diagnostic.message, path: at.path, offset: at.offset, code: diagnostic.code,
        severity: diagnostic.severity)
      problem.fromValidator = true
      problems.append(problem)
    }
    return problems.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
      .map(\.element)
  }
}

/// Attributes that came after an object's array of children, by object
/// number: their canonical rank, XML value text and the JSON offset of the value.
typealias LateAttributes = [Int: [(rank: Int, text: [UInt8], offset: Int)]]

/// The model's facts the transcoder asks for on every key, as bytes and flat arrays.
private final class ModelTables {
  let model: Model
  let entityNames: [[UInt8]]
  /// Per entity: its keys' bytes, attributes first, then relationships.
  let keys: [[[UInt8]]]
  let attributeCount: [Int]
  /// Per entity, per attribute: the JSON type its values have.
  let valueKinds: [[ValueKind]]
  /// Per entity, per relationship.
  let relationshipKinds: [[RelationshipKind]]
  let destinations: [[Int?]]
  /// Per entity: the attributes an object must have (the order attribute among them).
  let required: [[Int]]
  let orderAttribute: [Int]
  /// Per entity: whether its name, and each key's, can be written as an XML
  /// name (a hand-written model may hold any text there).
  let entityNameIsWritable: [Bool]
  let keyIsWritable: [[Bool]]
  private var lastEntity = 0

  enum ValueKind { case integer, number, boolean, string }
  enum RelationshipKind { case containment, toMany, toOne }

  init(_ model: Model) {
    self.model = model
    let entities = model.entities
    entityNames = entities.map { Array($0.name.utf8) }
    keys = entities.map {
      $0.attributes.map { Array($0.name.utf8) } + $0.relationships.map { Array($0.name.utf8) }
    }
    attributeCount = entities.map(\.attributes.count)
    valueKinds = entities.map { entity in
      entity.attributes.map { attribute in
        switch attribute.type {
        case .integer16?, .integer32?, .integer64?: .integer
        case .double?, .float?, .decimal?: .number
        case .boolean?: .boolean
        default: .string
        }
      }
    }
    relationshipKinds = entities.map { entity in
      entity.relationships.map { $0.isContainment ? .containment : $0.isToMany ? .toMany : .toOne }
    }
    destinations = entities.map { $0.relationships.map(\.destination) }
    required = entities.map { entity in
      entity.attributes.indices.filter { index in
        let attribute = entity.attributes[index]
        return !attribute.isOptional && !attribute.isTransient && !attribute.isDerived
          && (attribute.defaultValue == nil || index == entity.orderAttribute)
      }
    }
    orderAttribute = entities.map { $0.orderAttribute ?? -1 }
    entityNameIsWritable = entities.map { XMLName.isNCName($0.name) }
    keyIsWritable = entities.map { entity in
      entity.attributes.map { XMLName.isNCName($0.name) }
        + entity.relationships.map { XMLName.isNCName($0.name) }
    }
  }

  func entity(named name: UnsafeBufferPointer<UInt8>) -> Int? {
    if lastEntity < entityNames.count && XMLName.equals(name, entityNames[lastEntity]) { return lastEntity }
    guard let index = XMLName.index(of: name, in: entityNames) else { return nil }
    lastEntity = index
    return index
  }

  func key(_ name: UnsafeBufferPointer<UInt8>, of entity: Int) -> Int? {
    XMLName.index(of: name, in: keys[entity])
  }
}

/// The keys of the format itself.
private enum FormatKey: Int, CaseIterable {
  case outline, model, entity, id, objects

  static let names: [[UInt8]] = ["@outline", "@model", "@entity", "@id", "@objects"].map { Array($0.utf8) }

  init?(_ name: UnsafeBufferPointer<UInt8>) {
    guard let index = XMLName.index(of: name, in: Self.names) else { return nil }
    self.init(rawValue: index)
  }
}

/// A key of an object: the format's, or the entity's `n`th (attributes, then relationships).
private enum Key: Equatable {
  case format(FormatKey)
  case entity(Int)
}

/// One pass over the JSON form.
private struct Transcoder {
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
    /// Canonical rank: group << 32 | index (root format 0, `xml:id` 2, attributes 3, relationships 4).
    var rank: Int
    var textStart: Int
    var textEnd: Int
    /// The JSON offset of the value.
    var offset: Int
  }

  let tables: ModelTables
  let model: Model
  let mode: Mode
  var reader: JSONReader
  var validator: (any XMLEventHandler)?
  var sink: ((inout [UInt8]) -> Void)?
  /// The XML offsets (ascending) whose key or object the locating pass looks for, and what it found.
  var locating: [Int] = []
  var located: [Int: (path: String, offset: Int)] = [:]
  private var nextTarget = 0
  /// The problems found, in the order found; `stopped` after a syntax error.
  var problems: [JSONFormError] = []
  var stopped = false
  /// Late attributes found by a collecting pass.
  var collected: LateAttributes = [:]

  private var output: [UInt8] = []
  /// Bytes handed to `sink` (or dropped) so far.
  private var flushed = 0
  private var objects: [Open] = []
  private var seen: [UInt64] = []
  private var attributes: [Attribute] = []
  private var scratch: [UInt8] = []
  private var rawAttributes: [RawAttribute] = []
  private var objectCount = 0
  private var emits: Bool {
    if case .write = mode { return true }
    return false
  }

  init(bytes: ByteBuffer, tables: ModelTables, mode: Mode) {
    self.tables = tables
    model = tables.model
    self.mode = mode
    reader = JSONReader(bytes)
  }

  // MARK: Paths and errors

  private func name(of key: Key, in object: Open) -> String {
    switch key {
    case .format(let format): String(decoding: FormatKey.names[format.rawValue], as: UTF8.self)
    case .entity(let index): String(decoding: tables.keys[object.entity][index], as: UTF8.self)
    }
  }

  private func path(adding last: String? = nil) -> String {
    var out = "$"
    for object in objects {
      if !object.isRoot { out += "[\(object.index)]" }
      if let key = object.array ?? object.pending { out += Self.render(name(of: key, in: object)) }
    }
    if let last { out += Self.render(last) }
    return out
  }

  private static func render(_ key: String) -> String {
    let simple = key.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "@"
    }
    return simple && !key.isEmpty ? "." + key : "[\(JSONText.quote(key))]"
  }

  private func fail(_ message: String, at offset: Int? = nil, path: String? = nil) -> Stop {
    .form(JSONFormError(message: message, path: path ?? self.path(), offset: offset ?? reader.range.start))
  }

  /// Records a problem and reads on; at the current token unless `offset` says where.
  private mutating func note(
    _ code: DiagnosticCode, _ message: String, at offset: Int? = nil, path: String? = nil
  ) {
    problems.append(
      JSONFormError(
        message: message, path: path ?? self.path(), offset: offset ?? reader.range.start,
        end: offset == nil ? reader.range.end : nil, code: code))
  }

  /// Reads past the value `value` starts: a whole array or object, token
  /// by token, so a syntax error in it is still found.
  private mutating func skip(_ value: JSONToken) throws(Stop) {
    guard value.kind == .arrayStart || value.kind == .objectStart else { return }
    try skipRest(depth: 1)
  }

  /// Reads past the ends of `depth` open containers.
  private mutating func skipRest(depth: Int) throws(Stop) {
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
  private mutating func abandon(value: JSONToken?) throws(Stop) {
    if let value { try skip(value) }
    try skipRest(depth: 1)
    let object = objects.removeLast()
    seen.removeSubrange(object.seenBase...)
    attributes.removeSubrange(object.attributeBase...)
    scratch.removeSubrange(object.scratchBase...)
  }

  /// The next token inside a container (where the text cannot end).
  private mutating func token() throws(Stop) -> JSONToken {
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
              .valueType, "'\(name(of: key, in: objects[top]))' holds objects only",
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
  private mutating func stop(_ error: JSONFormError) {
    problems.append(error)
    stopped = true
  }

  private mutating func open(entity: Int, isRoot: Bool, start: Int, index: Int) {
    objects.append(
      Open(
        number: objectCount, entity: entity, isRoot: isRoot, start: start, index: index, seenBase: seen.count,
        attributeBase: attributes.count, scratchBase: scratch.count))
    objectCount += 1
    if entity >= 0 { reserveSeen(for: entity) }
  }

  private mutating func reserveSeen(for entity: Int) {
    let top = objects.count - 1
    seen.removeSubrange(objects[top].seenBase...)
    seen.append(contentsOf: repeatElement(0, count: (tables.keys[entity].count + 63) / 64))
  }

  /// One key of the top object and its value.
  private mutating func member(_ token: JSONToken) throws(Stop) {
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

  /// The key `name` of the top object, checked to be new; nil (reported) when it cannot be read.
  private mutating func resolve(_ name: UnsafeBufferPointer<UInt8>) -> Key? {
    let top = objects.count - 1
    let object = objects[top]
    var text: String { XMLName.string(name) }
    if let format = FormatKey(name) {
      let bit: UInt8 = 1 << format.rawValue
      if object.formatSeen & bit != 0 {
        note(.unknownAttribute, "The key '\(text)' appears twice", path: path(adding: text))
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
          object.isRoot ? "The model has no root entity for '\(text)'" : "'@entity' must come first",
          path: path(adding: text))
      }
      return nil
    }
    guard let index = tables.key(name, of: object.entity) else {
      note(
        .unknownAttribute,
        "'\(text)' is not an attribute or relationship of '\(model.entities[object.entity].name)'",
        path: path(adding: text))
      return nil
    }
    if !tables.keyIsWritable[object.entity][index] {
      note(
        .unknownAttribute, "'\(text)' cannot be written as an XML attribute name", path: path(adding: text))
      return nil
    }
    // The root element's `version`, `model` and `entity` belong to the format:
    // a model attribute of that name cannot be written there.
    if object.isRoot
      && (["version", "model", "entity"] as [StaticString]).contains(where: { XMLName.equals(name, $0) })
    {
      note(
        .unknownAttribute,
        "'\(text)' names a format attribute of the root element; the root cannot hold a model attribute of that name",
        path: path(adding: text))
      return nil
    }
    let word = object.seenBase + index >> 6
    let bit: UInt64 = 1 << UInt64(index & 63)
    if seen[word] & bit != 0 {
      note(.unknownAttribute, "The key '\(text)' appears twice", path: path(adding: text))
      return nil
    }
    seen[word] |= bit
    objects[top].sawData = true
    return .entity(index)
  }

  private mutating func formatValue(_ key: FormatKey, _ value: JSONToken) throws(Stop) {
    let top = objects.count - 1
    let object = objects[top]
    switch key {
    case .outline:
      if !object.isRoot {
        note(.unknownAttribute, "'@outline' belongs to the root object only")
      } else if value.kind != .number || !XMLName.equals(reader.contents(of: value), "1") {
        note(.badRootOrVersion, "'@outline' must be 1, the format version")
      }
      try skip(value)
    case .model:
      if !object.isRoot {
        note(.unknownAttribute, "'@model' belongs to the root object only")
        try skip(value)
      } else if value.kind != .string {
        note(.valueType, "'@model' must be a string (a model path)")
        try skip(value)
      } else {
        try addText(value, rank: 1)
      }
    case .entity:
      guard value.kind == .string else {
        note(.valueType, "'@entity' must be a string (an entity name)")
        if object.isRoot { return try skip(value) }
        return try abandon(value: value)
      }
      guard !object.sawData && !object.hasElements else {
        return note(.unknownAttribute, "'@entity' must come before the object's attributes and arrays")
      }
      let found =
        value.hasEscapes
        ? Array(reader.string(value).utf8).withUnsafeBufferPointer { tables.entity(named: $0) }
        : tables.entity(named: reader.contents(of: value))
      var text: String { reader.string(value) }
      var problem: (DiagnosticCode, String)?
      if let entity = found {
        if !object.isRoot && !tables.entityNameIsWritable[entity] {
          problem = (.unknownEntity, "'\(text)' cannot be written as an XML element name")
        } else if model.entities[entity].isAbstract {
          problem = (.abstractEntity, "'\(text)' is abstract")
        } else if !object.isRoot, let misfit = placementProblem(of: entity) {
          problem = (.cannotContain, misfit)
        }
      } else {
        problem = (.unknownEntity, "'\(text)' is not an entity of the model")
      }
      if let (code, message) = problem {
        note(code, message)
        // An object without a usable entity has no element: nothing in it can be checked.
        if object.isRoot { throw fail(message) }
        return try abandon(value: nil)
      }
      let entity = found!
      if object.isRoot && entity != model.defaultRootEntity { try addText(value, rank: 2) }
      objects[top].entity = entity
      objects[top].sawEntity = true
      reserveSeen(for: entity)
    case .id:
      guard value.kind == .string else {
        note(.valueType, "'@id' must be a string")
        return try skip(value)
      }
      try addText(value, rank: 2 << 32)
    case .objects:
      guard object.isRoot, value.kind == .arrayStart else {
        note(.valueType, "'@objects' is an array of the root's free objects")
        return try skip(value)
      }
      startChildren(.format(.objects))
    }
  }

  private mutating func entityValue(_ index: Int, _ value: JSONToken) throws(Stop) {
    let top = objects.count - 1
    let object = objects[top]
    let entity = object.entity
    var name: String { String(decoding: tables.keys[entity][index], as: UTF8.self) }
    let attributeCount = tables.attributeCount[entity]
    if index < attributeCount {
      if object.isRoot && index == tables.orderAttribute[entity] {
        note(.unknownAttribute, "The root object has no '\(name)': only its children are numbered")
        return try skip(value)
      }
      let rank = 3 << 32 | index
      switch tables.valueKinds[entity][index] {
      case .integer:
        guard value.kind == .number,
          !reader.contents(of: value).contains(where: { $0 == 0x2E || $0 | 0x20 == 0x65 })
        else { return try refuse(value, rank: rank, "'\(name)' must be an integer") }
        // JSON's one non-canonical integer is `-0`: the XML says `0`.
        let digits = reader.contents(of: value)
        let text = XMLName.equals(digits, "-0") ? UnsafeBufferPointer(rebasing: digits[1...]) : digits
        try addAttribute(rank: rank, text: text, offset: value.range.start)
      case .number:
        guard value.kind == .number else {
          return try refuse(value, rank: rank, "'\(name)' must be a number")
        }
        try addAttribute(rank: rank, text: reader.contents(of: value), offset: value.range.start)
      case .boolean:
        guard value.kind == .true || value.kind == .false else {
          return try refuse(value, rank: rank, "'\(name)' must be true or false")
        }
        try addAttribute(rank: rank, text: reader.contents(of: value), offset: value.range.start)
      case .string:
        guard value.kind == .string else {
          return try refuse(value, rank: rank, "'\(name)' must be a string")
        }
        try addText(value, rank: rank)
      }
      return
    }
    let relationship = index - attributeCount
    let rank = 4 << 32 | relationship
    switch tables.relationshipKinds[entity][relationship] {
    case .containment:
      guard value.kind == .arrayStart else {
        note(.valueType, "'\(name)' is a containment relationship: an array of objects")
        return try skip(value)
      }
      startChildren(.entity(index))
    case .toMany:
      guard value.kind == .arrayStart else {
        return try refuse(value, rank: rank, "'\(name)' is to-many: an array of ids", keepText: false)
      }
      let textStart = scratch.count
      var count = 0
      while true {
        let id = try token()
        if id.kind == .arrayEnd { break }
        defer { count += 1 }
        guard id.kind == .string else {
          note(.valueType, "'\(name)' holds ids (strings) only", path: path() + "[\(count)]")
          try skip(id)
          continue
        }
        let before = scratch.count
        if before > textStart { scratch.append(0x20) }
        if !transcode(id) { scratch.removeSubrange(before...) }
      }
      try place(
        Attribute(rank: rank, textStart: textStart, textEnd: scratch.count, offset: value.range.start))
    case .toOne:
      guard value.kind == .string else {
        return try refuse(value, rank: rank, "'\(name)' is to-one: an id string", keepText: false)
      }
      try addText(value, rank: rank)
    }
  }

  /// Reports a value of the wrong JSON type and writes what stands in for it,
  /// so the rest of the object is still checked as the XML side would: a
  /// scalar's text (with `keepText`), else an empty value. What the
  /// validator says about the stand-in is left out (it has the same path).
  private mutating func refuse(
    _ value: JSONToken, rank: Int, _ message: String, keepText: Bool = true
  ) throws(Stop) {
    note(.valueType, message)
    switch value.kind {
    case .string where keepText:
      try addText(value, rank: rank)
    case .number where keepText, .true where keepText, .false where keepText:
      try addAttribute(rank: rank, text: reader.contents(of: value), offset: value.range.start)
    default:
      try skip(value)
      try addAttribute(rank: rank, text: [], offset: value.range.start)
    }
  }

  /// Why a child's entity does not fit the array it stands in, or nil.
  private func placementProblem(of entity: Int) -> String? {
    let parent = objects[objects.count - 2]
    guard case .entity(let index) = parent.array else { return nil }  // `@objects` holds anything
    let relationship = index - tables.attributeCount[parent.entity]
    guard let destination = tables.destinations[parent.entity][relationship],
      model.isKind(entity, of: destination)
    else {
      return "'\(model.entities[entity].name)' cannot stand in '\(name(of: .entity(index), in: parent))'"
    }
    return nil
  }

  // MARK: Attributes

  /// Adds the XML text of the string `value` as an attribute of the top object.
  /// A string that cannot be written stands as an empty value (reported).
  private mutating func addText(_ value: JSONToken, rank: Int) throws(Stop) {
    let textStart = scratch.count
    if !transcode(value) { scratch.removeSubrange(textStart...) }
    try place(Attribute(rank: rank, textStart: textStart, textEnd: scratch.count, offset: value.range.start))
  }

  /// Appends the XML text of the string `value`; false (reported at its byte) when it cannot be written.
  private mutating func transcode(_ value: JSONToken) -> Bool {
    do throws(JSONStringTranscoding.Problem) {
      try JSONStringTranscoding.appendAttributeText(reader.contents(of: value), to: &scratch)
      return true
    } catch {
      note(
        .notWellFormed,
        "'\(objects.last!.pending.map { name(of: $0, in: objects.last!) } ?? "")': \(error.message)",
        at: value.range.start + 1 + error.offset)
      return false
    }
  }

  private mutating func addAttribute(rank: Int, text: some Collection<UInt8>, offset: Int) throws(Stop) {
    let textStart = scratch.count
    scratch.append(contentsOf: text)
    try place(Attribute(rank: rank, textStart: textStart, textEnd: scratch.count, offset: offset))
  }

  /// Keeps an attribute for the top object's start tag, or, when that was
  /// written, as a late attribute (or stops the pass that cannot place one).
  private mutating func place(_ attribute: Attribute) throws(Stop) {
    let object = objects[objects.count - 1]
    guard object.headWritten else {
      attributes.append(attribute)
      return
    }
    switch mode {
    case .write(late: nil):
      throw .late
    case .write:
      break  // Written with the start tag already.
    case .collectLate:
      collected[object.number, default: []].append(
        (attribute.rank, Array(scratch[attribute.textStart..<attribute.textEnd]), attribute.offset))
    }
    scratch.removeSubrange(attribute.textStart...)
  }

  // MARK: Writing

  private mutating func startChildren(_ key: Key) {
    let top = objects.count - 1
    objects[top].pending = nil
    writeHead(closing: false)
    objects[top].array = key
  }

  /// Checks and ends the top object, then pops it.
  private mutating func close() throws(Stop) {
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
    if object.entity >= 0 {
      let seenBase = object.seenBase
      for index in tables.required[object.entity]
      where seen[seenBase + index >> 6] & (1 << UInt64(index & 63)) == 0 {
        if object.isRoot && index == tables.orderAttribute[object.entity] { continue }
        let definition = model.entities[object.entity]
        note(
          .requiredAttributeMissing, "'\(definition.name)' needs '\(definition.attributes[index].name)'",
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

  private mutating func appendElementName(_ object: Open) {
    if object.isRoot {
      output.append(contentsOf: [0x6F, 0x75, 0x74, 0x6C, 0x69, 0x6E, 0x65])  // outline
    } else {
      output.append(contentsOf: tables.entityNames[object.entity])
    }
  }

  private mutating func indent(depth: Int) {
    output.append(contentsOf: repeatElement(0x20, count: CanonicalLayout.indentWidth(depth: depth)))
  }

  /// Writes the top object's start tag once: at its first array of children,
  /// or at its end (self-closing); hands it to the validator.
  private mutating func writeHead(closing: Bool) {
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
      output.append(contentsOf: scratch[attribute.textStart..<attribute.textEnd])
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
  private mutating func targets(in range: TextRange) -> [Int] {
    var found: [Int] = []
    while nextTarget < locating.count && locating[nextTarget] < range.end {
      if locating[nextTarget] >= range.start { found.append(locating[nextTarget]) }
      nextTarget += 1
    }
    return found
  }

  /// Stable insertion sort by rank: keys mostly come in canonical order already.
  private mutating func sortAttributes(from base: Int) {
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

  private mutating func appendAttributeName(rank: Int, entity: Int) {
    let index = rank & 0xFFFF_FFFF
    switch rank >> 32 {
    case 0: output.append(contentsOf: ["version", "model", "entity"][index].utf8)
    case 2: output.append(contentsOf: "xml:id".utf8)
    case 3: output.append(contentsOf: tables.keys[entity][index])
    default: output.append(contentsOf: tables.keys[entity][tables.attributeCount[entity] + index])
    }
  }

  /// The JSON key an attribute came from (nil for the root's `version`).
  private func jsonKey(rank: Int, entity: Int) -> String? {
    let index = rank & 0xFFFF_FFFF
    switch rank >> 32 {
    case 0: return [nil, "@model", "@entity"][index]
    case 2: return "@id"
    case 3: return String(decoding: tables.keys[entity][index], as: UTF8.self)
    default:
      return String(decoding: tables.keys[entity][tables.attributeCount[entity] + index], as: UTF8.self)
    }
  }

  /// Hands what was written so far to `sink`, or drops it.
  private mutating func flush() {
    flushed += output.count
    sink?(&output)
    output.removeAll(keepingCapacity: true)
  }
}
