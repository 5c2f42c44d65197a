import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import Testing

@testable import OutlineEditing

/// Documents broken at random (markup characters inserted, bytes cut, a
/// multi-byte character split): every analysis answers, within the text,
/// with its invariants kept.
@Suite struct MutationTests {
  static let pieces = [
    "<", ">", "\"", "'", "</", "/>", "<!--", "-->", "<![CDATA[", "]]>", "<?", "=", "é", "😀", "\r\n",
  ]

  @Test(arguments: 0..<40) func randomBreakageKeepsTheInvariants(seed: Int) {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(max(bound, 1)))
    }
    var bytes = Array(MarkupAgreementTests.randomOutline(seed: UInt64(seed), items: 40).utf8)
    for _ in 0..<(1 + next(6)) {
      let at = next(bytes.count + 1)
      switch next(3) {
      case 0: bytes.insert(contentsOf: Array(Self.pieces[next(Self.pieces.count)].utf8), at: at)
      case 1: bytes.removeSubrange(at..<min(bytes.count, at + next(12)))
      default: if at < bytes.count { bytes.remove(at: at) }  // may split a multi-byte character
      }
    }
    let source = SourceText(bytes: bytes)
    let markup = MarkupTree(bytes)
    for (index, element) in markup.elements.enumerated() {
      #expect(element.startTag.start < element.end || element.startTag.length > 0)
      #expect(element.end <= bytes.count && Int(element.subtreeEnd) > index)
      #expect(element.endTag.map { $0.start >= element.startTag.end && $0.end <= bytes.count } ?? true)
    }
    let tokens = SemanticTokens.tokens(in: source, model: ModelLoader.defaultModel, rootEntity: 0)
    for (previous, next) in zip(tokens, tokens.dropFirst()) {
      #expect(previous.range.end <= next.range.start)
    }
    #expect(tokens.allSatisfy { $0.range.length > 0 && $0.range.end <= bytes.count })
    #expect(SemanticTokens.encode(tokens, in: source, unit: .utf16).count == tokens.count * 5)
    for _ in 0..<30 {
      let offset = next(bytes.count + 1)
      let chain = SelectionRanges.ranges(at: offset, in: source, tree: markup)
      for (inner, outer) in zip(chain, chain.dropFirst()) { #expect(outer.contains(inner) && outer != inner) }
      if let candidate = ClosingTagCompletion.candidate(at: offset, in: source, tree: markup) {
        #expect(candidate.range.start < offset && candidate.range.end <= bytes.count)
      }
      if let linked = LinkedTagNames.ranges(at: offset, in: markup) {
        #expect(source.string(in: linked[0]) == source.string(in: linked[1]))
      }
    }
    let validator = OutlineValidator.validate(source)
    if let tree = validator.tree, !tree.items.isEmpty {
      let numbers = OutlineNumbers(tree: tree, model: ModelLoader.defaultModel)
      #expect(numbers.hints(in: TextRange(start: 0, end: bytes.count)).count == tree.items.count - 1)
      let impact = DeletionImpact(tree: tree, source: source, model: ModelLoader.defaultModel)
      for item in tree.items.indices.dropFirst() {
        #expect((try? impact.count(deleting: item).get()) == Int(tree.items[item].subtreeEnd) - item)
      }
    }
  }
}
