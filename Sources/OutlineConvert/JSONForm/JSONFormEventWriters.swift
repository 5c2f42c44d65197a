// The three ways the JSON form writer is driven: `StreamingJSONWriter` writes objects as the parser reports them
// (memory holds the open path), `TreeJSONWriter` walks a built tree with each sibling group sorted by order, and
// `AlongsideWriter` runs next to the validator and stops writing at a syntax error.

import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// Writes objects as the parser reports them; memory holds the open path.
final class StreamingJSONWriter: XMLEventHandler {
  private let head: ObjectHead
  private let output: (UnsafeBufferPointer<UInt8>) -> Void
  /// Half a megabyte at a time, handed to `output` as it stands.
  @exclusivity(unchecked) private var buffer = ByteOutput(
    capacity: StreamingJSONWriter.flushBytes + (1 << 16))
  private struct Open {
    /// The entity, -1 for none.
    var entity: Int32
    /// The open array: a containment relationship, -1 for `@objects`, ``noArray`` for none.
    var array: Int32 = Open.noArray
    static var noArray: Int32 { -2 }
  }
  /// The open elements, `depth` of them, in memory this writer owns (no array uniqueness
  /// check per element).
  @exclusivity(unchecked) private var stack = UnsafeMutablePointer<Open>.allocate(capacity: 64)
  @exclusivity(unchecked) private var stackCapacity = 64
  @exclusivity(unchecked) private var depth = 0
  /// The entity last found by name (-1: none yet), its name and the table that writes it
  /// (unretained: `head` keeps it).
  @exclusivity(unchecked) private var lastEntity: Int32 = -1
  @exclusivity(unchecked) private var lastName: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(
    start: nil, count: 0)
  @exclusivity(unchecked) private var lastNameLength = 0
  @exclusivity(unchecked) private var lastNameWord: UInt64 = 0
  @exclusivity(unchecked) private var table: Unmanaged<ObjectHead.EntityTable>
  /// The array the last child was found in, for its parent's entity and its own.
  @exclusivity(unchecked) private var lastParent: Int32 = -3
  @exclusivity(unchecked) private var lastChild: Int32 = -3
  @exclusivity(unchecked) private var lastArray: Int32 = 0

  /// How many bytes are written at a time.
  static let flushBytes = 1 << 19

  /// An output that takes arrays, handed a copy of each buffer's bytes in one array, reused.
  static func copying(_ output: @escaping (inout [UInt8]) -> Void) -> (UnsafeBufferPointer<UInt8>) -> Void {
    var chunk: [UInt8] = []
    return { bytes in
      chunk.removeAll(keepingCapacity: true)
      chunk.append(contentsOf: bytes)
      output(&chunk)
    }
  }

  init(head: ObjectHead, output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
    self.head = head
    self.output = output
    placeholder = ObjectHead.EntityTable(entity: [], keys: [])
    table = Unmanaged.passUnretained(placeholder)
  }

  /// What `table` points at before an entity is found.
  private let placeholder: ObjectHead.EntityTable

  deinit {
    buffer.free()
    stack.deallocate()
  }

  /// Opens an element on the stack.
  @inline(__always)
  private func push(_ open: Open) {
    if depth == stackCapacity {
      let grown = UnsafeMutablePointer<Open>.allocate(capacity: stackCapacity * 2)
      grown.moveInitialize(from: stack, count: depth)
      stack.deallocate()
      stack = grown
      stackCapacity *= 2
    }
    (stack + depth).initialize(to: open)
    depth += 1
  }

  func flush(final: Bool) {
    if final { buffer.append(0x0A) }
    if final || buffer.count >= Self.flushBytes {
      output(buffer.buffer)
      buffer.removeAll()
    }
  }

  func startElement(_ tag: StartTag) {
    guard depth > 0 else {
      head.write(tag, entity: head.rootEntity, isRoot: true, into: &buffer)
      push(Open(entity: head.rootEntity.map { Int32($0) } ?? -1))
      return
    }
    let entity = entity(of: tag)
    let parent = stack[depth - 1]
    let array: Int32
    if parent.entity == lastParent && entity == lastChild {
      array = lastArray
    } else {
      array = Int32(
        head.arrayIndex(
          parentEntity: parent.entity >= 0 ? Int(parent.entity) : nil, child: entity >= 0 ? Int(entity) : nil)
      )
      (lastParent, lastChild, lastArray) = (parent.entity, entity, array)
    }
    if parent.array == array {
      buffer.reserve(2)
      buffer.appendUnchecked(UInt8(ascii: ","))
    } else {
      if parent.array != Open.noArray { buffer.append("\n]") }
      buffer.append(
        head.arrayOpening(parentEntity: parent.entity >= 0 ? Int(parent.entity) : nil, index: Int(array)))
      stack[depth - 1].array = array
      buffer.reserve(1)
    }
    buffer.appendUnchecked(0x0A)
    if entity >= 0 && table._withUnsafeGuaranteedRef({ $0.keyCount <= 64 }) {
      table._withUnsafeGuaranteedRef { head.writeItem(tag, table: $0, into: &buffer) }
    } else {
      head.write(tag, entity: entity >= 0 ? Int(entity) : nil, isRoot: false, into: &buffer)
    }
    push(Open(entity: entity))
    flush(final: false)
  }

