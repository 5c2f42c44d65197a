import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineXML

/// Writes the JSON form of SPEC §5 from a valid document.
///
/// Layout: one object a line, its containment arrays opened at the end of
/// its line and closed on a line of their own, so output grows linearly with
/// depth and diffs stay small:
///
///     {"@outline":1,"@entity":"Item","children":[
///     {"@entity":"Item","title":"Milk","order":0}
///     ]}
///
/// Keys: `@outline` and `@model` on the root, `@entity` always, `@id`, then
/// attributes and references in model order, then containment arrays in the
/// order they first appear; objects that stand free under the root go in
/// `@objects`. Children appear in order order.
public enum JSONFormWriter {
  /// The JSON form of `source`, which must have validated without errors
  /// against `model`. Streams when `childrenInOrder` (memory bounded by
  /// depth), else walks `tree` with each sibling group sorted by order.
  public static func write(
    _ source: SourceText, model: Model, rootEntity: Int?, childrenInOrder: Bool, tree: () -> ItemTree,
    output: (inout [UInt8]) -> Void
  ) {
    if childrenInOrder {
      writeStreaming(
        model: model, rootEntity: rootEntity,
        feed: { parser in source.bytes.withUnsafeBufferPointer { parser.feed($0) } }, output: output)
    } else {
      writeTree(source, tree: tree(), model: model, rootEntity: rootEntity, output: output)
    }
  }

  /// Writes the JSON form as `feed` pushes the document's bytes into the
  /// parser: memory holds only the open path. The document's children must be
  /// in order order (``OutlineValidator/childrenInOrder``).
  public static func writeStreaming(
    model: Model, rootEntity: Int?, feed: (XMLEventParser) -> Void, output: (inout [UInt8]) -> Void
  ) {
    withoutActuallyEscaping(output) { output in
      let writer = StreamingJSONWriter(head: ObjectHead(model: model, rootEntity: rootEntity), output: output)
      let parser = XMLEventParser(handler: writer)
      feed(parser)
      parser.finish()
      writer.flush(final: true)
    }
  }

  /// A handler that writes the JSON form in the same parse as `validator`
  /// validates (it must receive each event after the validator): the object
  /// head is made when the validator has chosen the model at the root, and
  /// writing stops if the children turn out not to be in order order. The
  /// output is only good when, at the end, the validator found no error and
  /// ``OutlineValidator/childrenInOrder`` holds; call ``AlongsideWriter/finish()``.
  public static func alongside(_ validator: OutlineValidator, output: @escaping (inout [UInt8]) -> Void)
    -> AlongsideWriter
  {
    AlongsideWriter(validator: validator, output: output)
  }

