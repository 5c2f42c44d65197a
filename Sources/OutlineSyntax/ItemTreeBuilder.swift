// Building an ``ItemTree`` from a document's events: one item per start tag, closed by its end, with a stack of
// the open items (no recursion). The validator drives one in its own pass and binds what the model says about
// each item; ``ItemTree/parse(_:)`` drives one alone, with no model.

import OutlineCore
import OutlineXML

/// Builds an ``ItemTree`` one event at a time.
public struct ItemTreeBuilder: Sendable {
  /// The tree so far.
  public private(set) var tree = ItemTree()
  /// The open items, outermost first.
  private var open: [Int32] = []

  /// An empty builder.
  public init() {}

  /// Makes room for the items of a document of `bytes` bytes, guessed at one
  /// item per 64 bytes: a large document's items are then written once
  /// instead of being copied to fresh pages each time the array doubles. The
  /// room an overestimate leaves is never touched, so it takes no memory.
  public mutating func reserveCapacity(forDocumentBytes bytes: Int) {
    tree.items.reserveCapacity(bytes / 64)
  }

  /// Records the element `tag` starts and returns its item number.
  @discardableResult
  public mutating func startElement(_ tag: StartTag) -> Int {
    let item = tree.items.count
    tree.items.append(
      Item(
        entity: -1, parent: open.last ?? -1, depth: Int32(open.count), subtreeEnd: Int32(item + 1),
        relationship: -1, startTag: tag.range, nameLength: Int32(tag.nameEnd - 1), endTag: nil, order: nil,
        orderRange: nil, titleRange: nil, idRange: tag.index(of: "xml:id").map { tag.valueRange(of: $0) }))
    open.append(Int32(item))
    return item
  }

  /// Records what the model says about `item`: its entity and containment
  /// relationship (-1 when unknown), its order and the ranges of its order and title values.
  public mutating func bind(
    _ item: Int, entity: Int, relationship: Int, order: Int64?, orderRange: TextRange?, titleRange: TextRange?
  ) {
    tree.items[item].entity = Int32(entity)
    tree.items[item].relationship = Int32(relationship)
    tree.items[item].order = order
    tree.items[item].orderRange = orderRange
    tree.items[item].titleRange = titleRange
  }

  /// Closes the innermost open item; `range` is its end tag (nil for `<a/>`).
  public mutating func endElement(range: TextRange?) {
    guard let item = open.popLast() else { return }
    tree.items[Int(item)].endTag = range
    tree.items[Int(item)].subtreeEnd = Int32(tree.items.count)
  }

  /// Records a comment, `<!--` to `-->`.
  public mutating func comment(range: TextRange) {
    tree.comments.append(range)
  }

  /// Records a processing instruction, `<?` to `?>`.
  public mutating func processingInstruction(range: TextRange) {
    tree.instructions.append(range)
  }

  /// Closes what a syntax error left open: those items keep the items they had.
  public mutating func finish() {
    while let item = open.popLast() {
      tree.items[Int(item)].subtreeEnd = Int32(tree.items.count)
    }
  }
}

extension ItemTree {
  /// The tree of `bytes`, with no model: structure, ids, comments and processing instructions;
  /// every item unbound.
  /// A document that is not well-formed gives the tree of what parsed.
  public static func parse(_ bytes: [UInt8]) -> ItemTree {
    let handler = Handler()
    XMLEventParser.parse(bytes, handler: handler)
    handler.builder.finish()
    return handler.builder.tree
  }

  private final class Handler: XMLEventHandler {
    var builder = ItemTreeBuilder()
    func startElement(_ tag: StartTag) { builder.startElement(tag) }
    func endElement(range: TextRange?) { builder.endElement(range: range) }
    func comment(range: TextRange, content: ByteView) { builder.comment(range: range) }
    func processingInstruction(range: TextRange) { builder.processingInstruction(range: range) }
    func text(range: TextRange) {}
    func doctype(range: TextRange) {}
    func syntaxError(message: String, range: TextRange, isFatal: Bool) {}
  }
}