  /// The entity of a non-root element, -1 for none: the last one found is tried first, by its
  /// name's length and first eight bytes (one word), so a document of one entity looks nothing up.
  @inline(__always)
  private func entity(of tag: StartTag) -> Int32 {
    let length = tag.nameEnd - 1
    if lastEntity >= 0 && length == lastNameLength {
      let word = ObjectHead.prefixWord(tag.unsafeBytes.baseAddress!, 1, length, tag.unsafeBytes.count)
      if word == lastNameWord
        && (length <= 8
          || memcmp(tag.unsafeBytes.baseAddress! + 9, lastName.baseAddress! + 8, length - 8) == 0)
      {
        return lastEntity
      }
    }
    guard let found = head.entity(of: tag) else { return -1 }
    lastEntity = Int32(found)
    lastName = head.tables[found].elementName
    lastNameLength = length
    lastNameWord = ObjectHead.prefixWord(tag.unsafeBytes.baseAddress!, 1, length, tag.unsafeBytes.count)
    table = Unmanaged.passUnretained(head.tables[found])
    return lastEntity
  }

  func endElement(range: TextRange?) {
    guard depth > 0 else { return }
    depth -= 1
    buffer.reserve(3)
    if stack[depth].array != Open.noArray {
      buffer.appendUnchecked(0x0A)
      buffer.appendUnchecked(UInt8(ascii: "]"))
    }
    buffer.appendUnchecked(UInt8(ascii: "}"))
  }

  func comment(range: TextRange, content: ByteView) {}
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
    var out = ByteOutput(capacity: StreamingJSONWriter.flushBytes + (1 << 16))
    defer { out.free() }
    var chunk: [UInt8] = []
    func flush() {
      chunk.removeAll(keepingCapacity: true)
      chunk.append(contentsOf: out.buffer)
      output(&chunk)
      out.removeAll()
    }
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
        if !top.groups.isEmpty { out.append("\n]") }
        out.append(UInt8(ascii: "}"))
        stack.removeLast()
        continue
      }
      if top.child >= top.groups[top.group].children.count {
        top.group += 1
        top.child = 0
        stack[stack.count - 1] = top
        if top.group < top.groups.count { out.append("\n]") }
        continue
      }
      if top.child == 0 {
        out.append(Array(",\(JSONText.quote(top.groups[top.group].key)):[".utf8))
      } else {
        out.append(UInt8(ascii: ","))
      }
      out.append(0x0A)
      let child = top.groups[top.group].children[top.child]
      top.child += 1
      stack[stack.count - 1] = top
      stack.append(open(child, isRoot: false))
      if out.count >= StreamingJSONWriter.flushBytes { flush() }
    }
    out.append(0x0A)
    flush()
  }
}

/// The JSON writer that runs in the validator's parse (``JSONFormWriter/alongside(_:output:)``).
public final class AlongsideWriter: XMLEventHandler {
  private let validator: OutlineValidator
  private let output: (UnsafeBufferPointer<UInt8>) -> Void
  @exclusivity(unchecked) private var writer: StreamingJSONWriter?
  /// `writer`, unretained: each tag's call through it makes no retain and release (`writer` keeps it alive).
  @exclusivity(unchecked) private var writerReference: Unmanaged<StreamingJSONWriter>?
  @exclusivity(unchecked) private var writing = true
  /// The rewrite of the root's model reference (``ObjectHead/rebaseModel``).
  var rebaseModel: (@Sendable (String) -> String)?

  init(validator: OutlineValidator, output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
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
      var head = ObjectHead(model: model, rootEntity: validator.rootEntity)
      head.rebaseModel = rebaseModel
      let created = StreamingJSONWriter(head: head, output: output)
      writer = created
      writerReference = Unmanaged.passUnretained(created)
    }
    if !validator.childrenInOrder {
      writing = false
      return
    }
    writerReference?._withUnsafeGuaranteedRef { $0.startElement(tag) }
  }

  public func endElement(range: TextRange?) {
    if writing { writerReference?._withUnsafeGuaranteedRef { $0.endElement(range: range) } }
  }

  public func comment(range: TextRange, content: ByteView) {}
  public func text(range: TextRange) {}
  public func doctype(range: TextRange) {}
  public func syntaxError(message: String, range: TextRange, isFatal: Bool) { writing = false }
}
