import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import Testing

@testable import OutlineEditing

/// On documents that parse, the forgiving scan sees exactly the parser's
/// elements; on documents cut short, it still sees every element before the cut.
@Suite struct MarkupAgreementTests {
  /// A random nested outline: comments, CDATA-free, multi-byte titles, CRLF or LF, some self-closing.
  static func randomOutline(seed: UInt64, items: Int) -> String {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let newline = next(2) == 0 ? "\n" : "\r\n"
    var text = "<?xml version=\"1.0\"?>" + newline + "<outline>" + newline
    var open = 0
    var orders = [0]
    for index in 0..<items {
      let indent = String(repeating: "  ", count: open + 1)
      if next(6) == 0 { text += indent + "<!-- <Item> é \(index) -->" + newline }
      let title = ["a", "é", "😀 x", "&lt;b&gt;", "\(index)"][next(5)]
      let order = orders[open]
      orders[open] += 1
      if next(3) == 0 {
        text += indent + "<Item order=\"\(order)\" title=\"\(title)\">" + newline
        open += 1
        orders.append(0)
      } else {
        text += indent + "<Item title='\(title)' order=\"\(order)\"/>" + newline
      }
      while open > 0 && next(4) == 0 {
        open -= 1
        orders.removeLast()
        text += String(repeating: "  ", count: open + 1) + "</Item>" + newline
      }
    }
    while open > 0 {
      open -= 1
      text += String(repeating: "  ", count: open + 1) + "</Item>" + newline
    }
    return text + "</outline>" + newline
  }

  @Test(arguments: 0..<20) func agreesWithTheParser(seed: Int) {
    let source = SourceText(Self.randomOutline(seed: UInt64(seed), items: 200))
    let validator = OutlineValidator.validate(source)
    #expect(validator.diagnostics.filter { $0.severity == .error }.isEmpty)
    let items = validator.tree!.items
    let elements = MarkupTree(source.bytes).elements
    #expect(items.count == elements.count)
    for (item, element) in zip(items, elements) {
      #expect(item.startTag == element.startTag && item.nameRange == element.name)
      #expect(item.endTag == element.endTag && item.fullRange == element.range)
      #expect(item.parent == element.parent && item.subtreeEnd == element.subtreeEnd)
    }
    // Cut anywhere: the elements that start before the cut are still there, with their names.
    let cut = source.bytes.count / 2
    let prefix = SourceText(bytes: Array(source.bytes[..<cut]))
    let partial = MarkupTree(prefix.bytes).elements
    let before = items.filter { $0.startTag.end <= cut }
    #expect(partial.prefix(before.count).map(\.name) == before.map(\.nameRange))
  }

  @Test func aCascadeThatReachesTheRootIsRefused() throws {
    let model = ModelLoader.load(
      SourceText(
        EditorFixture.modelText.replacingOccurrences(
          of: "name=\"blocks\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\"",
          with: "name=\"blocks\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\"")))
    let source = SourceText(
      "<outline entity=\"Task\" xml:id=\"root\">\n  <Task order=\"0\" blocks=\"root\"/>\n</outline>\n")
    let tree = OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree!
    let impact = DeletionImpact(tree: tree, source: source, model: model)
    guard case .failure(let refusal) = impact.count(deleting: 1) else {
      Issue.record("a cascade to the root was not refused")
      return
    }
    #expect(refusal.reason.contains("root"))
    #expect(throws: EditRefusal.self) {
      try StructureEdits.delete(1, tree: tree, source: source, model: model).get()
    }
  }
}
