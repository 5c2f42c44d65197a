import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

@testable import OutlineConvert

@Suite struct RangeFormattingTests {
  let messy = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline>
    <Item   order="0"  title="a"/>


          <Item title='b' order="1">
     <Item order="0" title="b1"></Item>
    </Item>
      <!-- keep   this -->
    <Item order="2" title="c"/>
    </outline>

    """

  func apply(_ edits: [TextEdit], to source: SourceText) -> String {
    String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
  }

  func lineRange(_ first: Int, _ last: Int, in source: SourceText) -> TextRange {
    TextRange(start: source.lines.start(ofLine: first), end: source.lines.start(ofLine: last + 1))
  }

  @Test func formattingEveryLineEqualsTheFormatter() {
    let source = SourceText(messy)
    let whole = apply(
      RangeFormatting.edits(
        formatting: TextRange(start: 0, end: source.bytes.count), in: source, model: ModelLoader.defaultModel),
      to: source)
    #expect(Array(whole.utf8) == Formatter.format(source, model: ModelLoader.defaultModel))
  }

  @Test func onlyTheLinesInTheRangeChange() {
    let source = SourceText(messy)
    // Lines 5-6: `<Item title='b' ...>` and its child.
    let edits = RangeFormatting.edits(
      formatting: lineRange(5, 6, in: source), in: source, model: ModelLoader.defaultModel)
    #expect(
      apply(edits, to: source) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <outline>
        <Item   order="0"  title="a"/>
          <Item order="1" title="b">
            <Item order="0" title="b1"/>
        </Item>
          <!-- keep   this -->
        <Item order="2" title="c"/>
        </outline>

        """)
    // Edits are minimal: none touches the first three lines.
    #expect(edits.allSatisfy { $0.range.start >= source.lines.start(ofLine: 2) + 20 })
  }

  @Test func formattingIsIdempotentAndKeepsCRLF() {
    let crlf = SourceText(messy.replacingOccurrences(of: "\n", with: "\r\n"))
    let range = lineRange(2, 9, in: crlf)
    let once = SourceText(apply(RangeFormatting.edits(formatting: range, in: crlf, model: nil), to: crlf))
    #expect(once.string.contains("\r\n  <Item order=\"0\" title=\"a\"/>\r\n"))
    #expect(!once.string.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    let again = RangeFormatting.edits(
      formatting: TextRange(start: 0, end: once.bytes.count), in: once, model: nil)
    #expect(again.isEmpty, "\(again)")
  }

  /// A comment's own line ends become the document's, as `outline fmt` makes them `\n` (XML
  /// reads every line end as one): the whole range formatted is `fmt`'s text in the document's
  /// line end, and formatting it again changes nothing.
  @Test(arguments: ["\n", "\r\n", "\r"])
  func commentsTakeTheDocumentsLineEnd(ending: String) {
    // `¶` is the document's line end; the comment has one of each kind.
    let text = "<outline>¶  <!-- a\rb\nc\r\nd -->¶  <Item order=\"0\"/>¶</outline>¶"
    let source = SourceText(text.replacingOccurrences(of: "¶", with: ending))
    let model = ModelLoader.defaultModel
    let whole = TextRange(start: 0, end: source.bytes.count)
    let tree = OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree
    let once = apply(
      RangeFormatting.edits(formatting: whole, in: source, model: model, tree: tree), to: source)
    #expect(
      once
        == "<outline>\n  <!-- a\nb\nc\nd -->\n  <Item order=\"0\"/>\n</outline>\n".replacingOccurrences(
          of: "\n", with: ending))
    let formatted = Formatter.format(source, model: model)
    #expect(
      Array(once.utf8)
        == LineEnds.converting(
          Array(formatted[RangeFormatting.declarationEnd(formatted)...].drop { $0 == 0x0A }),
          to: Array(ending.utf8)))
    let again = SourceText(once)
    #expect(
      RangeFormatting.edits(formatting: TextRange(start: 0, end: again.bytes.count), in: again, model: model)
        .isEmpty)
  }

  @Test func textBetweenTagsIsLeftAlone() {
    let source = SourceText("<outline>\n<Item title=\"x\">text<Item/></Item>\n</outline>\n")
    let edits = RangeFormatting.edits(
      formatting: TextRange(start: 0, end: source.bytes.count), in: source, model: nil)
    let result = apply(edits, to: source)
    // The tag the text follows and the tag after the text keep their place; the end tag gets its line.
    #expect(result == "<outline>\n<Item title=\"x\">text<Item/>\n  </Item>\n</outline>\n")
  }

  @Test func onTypeFormatsTheTagJustClosed() {
    let source = SourceText("<outline>\n  <Item order=\"0\">\n        <Item   title=\"é\" order=\"0\"/>\n")
    let edits = RangeFormatting.edits(
      typedAt: source.bytes.count - 1, in: source, model: ModelLoader.defaultModel)
    #expect(
      apply(edits, to: source)
        == "<outline>\n  <Item order=\"0\">\n    <Item order=\"0\" title=\"é\"/>\n")
    // Not after `>`, or a tag that does not begin its line: nothing.
    #expect(RangeFormatting.edits(typedAt: 5, in: source, model: nil).isEmpty)
    let inline = SourceText("<outline><Item/>\n")
    #expect(RangeFormatting.edits(typedAt: 16, in: inline, model: nil).isEmpty)
    // An end tag takes its element's indentation.
    let end = SourceText("<outline>\n  <Item>\n    <Item/>\n        </Item>")
    #expect(
      apply(RangeFormatting.edits(typedAt: end.bytes.count, in: end, model: nil), to: end)
        == "<outline>\n  <Item>\n    <Item/>\n  </Item>")
  }

  @Test func hostileInputGivesNoBrokenEdits() {
    for text in [
      "", "<", "<outline", "<outline><Item", "<!-- x", "<outline><![CDATA[a]]></outline>", "<a>\r\n<b/>\r\n",
      "\u{FEFF}<?xml version=\"1.0\"?><a/>", "<?xml", "<a>😀<b/></a>",
    ] {
      let source = SourceText(text)
      for offset in 0...source.bytes.count {
        #expect(
          TextEdit.apply(RangeFormatting.edits(typedAt: offset, in: source, model: nil), to: source.bytes)
            != nil)
      }
      let all = RangeFormatting.edits(
        formatting: TextRange(start: 0, end: source.bytes.count), in: source, model: nil)
      #expect(TextEdit.apply(all, to: source.bytes) != nil, "\(text)")
    }
  }

  /// The tree's fast path and the formatting pass agree at every `>`.
  @Test func onTypeFromTheTreeEqualsTheFormattingPass() {
    let texts = [
      messy, messy.replacingOccurrences(of: "\n", with: "\r\n"),
      "<outline version=\"1\"   title=\"T\">\n      <Item title=\"a &amp; b\" order=\"+3\"/>\n <Item order=\"1\">\n<Item/>\n   </Item>\n",
      "<outline>\n  <Item order=\"0\"></Item>\n      <Item   order=\"1\">\n  </Item>\n</outline>\n",
    ]
    for text in texts {
      let source = SourceText(text)
      let model = ModelLoader.defaultModel
      let tree = OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree
      for offset in 1...source.bytes.count where source.bytes[offset - 1] == UInt8(ascii: ">") {
        let fast = RangeFormatting.edits(typedAt: offset, in: source, model: model, tree: tree)
        let pass = RangeFormatting.edits(typedAt: offset, in: source, model: model)
        #expect(fast == pass, "at \(offset) of \(text)")
      }
    }
  }

  /// Range formatting from the tree equals the formatting pass, for every range of whole lines.
  @Test func rangesFromTheTreeEqualTheFormattingPass() {
    let texts = [
      messy, messy.replacingOccurrences(of: "\n", with: "\r\n"),
      "<outline>\n <!-- a\n  b -->\n<Item order=\"0\">\n      <!-- in -->\n<Item order=\"0\"></Item>\n  </Item>\n</outline>\n<!-- after -->\n\n",
      "<outline version=\"1\"   title=\"T\">\n      <Item title=\"a &amp; b\" order=\"+3\"/>\n <Item order=\"1\">\n<Item/>\n   </Item>\n</outline>",
      "\u{FEFF}<outline><Item order=\"0\"/>\n  <Item order=\"1\"></Item></outline>",
      "<outline>\r\n <!-- a\rb\nc\r\nd -->\r\n<Item order=\"0\"/>\r\n</outline>\r\n",
      "<outline>\n <!-- a\r\nb\rc -->\n<Item order=\"0\"/>\n</outline>\n",
    ]
    // Documents that parse and hold no text: what the server formats.
    for text in texts {
      let source = SourceText(text)
      let model = ModelLoader.defaultModel
      let tree = OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree
      let lines = source.lines.lineCount
      for firstLine in 0..<lines {
        for lastLine in firstLine..<lines {
          let range = TextRange(
            start: source.lines.start(ofLine: firstLine), end: source.lines.start(ofLine: lastLine + 1))
          let fast = RangeFormatting.edits(formatting: range, in: source, model: model, tree: tree)
          let pass = RangeFormatting.edits(formatting: range, in: source, model: model)
          #expect(
            fast.sorted { $0.range < $1.range } == pass.sorted { $0.range < $1.range },
            "lines \(firstLine)-\(lastLine) of \(text)")
        }
      }
    }
  }

  /// `<a>text</a>` is not written `<a/>` by range formatting: the text stays.
  @Test func textInsideAnElementIsNeverDropped() {
    let source = SourceText("<outline>\n      <Item order=\"0\">text</Item>\n</outline>\n")
    let all = TextRange(start: 0, end: source.bytes.count)
    let tree = OutlineValidator.validate(source).tree
    for edits in [
      RangeFormatting.edits(formatting: all, in: source, model: nil),
      RangeFormatting.edits(formatting: all, in: source, model: nil, tree: tree),
    ] {
      #expect(apply(edits, to: source).contains(">text</Item>"))
    }
  }
}
