import OutlineCore
import OutlineModel
import Testing

@testable import OutlineEditing

@Suite struct SemanticTokensTests {
  func described(_ tokens: [SemanticTokens.Token], _ source: SourceText) -> [String] {
    tokens.map { token in
      let modifiers = SemanticTokens.TokenModifier.allCases.filter { token.modifiers & $0.bit != 0 }.map(
        \.name)
      return
        "\(token.type.name)\(modifiers.isEmpty ? "" : "+" + modifiers.joined(separator: "+")) \(source.string(in: token.range))"
    }
  }

  @Test func classifiesByWhatTheModelSays() {
    let source = SourceText(
      """
      <?xml version="1.0"?>
      <outline entity="Project">
        <Task xml:id="t1" order="0" status="low" done="true" title="é" blocks="t2 t3"/>
        <Bogus a="b"></Bogus>
      </outline>
      """)
    let model = EditorFixture.model
    let tokens = SemanticTokens.tokens(in: source, model: model, rootEntity: model.entity(named: "Project"))
    #expect(
      described(tokens, source) == [
        "macro <?xml version=\"1.0\"?>",
        "type outline", "property entity", "string \"Project\"",
        "type Task", "namespace xml:id", "variable+declaration t1", "property order", "number 0",
        "property status", "enumMember low", "property done", "enumMember true", "property title",
        "string \"é\"", "property+modification blocks", "variable t2", "variable t3",
        "class Bogus", "property a", "string \"b\"", "class Bogus",
        "type outline",
      ])
  }

  @Test func multiLineTokensAreCutAtLineEndsAndRangesFilter() {
    let source = SourceText("<a>\r\n<!-- one\r\ntwo -->\r\n<b c=\"x\r\ny\"/></a>")
    let tokens = SemanticTokens.tokens(in: source, model: nil, rootEntity: nil)
    #expect(
      described(tokens, source) == [
        "type a", "comment <!-- one", "comment two -->", "type b", "property c", "string \"x", "string y\"",
        "type a",
      ])
    let encoded = SemanticTokens.encode(tokens, in: source, unit: .utf16)
    #expect(encoded.count == tokens.count * 5)
    // The second comment line: one line down, column 0, 7 long.
    #expect(Array(encoded[10..<15]) == [1, 0, 7, UInt32(SemanticTokens.TokenType.comment.rawValue), 0])
    // A range keeps the tokens that overlap it.
    let second = source.lines.start(ofLine: 2)
    let ranged = SemanticTokens.tokens(
      in: source, model: nil, rootEntity: nil, range: TextRange(start: second, end: second + 3))
    #expect(described(ranged, source) == ["comment two -->"])
  }

  @Test func encodingCountsUTF16AndUTF8Columns() {
    let source = SourceText("<a t=\"😀\" u=\"v\"/>")
    let tokens = SemanticTokens.tokens(in: source, model: nil, rootEntity: nil)
    let utf16 = SemanticTokens.encode(tokens, in: source, unit: .utf16)
    let utf8 = SemanticTokens.encode(tokens, in: source, unit: .utf8)
    // The string "😀" is 4 UTF-16 units with its quotes, 6 UTF-8 bytes.
    #expect(utf16[12] == 4 && utf8[12] == 6)
    // `u` starts 5 UTF-16 units after that string's start, 7 bytes.
    #expect(utf16[16] == 5 && utf8[16] == 7)
  }

  @Test func brokenAndHostileInputIsStillColored() {
    for text in ["<a b=\"", "<!-- open", "<![CDATA[ x", "<a><b c='d'", "<<>", "\u{FEFF}<a/>", "</", "<?pi"] {
      let source = SourceText(text)
      let tokens = SemanticTokens.tokens(in: source, model: EditorFixture.model, rootEntity: nil)
      for (previous, next) in zip(tokens, tokens.dropFirst()) {
        #expect(previous.range.end <= next.range.start)
      }
      #expect(tokens.allSatisfy { $0.range.end <= source.bytes.count && $0.range.length > 0 })
      _ = SemanticTokens.encode(tokens, in: source, unit: .utf16)
    }
  }

  /// A range resumed at a start tag the parser reported gives the same tokens as a scan from the top.
  @Test func resumingAtAnItemGivesTheSameTokens() {
    let source = SourceText(
      "<outline entity=\"Project\">\n<!-- x\n y -->\n  <Task order=\"0\" done=\"true\"/>\n  <Bogus a=\"b\"></Bogus>\n</outline>\n"
    )
    let model = EditorFixture.model
    let tree = EditorFixture.tree(source)
    let root = model.entity(named: "Project")
    for item in tree.items.indices.dropFirst() {
      for end in [tree.items[item].startTag.end, source.bytes.count] {
        let range = TextRange(start: tree.items[item].startTag.start + 1, end: end)
        let top = SemanticTokens.tokens(in: source, model: model, rootEntity: root, range: range)
        let resumed = SemanticTokens.tokens(
          in: source, model: model, rootEntity: root, range: range,
          resume: (tree.items[item].startTag.start, tree.items[0].nameRange))
        #expect(top == resumed)
        #expect(!top.isEmpty)
      }
    }
  }
}
