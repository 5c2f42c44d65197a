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
struct ObjectHead {
  let model: Model
  let rootEntity: Int?

  /// The entity of a non-root element.
  func entity(of tag: StartTag) -> Int? { model.entity(named: XMLName.string(tag.name)) }

  func write(_ tag: StartTag, entity: Int?, isRoot: Bool, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "{"))
    var first = true
    func key(_ name: String) {
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      out += Array(JSONText.quote(name).utf8)
      out.append(UInt8(ascii: ":"))
    }
    if isRoot {
      key("@outline")
      out.append(UInt8(ascii: "1"))
      if let index = tag.index(of: "model") {
        key("@model")
        out += Array(JSONText.quote(tag.value(of: index)).utf8)
      }
    }
    if let entity {
      key("@entity")
      out += Array(JSONText.quote(model.entities[entity].name).utf8)
    }
    if let index = tag.index(of: "xml:id") {
      key("@id")
      out += Array(JSONText.quote(tag.value(of: index)).utf8)
    }
    guard let entity else { return }
    let definition = model.entities[entity]
    var values: [(rank: Int, name: String, json: String)] = []
    for index in 0..<tag.attributes.count {
      let name = XMLName.string(tag.name(of: index))
      if let attribute = definition.attributeIndex[name] {
        values.append(
          (attribute, name, Self.json(tag.value(of: index), definition.attributes[attribute].type)))
      } else if let relationship = definition.relationshipIndex[name] {
        let ids = tag.value(of: index).split(whereSeparator: { $0 == " " }).map { JSONText.quote(String($0)) }
        let json =
          definition.relationships[relationship].isToMany
          ? "[" + ids.joined(separator: ",") + "]" : (ids.first ?? "null")
        values.append((definition.attributes.count + relationship, name, json))
      }
    }
    values.sort { $0.rank < $1.rank }
    for value in values {
      key(value.name)
      out += Array(value.json.utf8)
    }
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
    guard let parentEntity, let child,
      case .relationship(let index) = model.containment(of: parentEntity, holding: child)
    else { return "@objects" }
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
    var arrayKey: String?
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
    let key = head.arrayKey(parentEntity: stack[stack.count - 1].entity, child: entity)
    if stack[stack.count - 1].arrayKey == key {
      buffer.append(UInt8(ascii: ","))
    } else {
      if stack[stack.count - 1].arrayKey != nil { buffer += Array("\n]".utf8) }
      buffer += Array(",\(JSONText.quote(key)):[".utf8)
      stack[stack.count - 1].arrayKey = key
    }
    buffer.append(0x0A)
    head.write(tag, entity: entity, isRoot: false, into: &buffer)
    stack.append(Open(entity: entity))
    flush(final: false)
  }

  func endElement(range: TextRange?) {
    guard let open = stack.popLast() else { return }
    if open.arrayKey != nil { buffer += Array("\n]".utf8) }
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
