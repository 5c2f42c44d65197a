import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML

/// A JSON input that is not the JSON form: what, where (a JSON path such as
/// `$.children[2].title`) and the byte offset.
public struct JSONFormError: Error, Sendable, Equatable {
  /// What is wrong, naming the values.
  public var message: String
  /// The JSON path of the value.
  public var path: String
  /// The UTF-8 offset in the input.
  public var offset: Int
}

/// Reads the JSON form (SPEC §5) and writes `.outline` XML in the canonical
/// layout.
///
/// Two passes over the input, with a stack and no recursion: the first
/// checks the JSON against the model (unknown keys, JSON types, values)
/// and notes attributes written after an object's arrays; the second writes,
/// and the XML it writes streams through the validator, so what the
/// document means (orders, ids, references, counts) is checked by the same
/// code that lints it and a converted file always lints clean. A problem
/// found there is reported at the JSON object whose start tag it is in,
/// which a third pass finds only when there is such a problem.
/// `@entity` must come before an object's attributes and arrays (as a type
/// discriminator does); `@model` may stand anywhere in the root.
public enum JSONFormReader {
  /// The root's `@model`, read ahead of everything else to choose the model.
  public static func modelReference(in bytes: ByteBuffer) -> String? {
    var reader = JSONReader(bytes)
    do {
      guard try reader.next() == .objectStart else { return nil }
      while let event = try reader.next() {
        if reader.depth == 1, case .key("@model") = event {
          if case .string(let value)? = try reader.next() { return value }
          return nil
        }
        if reader.depth == 0 { return nil }
      }
    } catch {}
    return nil
  }

  /// Checks `bytes` against `model`, then returns the XML (nothing on error).
  public static func convert(_ bytes: [UInt8], model: Model) throws(JSONFormError) -> [UInt8] {
    var xml: [UInt8] = []
    try convert(ByteBuffer(copying: bytes), model: model) { xml += $0 }
    return xml
  }

  /// Checks `bytes` against `model` in a first pass, then writes the XML to
  /// `output` in pieces of about 1 MiB while validating it. `output` is not
  /// called when the JSON itself is wrong; when the XML written does not
  /// validate, this throws after `output` received pieces, which the caller
  /// discards (``AtomicFileWriter`` and a spooled standard output do).
  public static func convert(
    _ bytes: ByteBuffer, model: Model, output: (inout [UInt8]) -> Void
  ) throws(JSONFormError) {
    var check = Walker(bytes: bytes, model: model, emit: false, late: [:])
    try check.run()
    let validator = OutlineValidator(modelProvider: fixedModel(model))
    let parser = XMLEventParser(handler: validator)
    try withoutActuallyEscaping(output) { output throws(JSONFormError) in
      var write = Walker(bytes: bytes, model: model, emit: true, late: check.collectedLate)
      write.sink = { piece in
        piece.withUnsafeBufferPointer { parser.feed($0) }
        output(&piece)
      }
      try write.run()
      write.flush()
    }
    parser.finish()
    validator.finish()
    guard let first = validator.diagnostics.first(where: { $0.severity == .error }) else { return }
    // Find the object whose start tag holds the problem.
    var locate = Walker(bytes: bytes, model: model, emit: true, late: check.collectedLate)
    locate.locating = first.range.start
    locate.sink = { _ in }
    do {
      try locate.run()
    } catch {}
    throw JSONFormError(
      message: "\(first.message) [\(first.code)]", path: locate.located?.path ?? "$",
      offset: locate.located?.offset ?? 0)
  }
}

/// One pass over the JSON form.
private struct Walker {
  let model: Model
  let emit: Bool
  var reader: JSONReader
  var output: [UInt8] = []
  /// Receives the output in pieces.
  var sink: ((inout [UInt8]) -> Void)?
  /// The XML offset whose object the locating pass looks for, and what it found.
  var locating: Int?
  var located: (path: String, offset: Int)?
  /// Bytes handed to `sink` so far.
  private var flushed = 0
  /// Attributes written after an array, by object number: written at the start tag.
  let late: [Int: [(String, String)]]
  var collectedLate: [Int: [(String, String)]] = [:]
  private var stack: [Frame] = []
  private var objectCount = 0
  /// How many objects are open (the top one included).
  private var objectDepth = 0

  enum Component {
    case key(String)
    case index(Int)
  }

  struct ObjectFrame {
    var number: Int
    var entity: Int?
    var isRoot: Bool
    var component: Component?
    var id: String?
    var attributes: [(name: String, value: String)] = []
    var keys: Set<String> = []
    var pendingKey: String?
    var headWritten = false
    var sawArray = false
    var sawEntity = false
    /// The offset of its `{`.
    var start = 0
    /// Where each key's value is, kept only by the locating pass.
    var keyOffsets: [String: Int] = [:]
  }