  /// Writes the JSON form from the item tree, each sibling group sorted by order.
  public static func writeTree(
    _ source: SourceText, tree: ItemTree, model: Model, rootEntity: Int?, output: (inout [UInt8]) -> Void
  ) {
    TreeJSONWriter(
      head: ObjectHead(model: model, rootEntity: rootEntity), source: source, tree: tree, model: model
    )
    .write(output)
  }
}

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
  private let tables: [EntityTable]
  private let entityNames: [[UInt8]]
  /// For parent entity p and child entity c, at p * count + c: the
  /// containment relationship that holds the child, or -1 (`@objects`).
  private let arrays: [Int]
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
    let type: AttributeType?
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
    }

    /// Appends `,"name":` of key `index`.
    func appendQuoted(_ index: Int, to out: inout [UInt8]) {
      let start = index == 0 ? 0 : quotedEnds[index - 1]
      quoted.withUnsafeBufferPointer {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<quotedEnds[index]]))
      }
    }

    /// The key named by `name`, if the entity has one.
    func key(named name: UnsafeBufferPointer<UInt8>) -> Int? {
      names.withUnsafeBufferPointer { names in
        var start = 0
        for (index, end) in nameEnds.enumerated() {
          if end - start == name.count
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
    entityNames = model.entities.map { Array($0.name.utf8) }
    tables = model.entities.map { definition in
      var keys: [Key] = []
      for (rank, attribute) in definition.attributes.enumerated() {
        let kind: Key.Kind
        switch attribute.type {
        case .integer16?, .integer32?, .integer64?: kind = .integer
        case .double?, .float?, .decimal?, .boolean?: kind = .other
        default: kind = .string
        }
        keys.append(
          Key(
            name: Array(attribute.name.utf8), quoted: Array(",\(JSONText.quote(attribute.name)):".utf8),
            rank: rank, kind: kind, type: attribute.type))
      }
      for (index, relationship) in definition.relationships.enumerated() {
        keys.append(
          Key(
            name: Array(relationship.name.utf8), quoted: Array(",\(JSONText.quote(relationship.name)):".utf8),
            rank: definition.attributes.count + index, kind: relationship.isToMany ? .toMany : .toOne,
            type: nil))
      }
      return EntityTable(entity: Array(",\"@entity\":\(JSONText.quote(definition.name))".utf8), keys: keys)
    }
    let count = model.entities.count
    var arrays = [Int](repeating: -1, count: count * count)
    for parent in 0..<count {
      for child in 0..<count {
        if case .relationship(let index) = model.containment(of: parent, holding: child) {
          arrays[parent * count + child] = index
        }
      }
    }
    self.arrays = arrays
    arrayOpenings = model.entities.map { definition in
      (definition.relationships.map(\.name) + ["@objects"]).map { Array(",\(JSONText.quote($0)):[".utf8) }
    }
  }

  /// The containment relationship that holds `child` under `parent`, or -1 (`@objects`).
  func arrayIndex(parentEntity: Int?, child: Int?) -> Int {
    guard let parentEntity, let child else { return -1 }
    return arrays[parentEntity * model.entities.count + child]
  }

  /// `,"key":[` for an array of `parentEntity`'s objects.
  func arrayOpening(parentEntity: Int?, index: Int) -> [UInt8] {
    guard let parentEntity else { return Array(",\"@objects\":[".utf8) }
    let openings = arrayOpenings[parentEntity]
    return index >= 0 ? openings[index] : openings[openings.count - 1]
  }

  /// The entity of a non-root element.
  func entity(of tag: StartTag) -> Int? {
    let name = tag.name
    for (index, candidate) in entityNames.enumerated() where XMLName.equals(name, candidate) {
      return index
    }
    return nil
  }

  func write(_ tag: StartTag, entity: Int?, isRoot: Bool, into out: inout [UInt8]) {
    // Every key is written with a leading comma; the first one's is overwritten by `{`.
    let opening = out.count
    if isRoot {
      out += Array(",\"@outline\":1".utf8)
      if let index = tag.index(of: "model") {
        out += Array(",\"@model\":".utf8)
        Self.appendString(tag.rawValue(of: index), to: &out)
      }
    }
    if let entity { out += tables[entity].entity }
    if let index = tag.index(of: "xml:id") {
      out += Self.idKey
      Self.appendString(tag.rawValue(of: index), to: &out)
    }
    if let entity { writeValues(tag, table: tables[entity], into: &out) }
    if out.count > opening {
      out[opening] = UInt8(ascii: "{")
    } else {
      out.append(UInt8(ascii: "{"))
    }
  }

  /// The attributes and references the entity knows, in model order.
  private func writeValues(_ tag: StartTag, table: EntityTable, into out: inout [UInt8]) {
    let count = tag.attributes.count
    guard count > 0 else { return }
    withUnsafeTemporaryAllocation(of: (key: Int, attribute: Int).self, capacity: count) { found in
      var used = 0
      for attribute in 0..<count {
        let name = tag.name(of: attribute)
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
      for entry in found[0..<used] {
        table.appendQuoted(entry.key, to: &out)
        let raw = tag.rawValue(of: entry.attribute)
        switch table.kinds[entry.key] {
        case .string:
          Self.appendString(raw, to: &out)
        case .integer where Self.isCanonicalInteger(raw):
          out.append(contentsOf: raw)
        case .integer, .other:
          out += Array(Self.json(XMLEscaping.decodeAttribute(raw), table.keys[entry.key].type).utf8)
        case .toOne, .toMany:
          let ids = XMLEscaping.decodeAttribute(raw).split(separator: " ").map { JSONText.quote(String($0)) }
          out += Array(
            (table.kinds[entry.key] == .toMany ? "[" + ids.joined(separator: ",") + "]" : ids.first ?? "null")
              .utf8)
        }
      }
    }
  }

  private static let idKey = Array(",\"@id\":".utf8)

  /// Appends a raw attribute value as a JSON string: XML references
  /// resolved and white space normalized (XML 1.0 §3.3.3) on the way, with
  /// no intermediate buffer.
  static func appendString(_ raw: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if XMLEscaping.isPlainAttribute(raw) { return JSONText.appendQuoted(bytes: raw, to: &out) }
    out.append(UInt8(ascii: "\""))
    var index = 0
    var runStart = 0
    func flushRun() { out.append(contentsOf: UnsafeBufferPointer(rebasing: raw[runStart..<index])) }
    while index < raw.count {
      let byte = raw[index]
      if byte == UInt8(ascii: "&"), let (scalar, length) = XMLEscaping.reference(in: raw, at: index) {
        flushRun()
        if scalar.value < 0x80 {
          JSONText.appendEscaped(UInt8(scalar.value), to: &out)
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
          JSONText.appendEscaped(byte, to: &out)
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
  static func json(_ text: String, _ type: AttributeType?) -> String {
    switch type {
    case .integer16?, .integer32?, .integer64?:
      return ModelValues.integer(text).map { String($0) } ?? JSONText.quote(text)
    case .double?, .float?, .decimal?:
      return ModelValues.isDecimalNumber(text) ? JSONNumber.normalize(text) : JSONText.quote(text)
    case .boolean?:
      return ModelValues.boolean(text).map { $0 ? "true" : "false" } ?? JSONText.quote(text)
    default:
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

/// Writes objects as the parser reports them; memory holds the open path.
final class StreamingJSONWriter: XMLEventHandler {
  private let head: ObjectHead
  private let output: (inout [UInt8]) -> Void
  private var buffer: [UInt8] = []
  private struct Open {
    var entity: Int?
    /// The open array: a containment relationship, -1 for `@objects`, nil for none.
    var array: Int?
  }
  private var stack: [Open] = []

  init(head: ObjectHead, output: @escaping (inout [UInt8]) -> Void) {
    self.head = head
    self.output = output
    buffer.reserveCapacity(1 << 20)
  }

  func flush(final: Bool) {
    if final { buffer.append(0x0A) }
    if final || buffer.count >= 1 << 20 {
      output(&buffer)
      buffer.removeAll(keepingCapacity: true)
    }
  }

  func startElement(_ tag: StartTag) {
    guard !stack.isEmpty else {
      head.write(tag, entity: head.rootEntity, isRoot: true, into: &buffer)
      stack.append(Open(entity: head.rootEntity))
      return
    }
    let entity = head.entity(of: tag)
    let parent = stack[stack.count - 1]
    let array = head.arrayIndex(parentEntity: parent.entity, child: entity)
    if parent.array == array {
      buffer.append(UInt8(ascii: ","))
    } else {
      if parent.array != nil { buffer += Array("\n]".utf8) }
      buffer += head.arrayOpening(parentEntity: parent.entity, index: array)
      stack[stack.count - 1].array = array
    }
    buffer.append(0x0A)
    head.write(tag, entity: entity, isRoot: false, into: &buffer)
    stack.append(Open(entity: entity))
    flush(final: false)
  }

  func endElement(range: TextRange?) {
    guard let open = stack.popLast() else { return }
    if open.array != nil { buffer += Array("\n]".utf8) }
    buffer.append(UInt8(ascii: "}"))
  }

  func comment(range: TextRange, content: UnsafeBufferPointer<UInt8>) {}
  func text(range: TextRange) {}
  func doctype(range: TextRange) {}
  func syntaxError(message: String, range: TextRange, isFatal: Bool) {}
}

/// Writes from the item tree, each sibling group sorted by order; used when
/// the document's children are not already in order order.
struct TreeJSONWriter {
  let head: ObjectHead
  let source: SourceText
  let tree: ItemTree
  let model: Model

  func write(_ output: (inout [UInt8]) -> Void) {
    guard !tree.items.isEmpty else { return }
    var out: [UInt8] = []
    // Explicit stack of (item, its remaining children grouped by array key).
    struct Pending {
      var groups: [(key: String, children: [Int])]
      var group = 0
      var child = 0
    }
    func open(_ item: Int, isRoot: Bool) -> Pending {
      let entity = tree.items[item].entity >= 0 ? Int(tree.items[item].entity) : nil
      TagScanner.withStartTag(in: source.bytes, range: tree.items[item].startTag) { tag in
        head.write(tag, entity: isRoot ? head.rootEntity : entity, isRoot: isRoot, into: &out)
      }
      var groups: [(key: String, children: [Int])] = []
      for child in tree.children(of: item) {
        let childEntity = tree.items[child].entity >= 0 ? Int(tree.items[child].entity) : nil
        let key = head.arrayKey(parentEntity: isRoot ? head.rootEntity : entity, child: childEntity)
        if let index = groups.firstIndex(where: { $0.key == key }) {
          groups[index].children.append(child)
        } else {
          groups.append((key, [child]))
        }
      }
      for index in groups.indices {
        groups[index].children = tree.inOrderOrder(groups[index].children)
      }
      return Pending(groups: groups)
    }
    var stack = [open(0, isRoot: true)]
    while !stack.isEmpty {
      var top = stack[stack.count - 1]
      if top.group >= top.groups.count {
        if !top.groups.isEmpty { out += Array("\n]".utf8) }
        out.append(UInt8(ascii: "}"))
        stack.removeLast()
        continue
      }
      if top.child >= top.groups[top.group].children.count {
        top.group += 1
        top.child = 0
        stack[stack.count - 1] = top
        if top.group < top.groups.count { out += Array("\n]".utf8) }
        continue
      }
      if top.child == 0 {
        out += Array(",\(JSONText.quote(top.groups[top.group].key)):[".utf8)
      } else {
        out.append(UInt8(ascii: ","))
      }
      out.append(0x0A)
      let child = top.groups[top.group].children[top.child]
      top.child += 1
      stack[stack.count - 1] = top
      stack.append(open(child, isRoot: false))
      if out.count >= 1 << 20 {
        output(&out)
        out.removeAll(keepingCapacity: true)
      }
    }
    out.append(0x0A)
    output(&out)
  }
}

/// The JSON writer that runs in the validator's parse (``JSONFormWriter/alongside(_:output:)``).
public final class AlongsideWriter: XMLEventHandler {
  private let validator: OutlineValidator
  private let output: (inout [UInt8]) -> Void
  private var writer: StreamingJSONWriter?
  private var writing = true

  init(validator: OutlineValidator, output: @escaping (inout [UInt8]) -> Void) {
    self.validator = validator
    self.output = output
  }

  /// Ends the output.
  public func finish() {
    if writing { writer?.flush(final: true) }
  }

  public func startElement(_ tag: StartTag) {
    guard writing else { return }
    if writer == nil {
      guard let model = validator.model else {
        writing = false
        return
      }
      writer = StreamingJSONWriter(
        head: ObjectHead(model: model, rootEntity: validator.rootEntity), output: output)
    }
    if !validator.childrenInOrder {
      writing = false
      return
    }
    writer?.startElement(tag)
  }

  public func endElement(range: TextRange?) {
    if writing { writer?.endElement(range: range) }
  }

  public func comment(range: TextRange, content: UnsafeBufferPointer<UInt8>) {}
  public func text(range: TextRange) {}
  public func doctype(range: TextRange) {}
  public func syntaxError(message: String, range: TextRange, isFatal: Bool) { writing = false }
}
