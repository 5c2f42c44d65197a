import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
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

  /// The lines formatted end with `\n`, as `outline fmt` writes them, whatever the document's
  /// line ends; the lines outside the range keep theirs.
  @Test func formattedLinesEndAsTheFormatterEndsThem() {
    let crlf = SourceText(messy.replacingOccurrences(of: "\n", with: "\r\n"))
    let range = lineRange(2, 9, in: crlf)
    let once = SourceText(apply(RangeFormatting.edits(formatting: range, in: crlf, model: nil), to: crlf))
    #expect(once.string.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<outline>\n"))
    #expect(once.string.contains("\n  <Item order=\"0\" title=\"a\"/>\n"))
    // The line end before a line is its own: `</outline>`'s, outside the range, stays.
    #expect(once.string.hasSuffix("\n  <Item order=\"2\" title=\"c\"/>\r\n</outline>\r\n"))
    let again = SourceText(
      apply(
        RangeFormatting.edits(formatting: TextRange(start: 0, end: once.bytes.count), in: once, model: nil),
        to: once))
    #expect(again.bytes == Formatter.format(crlf, model: nil))
    #expect(
      RangeFormatting.edits(formatting: TextRange(start: 0, end: again.bytes.count), in: again, model: nil)
        .isEmpty)
  }

  /// A comment's own line ends are written `\n`, as `outline fmt` writes them (XML reads every
  /// line end as one), whatever the document's: the whole range formatted is `fmt`'s text, and
  /// formatting it again changes nothing.
  @Test(arguments: ["\n", "\r\n", "\r"])
  func commentLineEndsAreFmts(ending: String) {
    // `¶` is the document's line end; the comment has one of each kind.
    let text = "<outline>¶  <!-- a\rb\nc\r\nd -->¶  <Item order=\"0\"/>¶</outline>¶"
    let source = SourceText(text.replacingOccurrences(of: "¶", with: ending))
    let model = ModelLoader.defaultModel
    let whole = TextRange(start: 0, end: source.bytes.count)
    let tree = OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree
    let once = apply(
      RangeFormatting.edits(formatting: whole, in: source, model: model, tree: tree), to: source)
    #expect(Array(once.utf8) == Formatter.format(source, model: model))
    #expect(
      once.hasSuffix("<outline>\n  <!-- a\nb\nc\nd -->\n  <Item order=\"0\"/>\n</outline>\n"), "\(once)")
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
    #expect(
      result
        == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline>\n<Item title=\"x\">text<Item/>\n  </Item>\n</outline>\n"
    )
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

  /// A character reference to white space between tags is a line of `fmt`'s layout: the whole
  /// range formatted, with the tree or without, is `fmt`'s text, the reference kept as written.
  @Test func referencesBetweenTagsAreFmtsLines() {
    let source = SourceText(
      "<outline>\n<Item title=\"a\"   order=\"0\">&#32;</Item>\n   <Item order=\"1\"   title=\"b\"/>&#10;\n</outline>\n"
    )
    let model = ModelLoader.defaultModel
    let all = TextRange(start: 0, end: source.bytes.count)
    let tree = OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree
    for edits in [
      RangeFormatting.edits(formatting: all, in: source, model: model),
      RangeFormatting.edits(formatting: all, in: source, model: model, tree: tree),
    ] {
      #expect(Array(apply(edits, to: source).utf8) == Formatter.format(source, model: model))
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

  static let seeds: [UInt64] = Array(0..<48)

  /// Every edit in order, apart from the next (touching ones are one), changing something, and
  /// with no edge inside a UTF-8 sequence or between the `\r` and `\n` of a line end.
  func expectValid(_ edits: [TextEdit], in bytes: [UInt8], _ what: String) {
    for (one, next) in zip(edits, edits.dropFirst()) {
      #expect(one.range.end < next.range.start, "\(one) then \(next) in \(what)")
    }
    for edit in edits {
      #expect(
        !bytes[edit.range.start..<edit.range.end].elementsEqual(edit.newText.utf8), "\(edit) in \(what)")
      for edge in [edit.range.start, edit.range.end] {
        #expect(edge <= bytes.count)
        guard edge < bytes.count else { continue }
        #expect(bytes[edge] & 0xC0 != 0x80, "\(edit) cuts a UTF-8 sequence in \(what)")
        #expect(edge == 0 || bytes[edge - 1] != 0x0D || bytes[edge] != 0x0A, "\(edit) cuts a CRLF in \(what)")
      }
    }
  }

  /// Generated documents (every line ending and mix of them, byte order mark, declarations,
  /// comments and processing instructions at every depth): the whole range, from the
  /// formatting pass and from the tree, gives exactly the formatter's text (`outline fmt`'s).
  @Test(arguments: seeds) func wholeRangeGivesTheFormattersText(seed: UInt64) {
    let source = SourceText(GeneratedOutline.untidy(seed: seed))
    let model = ModelLoader.defaultModel
    var dropped: TextRange?
    let expected = Formatter.format(source, model: model, dropped: &dropped)
    let validated = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    // What `fmt` formats: a document that parses and holds no text.
    #expect(dropped == nil && !validated.diagnostics.contains { $0.code == .notWellFormed })
    let tree = validated.tree
    let all = TextRange(start: 0, end: source.bytes.count)
    for edits in [
      RangeFormatting.edits(formatting: all, in: source, model: model),
      RangeFormatting.edits(formatting: all, in: source, model: model, tree: tree),
    ] {
      expectValid(edits, in: source.bytes, source.string.debugDescription)
      #expect(
        TextEdit.apply(edits, to: source.bytes) == expected,
        "\(source.string.debugDescription) gives \(String(decoding: TextEdit.apply(edits, to: source.bytes) ?? [], as: UTF8.self).debugDescription)"
      )
    }
  }

  /// A partial range formats its lines as the formatter writes them: formatting one line after
  /// another, from the last to the first, gives exactly the formatter's text, and so do lines
  /// taken in any order until none changes.
  @Test(arguments: seeds) func lineByLineGivesTheFormattersText(seed: UInt64) {
    let model = ModelLoader.defaultModel
    let original = SourceText(GeneratedOutline.untidy(seed: seed))
    let expected = Formatter.format(original, model: model)
    func formatted(line: Int, of source: SourceText, fromTree: Bool) -> SourceText {
      let start = source.lines.start(ofLine: min(line, source.lines.lineCount - 1))
      let tree = fromTree ? OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree : nil
      let edits = RangeFormatting.edits(
        formatting: TextRange(start: start, end: start), in: source, model: model, tree: tree)
      expectValid(edits, in: source.bytes, "line \(line) of \(source.string.debugDescription)")
      return SourceText(bytes: TextEdit.apply(edits, to: source.bytes)!)
    }
    var source = original
    for line in (0..<original.lines.lineCount).reversed() {
      source = formatted(line: line, of: source, fromTree: line % 2 == 0)
    }
    #expect(
      source.bytes == expected, "\(original.string.debugDescription) gives \(source.string.debugDescription)")
    var random = SeededGenerator(seed: seed)
    source = original
    for _ in 0..<8 {
      let before = source.bytes
      for line in (0..<source.lines.lineCount).shuffled(using: &random) where line < source.lines.lineCount {
        source = formatted(line: line, of: source, fromTree: Bool.random(using: &random))
      }
      if source.bytes == before { break }
    }
    #expect(
      source.bytes == expected, "\(original.string.debugDescription) gives \(source.string.debugDescription)")
  }

  /// Generated documents: the tree's fast path and the formatting pass give the same edits for
  /// ranges of one to three lines.
  @Test(arguments: seeds.prefix(16)) func rangesOfGeneratedDocumentsFromTheTree(seed: UInt64) {
    let model = ModelLoader.defaultModel
    let source = SourceText(GeneratedOutline.untidy(seed: seed))
    let tree = OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree
    for first in 0..<source.lines.lineCount {
      for last in first..<min(first + 3, source.lines.lineCount) {
        let range = TextRange(
          start: source.lines.start(ofLine: first), end: source.lines.start(ofLine: last + 1))
        #expect(
          RangeFormatting.edits(formatting: range, in: source, model: model, tree: tree)
            == RangeFormatting.edits(formatting: range, in: source, model: model),
          "lines \(first)-\(last) of \(source.string.debugDescription)")
      }
    }
  }

  /// The declaration `fmt` writes replaces the one the document has (and a byte order mark);
  /// `<?xml-stylesheet?>` is a processing instruction, which keeps its line and gets its indentation.
  @Test func theDeclarationIsTheFormattersOwn() {
    for (text, expected) in [
      ("<outline/>", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline/>\n"),
      (
        "\u{FEFF}<?xml version='1.0'?>\r\n<outline/>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline/>\n"
      ),
      (
        "<?xml-stylesheet href=\"s\"?>\n\n<outline>\n\t<?pi x?></outline>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?xml-stylesheet href=\"s\"?>\n<outline>\n  <?pi x?>\n</outline>\n"
      ),
    ] {
      let source = SourceText(text)
      let all = TextRange(start: 0, end: source.bytes.count)
      let tree = OutlineValidator.validate(source).tree
      #expect(apply(RangeFormatting.edits(formatting: all, in: source, model: nil), to: source) == expected)
      #expect(
        apply(RangeFormatting.edits(formatting: all, in: source, model: nil, tree: tree), to: source)
          == expected)
    }
    // A range that leaves out the first line leaves the declaration alone, and puts the root
    // first when there is none.
    let source = SourceText("\n\n<outline>\n<Item/></outline>")
    let edits = RangeFormatting.edits(formatting: lineRange(2, 3, in: source), in: source, model: nil)
    #expect(apply(edits, to: source) == "<outline>\n  <Item/>\n</outline>\n")
  }

  /// The root's start tag changed as `fmt` changes it (recording the model version): the same
  /// line in the formatter's text, its layout and range formatting from either path.
  @Test func theRootEditedAsFmtEditsIt() {
    let source = SourceText("<outline   title=\"T\">\n<Item order=\"0\"/>\n</outline>\n")
    let edit: ([UInt8]) -> TextEdit? = { tag in
      TextEdit(range: TextRange(start: 8, end: 8), newText: " modelVersion=\"V 2\"")
    }
    var dropped: TextRange?
    let formatted = Formatter.format(source, model: nil, dropped: &dropped, editingRoot: edit)
    let expected =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline modelVersion=\"V 2\" title=\"T\">\n  <Item order=\"0\"/>\n</outline>\n"
    #expect(String(decoding: formatted, as: UTF8.self) == expected)
    let layout = Formatter.layout(source, model: nil, editingRoot: edit)
    #expect(layout.text == formatted)
    #expect(String(decoding: layout.text[layout.lines[1].text], as: UTF8.self) == "  <Item order=\"0\"/>")
    let all = TextRange(start: 0, end: source.bytes.count)
    let tree = OutlineValidator.validate(source).tree
    #expect(
      apply(RangeFormatting.edits(formatting: all, in: source, model: nil, editingRoot: edit), to: source)
        == expected)
    #expect(
      apply(
        RangeFormatting.edits(formatting: all, in: source, model: nil, tree: tree, editingRoot: edit),
        to: source)
        == expected)
  }
}