  enum Frame {
    case object(ObjectFrame)
    case children(key: String, count: Int, component: Component?)
    case references(key: String, ids: [String], component: Component?)
  }

  init(bytes: ByteBuffer, model: Model, emit: Bool, late: [Int: [(String, String)]]) {
    self.model = model
    self.emit = emit
    self.late = late
    reader = JSONReader(bytes)
  }

  // MARK: Errors

  private func path(adding last: String? = nil) -> String {
    var out = "$"
    for frame in stack {
      switch frame {
      case .object(let object):
        if let component = object.component { out += Self.render(component) }
        if let key = object.pendingKey { out += Self.render(.key(key)) }
      case .children(let key, _, _): out += Self.render(.key(key))
      case .references(let key, let ids, _): out += Self.render(.key(key)) + "[\(ids.count)]"
      }
    }
    if let last { out += Self.render(.key(last)) }
    return out
  }

  private static func render(_ component: Component) -> String {
    switch component {
    case .index(let index): return "[\(index)]"
    case .key(let key):
      let simple = key.unicodeScalars.allSatisfy {
        $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "@"
      }
      return simple && !key.isEmpty ? "." + key : "[\(JSONText.quote(key))]"
    }
  }

  private func fail(_ message: String) -> JSONFormError {
    JSONFormError(message: message, path: path(), offset: reader.range.start)
  }

  // MARK: The pass

