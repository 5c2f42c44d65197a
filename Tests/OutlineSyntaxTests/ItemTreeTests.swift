import OutlineCore
import OutlineXML
import Testing

@testable import OutlineSyntax

/// The syntax tree without a model: structure, ranges, ids, comments, processing instructions
/// and labels.
@Suite struct ItemTreeTests {
  static let text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <!-- groceries -->
      <Item xml:id="milk" title="Milk &amp; eggs" order="0"/>
      <Item title="Bread" order="1">
        <?pi list?>
        <Item title="" order="0"/>
      </Item>
    </outline>
    """
  static let bytes = Array(text.utf8)

  func range(of needle: String, after start: Int = 0) -> TextRange {
    let needle = Array(needle.utf8)
    var index = start
    while !Self.bytes[index..<(index + needle.count)].elementsEqual(needle) { index += 1 }
    return TextRange(start: index, end: index + needle.count)
  }

  @Test func parsesStructureWithoutAModel() {
    let tree = ItemTree.parse(Self.bytes)
    #expect(tree.items.count == 4)
    #expect(tree.items.map(\.parent) == [-1, 0, 0, 2])
    #expect(tree.items.map(\.depth) == [0, 1, 1, 2])
    #expect(tree.items.map(\.subtreeEnd) == [4, 2, 4, 4])
    #expect(tree.children(of: 0) == [1, 2])
    #expect(tree.childCount(of: 2) == 1)
    // Unbound: no model read them.
    #expect(tree.items.allSatisfy { $0.entity == -1 && $0.relationship == -1 && $0.titleRange == nil })
    #expect(tree.items[1].endTag == nil)
    #expect(tree.items[2].endTag == range(of: "</Item>"))
    #expect(tree.items[1].nameRange == range(of: "Item"))
    #expect(tree.items[1].idRange == range(of: "milk"))
    #expect(tree.comments == [range(of: "<!-- groceries -->")])
    // Processing instructions, and not the XML declaration.
    #expect(tree.instructions == [range(of: "<?pi list?>")])
    #expect(tree.item(at: range(of: "Bread").start) == 2)
    #expect(tree.item(at: range(of: "title=\"\"").start) == 3)
  }

  @Test func builderBindsWhatTheModelSays() {
    let tree = ItemTree.parse(Self.bytes)
    final class Binder: XMLEventHandler {
      var builder = ItemTreeBuilder()
      func startElement(_ tag: StartTag) {
        let item = builder.startElement(tag)
        let title = tag.index(of: "title").map { tag.valueRange(of: $0) }
        let order = tag.index(of: "order").map { Int64(tag.value(of: $0))! }
        builder.bind(
          item, entity: item == 0 ? 0 : 1, relationship: item == 0 ? -1 : 0, order: order,
          orderRange: tag.index(of: "order").map { tag.valueRange(of: $0) }, titleRange: title)
      }
      func endElement(range: TextRange?) { builder.endElement(range: range) }
      func comment(range: TextRange, content: ByteView) { builder.comment(range: range) }
      func text(range: TextRange) {}
      func doctype(range: TextRange) {}
      func syntaxError(message: String, range: TextRange, isFatal: Bool) {}
    }
    let binder = Binder()
    XMLEventParser.parse(Self.bytes, handler: binder)
    binder.builder.finish()
    let bound = binder.builder.tree
    // The same structure as the model-free parse, with the bindings added.
    #expect(bound.items.map(\.subtreeEnd) == tree.items.map(\.subtreeEnd))
    #expect(bound.items.map(\.entity) == [0, 1, 1, 1])
    #expect(bound.items.map(\.order) == [nil, 0, 1, 0])
    Self.bytes.withByteView { bytes in
      #expect(bound.title(of: 1, in: bytes) == "Milk & eggs")
      #expect(bound.title(of: 3, in: bytes) == nil)
      var label: [UInt8] = []
      ItemLabel.append(
        title: bound.rawTitle(of: 3, in: bytes), fallback: bytes.extracting(0..<0),
        to: &label)
      #expect(label.isEmpty)
      let name = bound.items[1].nameRange
      ItemLabel.append(
        title: bound.rawTitle(of: 1, in: bytes),
        fallback: bytes.extracting(name.start..<name.end), to: &label)
      #expect(String(decoding: label, as: UTF8.self) == "Milk & eggs")
    }
  }

  @Test func ordersChildrenByOrderValueThenDocumentOrder() {
    var tree = ItemTree()
    func item(order: Int64?) -> Item {
      Item(
        entity: -1, parent: 0, depth: 1, subtreeEnd: 0, relationship: -1,
        startTag: TextRange(start: 0, end: 0), nameLength: 0, endTag: nil, order: order, orderRange: nil,
        titleRange: nil, idRange: nil)
    }
    tree.items = [item(order: nil), item(order: 2), item(order: 0), item(order: 2), item(order: nil)]
    for index in 1..<5 { tree.items[index].subtreeEnd = Int32(index + 1) }
    tree.items[0].subtreeEnd = 5
    #expect(tree.orderedChildren(of: 0) == [2, 1, 3, 4])
  }

  @Test func aBrokenDocumentKeepsWhatParsed() {
    let tree = ItemTree.parse(Array("<outline><Item title=\"a\"><Item title=\"b\"".utf8))
    #expect(tree.items.count == 2)
    #expect(tree.items.map(\.subtreeEnd) == [2, 2])
  }

  @Test func aDeepChainIsBuiltWithoutRecursion() {
    let depth = 100_000
    var text = "<outline>"
    text += String(repeating: "<Item>", count: depth)
    text += String(repeating: "</Item>", count: depth)
    text += "</outline>"
    let tree = ItemTree.parse(Array(text.utf8))
    #expect(tree.items.count == depth + 1)
    #expect(tree.items.last?.depth == Int32(depth))
    #expect(tree.items[1].subtreeEnd == Int32(depth + 1))
    // The innermost start tag: after `<outline>` and depth - 1 `<Item>`s.
    #expect(tree.item(at: 9 + 6 * (depth - 1)) == depth)
  }
}
