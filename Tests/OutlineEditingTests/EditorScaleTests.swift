import Foundation
import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import Testing

@testable import OutlineEditing

/// The editor analyses on a long flat list and a deep chain: one pass each,
/// no recursion (a 20,000-deep chain would overflow the stack otherwise).
@Suite struct EditorScaleTests {
  static let count = 20_000

  @Test func longListAndDeepChain() throws {
    let flat = SourceText(
      "<outline>\n" + (0..<Self.count).map { "  <Item order=\"\($0)\" title=\"t\($0) é\"/>\n" }.joined()
        + "</outline>\n")
    let deep = SourceText(
      "<outline>" + (0..<Self.count).map { _ in "<Item order=\"0\">" }.joined()
        + String(repeating: "</Item>", count: Self.count) + "</outline>")
    for source in [flat, deep] {
      let markup = MarkupTree(source.bytes)
      #expect(markup.elements.count == Self.count + 1)
      let tokens = SemanticTokens.tokens(in: source, model: ModelLoader.defaultModel, rootEntity: 0)
      #expect(tokens.count >= 4 * Self.count)
      #expect(SemanticTokens.encode(tokens, in: source, unit: .utf16).count == tokens.count * 5)
      let tree = OutlineValidator.validate(source).tree!
      let hints = OutlineNumbers(tree: tree, model: ModelLoader.defaultModel).hints(
        in: TextRange(start: 0, end: source.bytes.count))
      #expect(hints.count == Self.count)
      let last = markup.elements[Self.count].name.start
      #expect(SelectionRanges.ranges(at: last, in: source, tree: markup).count >= 3)
      #expect(
        try DeletionImpact(tree: tree, source: source, model: ModelLoader.defaultModel).count(deleting: 1)
          .get() >= 1)
    }
  }
}