  mutating func run() throws(JSONFormError) {
    if emit { output += Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8) }
    do {
      guard let first = try reader.next() else { throw fail("The input is empty") }
      guard first == .objectStart else { throw fail("The document must be a JSON object (the root object)") }
      stack.append(
        .object(
          ObjectFrame(
            number: objectCount, entity: model.defaultRootEntity, isRoot: true, start: reader.range.start)))
      objectCount += 1
      objectDepth = 1
      while let event = try reader.next() {
        try handle(event)
      }
    } catch let error as JSONSyntaxError {
      throw JSONFormError(message: "Invalid JSON: \(error.message)", path: path(), offset: error.offset)
    } catch let error as JSONFormError {
      throw error
    } catch {
      throw fail("\(error)")
    }
  }

  private mutating func handle(_ event: JSONEvent) throws(JSONFormError) {
    switch stack.last! {
    case .children(let key, let count, let component):
      switch event {
      case .objectStart:
        try openChild(arrayKey: key, index: count)
      case .arrayEnd:
        stack.removeLast()
      default:
        throw fail("'\(key)' holds objects only")
      }
      _ = component
    case .references(let key, var ids, let component):
      switch event {
      case .string(let id):
        ids.append(id)
        stack[stack.count - 1] = .references(key: key, ids: ids, component: component)
      case .arrayEnd:
        stack.removeLast()
        try setAttribute(key, ids.joined(separator: " "))
      default:
        throw fail("'\(key)' holds ids (strings) only")
      }
    case .object(var object):
      if case .objectEnd = event {
        try close(object)
        return
      }
      if case .key(let key) = event {
        if object.keys.contains(key) { throw fail("The key '\(key)' appears twice") }
        object.keys.insert(key)
        object.pendingKey = key
        stack[stack.count - 1] = .object(object)
        return
      }
      guard let key = object.pendingKey else { throw fail("Expected a key") }
      object.pendingKey = nil
      if locating != nil { object.keyOffsets[key] = reader.range.start }
      stack[stack.count - 1] = .object(object)
      try value(event, for: key)
    }
  }

  private var top: ObjectFrame {
    get {
      guard case .object(let object) = stack[stack.count - 1] else { fatalError("not an object") }
      return object
    }
    set { stack[stack.count - 1] = .object(newValue) }
  }

  private mutating func value(_ event: JSONEvent, for key: String) throws(JSONFormError) {
    var object = top
    func withKey(_ message: String) -> JSONFormError {
      JSONFormError(message: message, path: path(adding: key), offset: reader.range.start)
    }
    switch key {
    case "@outline":
      guard object.isRoot else { throw withKey("'@outline' belongs to the root object only") }
      guard event == .number("1") else { throw withKey("'@outline' must be 1, the format version") }
      return
    case "@model":
      guard object.isRoot else { throw withKey("'@model' belongs to the root object only") }
      guard case .string(let path) = event else { throw withKey("'@model' must be a string (a model path)") }
      object.attributes.append(("model", path))
      top = object
      return
    case "@entity":
      guard case .string(let name) = event else {
        throw withKey("'@entity' must be a string (an entity name)")
      }
      guard !object.sawArray && object.attributes.allSatisfy({ $0.name == "model" }) else {
        throw withKey("'@entity' must come before the object's attributes and arrays")
      }
      guard let entity = model.entity(named: name) else {
        throw withKey("'\(name)' is not an entity of the model")
      }
      if model.entities[entity].isAbstract { throw withKey("'\(name)' is abstract") }
      if object.isRoot {
        if entity != model.defaultRootEntity { object.attributes.append(("entity", name)) }
      }
      object.entity = entity
      object.sawEntity = true
      top = object
      return
    case "@id":
      guard case .string(let id) = event else { throw withKey("'@id' must be a string") }
      object.id = id
      top = object
      return
    case "@objects":
      guard object.isRoot, event == .arrayStart else {
        throw withKey("'@objects' is an array of the root's free objects")
      }
      try startArray(.children(key: key, count: 0, component: .key(key)), object: &object)
      return
    default:
      break
    }
    guard let entity = object.entity else {
      throw withKey(object.isRoot ? "The model has no root entity for '\(key)'" : "'@entity' must come first")
    }
    if !object.isRoot && !object.sawEntity { throw withKey("'@entity' must come first") }
    let definition = model.entities[entity]
    if let index = definition.attributeIndex[key] {
      let attribute = definition.attributes[index]
      if object.isRoot && index == definition.orderAttribute {
        throw withKey("The root object has no '\(key)': only its children are numbered")
      }
      let text = try scalarText(event, type: attribute.type, key: key)
      if let type = attribute.type, let problem = ModelValues.problem(with: text, as: type) {
        throw withKey("'\(key)': \(problem)")
      }
      try setAttribute(key, text)
      return
    }
    guard let index = definition.relationshipIndex[key] else {
      throw withKey("'\(key)' is not an attribute or relationship of '\(definition.name)'")
    }
    let relationship = definition.relationships[index]
    if relationship.isContainment {
      guard event == .arrayStart else {
        throw withKey("'\(key)' is a containment relationship: an array of objects")
      }
      try startArray(.children(key: key, count: 0, component: .key(key)), object: &object)
    } else if relationship.isToMany {
      guard event == .arrayStart else { throw withKey("'\(key)' is to-many: an array of ids") }
      try startArray(.references(key: key, ids: [], component: .key(key)), object: &object)
    } else {
      guard case .string(let id) = event else { throw withKey("'\(key)' is to-one: an id string") }
      try setAttribute(key, id)
    }
  }

  private mutating func startArray(_ frame: Frame, object: inout ObjectFrame) throws(JSONFormError) {
    if case .children = frame {
      object.sawArray = true
      top = object
      writeHead(closing: false)
    }
    stack.append(frame)
  }

  /// The XML text of a scalar, after checking its JSON type against the attribute's.
  private func scalarText(_ event: JSONEvent, type: AttributeType?, key: String) throws(JSONFormError)
    -> String
  {
    func wrong(_ expected: String) -> JSONFormError {
      JSONFormError(
        message: "'\(key)' must be \(expected)", path: path(adding: key), offset: reader.range.start)
    }
    switch type {
    case .integer16?, .integer32?, .integer64?:
      guard case .number(let digits) = event, ModelValues.integer(digits) != nil else {
        throw wrong("an integer")
      }
      return digits
    case .double?, .float?, .decimal?:
      guard case .number(let digits) = event else { throw wrong("a number") }
      return digits
    case .boolean?:
      guard case .bool(let value) = event else { throw wrong("true or false") }
      return value ? "true" : "false"
    default:
      guard case .string(let text) = event else { throw wrong("a string") }
      return text
    }
  }

  private mutating func setAttribute(_ name: String, _ value: String) throws(JSONFormError) {
    var object = top
    if object.headWritten {
      if !emit { collectedLate[object.number, default: []].append((name, value)) }
      return
    }
    object.attributes.append((name, value))
    top = object
  }

  private mutating func openChild(arrayKey: String, index: Int) throws(JSONFormError) {
    guard case .object(let parent) = stack[stack.count - 2] else { return }
    stack[stack.count - 1] = .children(key: arrayKey, count: index + 1, component: .key(arrayKey))
    let child = ObjectFrame(
      number: objectCount, entity: nil, isRoot: false, component: .index(index), start: reader.range.start)
    objectCount += 1
    objectDepth += 1
    _ = parent
    stack.append(.object(child))
  }

  /// Checks and ends the object on top of the stack, then pops it.
  private mutating func close(_ object: ObjectFrame) throws(JSONFormError) {
    if !object.isRoot {
      guard let entity = object.entity, object.sawEntity else { throw fail("The object has no '@entity'") }
      try checkPlacement(of: entity)
      try checkRequired(object, entity: entity)
    } else if let entity = object.entity {
      try checkRequired(object, entity: entity)
    }
    writeHead(closing: true)
    let closed = top
    stack.removeLast()
    objectDepth -= 1
    if emit && closed.sawArray {
      indent(depth: objectDepth)
      output += Array("</\(elementName(closed))>\n".utf8)
    }
  }

  /// A child must fit the array it stands in.
  private mutating func checkPlacement(of entity: Int) throws(JSONFormError) {
    guard stack.count >= 3, case .children(let key, _, _) = stack[stack.count - 2],
      case .object(let parent) = stack[stack.count - 3]
    else { return }
    let parentEntity = parent.entity
    if key == "@objects" { return }
    guard let parentEntity, let index = model.entities[parentEntity].relationshipIndex[key],
      let destination = model.entities[parentEntity].relationships[index].destination,
      model.isKind(entity, of: destination)
    else {
      let name = model.entities[entity].name
      throw JSONFormError(
        message: "'\(name)' cannot stand in '\(key)'", path: path(), offset: reader.range.start)
    }
  }

  private func checkRequired(_ object: ObjectFrame, entity: Int) throws(JSONFormError) {
    let definition = model.entities[entity]
    let lateNames = (collectedLate[object.number] ?? []) + (late[object.number] ?? [])
    let written = Set(object.attributes.map(\.name) + lateNames.map(\.0))
    for (index, attribute) in definition.attributes.enumerated()
    where !attribute.isOptional && !attribute.isTransient && !written.contains(attribute.name)
      && (attribute.defaultValue == nil || (index == definition.orderAttribute && !object.isRoot))
    {
      if object.isRoot && index == definition.orderAttribute { continue }
      throw JSONFormError(
        message: "'\(definition.name)' needs '\(attribute.name)'", path: path(), offset: reader.range.start)
    }
  }

  /// The JSON form's key for an XML attribute (SPEC §5).
  private static func jsonKey(forAttribute name: String, isRoot: Bool) -> String {
    switch name {
    case "xml:id": "@id"
    case "model" where isRoot: "@model"
    case "entity" where isRoot: "@entity"
    default: name
    }
  }

  private func elementName(_ object: ObjectFrame) -> String {
    object.isRoot ? "outline" : object.entity.map { model.entities[$0].name } ?? "outline"
  }

  private mutating func indent(depth: Int) {
    output.append(contentsOf: repeatElement(0x20, count: CanonicalLayout.indentWidth(depth: depth)))
  }

  /// Writes the top object's start tag once: at its first array, or at its end (self-closing).
  private mutating func writeHead(closing: Bool) {
    var object = top
    guard !object.headWritten else { return }
    object.headWritten = true
    top = object
    guard emit else { return }
    indent(depth: objectDepth - 1)
    output += Array("<\(elementName(object))".utf8)
    var attributes = object.attributes + (late[object.number] ?? [])
    if object.isRoot { attributes.insert(("version", "1"), at: 0) }
    if let id = object.id { attributes.insert(("xml:id", id), at: object.isRoot ? 1 : 0) }
    let order = CanonicalLayout.attributeOrder(
      attributes.map(\.0), isRoot: object.isRoot, entity: object.entity.map { model.entities[$0] })
    var foundKey: String?
    for index in order {
      let (name, value) = attributes[index]
      let before = flushed + output.count
      output += Array(" \(name)=\"\(XMLEscaping.escapeAttribute(value))\"".utf8)
      if let target = locating, located == nil, foundKey == nil, before <= target,
        target < flushed + output.count
      {
        foundKey = Self.jsonKey(forAttribute: name, isRoot: object.isRoot)
      }
    }
    output += Array((closing ? "/>\n" : ">\n").utf8)
    if let target = locating, located == nil, flushed + output.count > target {
      // At the key whose value the problem is in, else at the object.
      if let key = foundKey, let offset = object.keyOffsets[key] {
        located = (path(adding: key), offset)
      } else {
        located = (path(), object.start)
      }
      locating = nil
    }
    if output.count >= 1 << 20 { flush() }
  }

  /// Hands what was written so far to `sink` (all of it stays in `output` without one).
  mutating func flush() {
    guard let sink else { return }
    flushed += output.count
    sink(&output)
    output.removeAll(keepingCapacity: true)
  }
}
