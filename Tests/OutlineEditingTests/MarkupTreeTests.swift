import OutlineCore
import OutlineSyntax
import Testing

@testable import OutlineEditing

@Suite struct MarkupTreeTests {
  func names(_ tree: MarkupTree, _ source: SourceText) -> [String] {
    tree.elements.map { source.string(in: $0.name) }
  }

  @Test func matchesEndTagsByNameAndLeavesTheUnclosedOpen() {
    let source = SourceText("<a><b><c></b><d/></a></x><e>")
    let tree = MarkupTree(source.bytes)
    #expect(names(tree, source) == ["a", "b", "c", "d", "e"])
    let (a, b, c, d, e) = (
      tree.elements[0], tree.elements[1], tree.elements[2], tree.elements[3], tree.elements[4]
    )
    #expect(a.endName.map { source.string(in: $0) } == "a")
    #expect(b.endName.map { source.string(in: $0) } == "b")
    #expect(c.endTag == nil)
    #expect(c.end == b.endTag!.start)
    #expect(c.parent == 1 && b.parent == 0 && d.parent == 0 && e.parent == -1)
    #expect(d.isSelfClosing && a.subtreeEnd == 4)
    // `</x>` matched nothing; `<e>` runs to the end of the text.
    #expect(e.endTag == nil && e.end == source.bytes.count)
  }

  @Test func commentsCDATAQuotesAndInstructionsHideTheirMarkup() {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE x [<!ENTITY a "<b>">]>
      <a t="x > y" u='</a>'><!-- <b> </a> --><![CDATA[ <c> </a> ]]><?pi <d>?></a>
      """
    let source = SourceText(text)
    let tree = MarkupTree(source.bytes)
    #expect(names(tree, source) == ["a"])
    #expect(tree.elements[0].endTag != nil)
    #expect(tree.others.count == 5)
  }

  @Test func hostileInputNeverTrapsAndStaysLinear() {
    let inputs = [
      "<", "</", "<a", "<a b", "<a b=", "<a b=\"", "<a b=\"x", "<!--", "<![CDATA[", "<?", "<!", "<a/", "</a",
      "<a b='x'/><", "<<<>>>", "<a\r\nb=\"é\u{1F600}\"\r\n>\r\n</a>", "\u{FEFF}<a>", "<a><!-- -- --></a",
    ]
    for input in inputs {
      let source = SourceText(input)
      let tree = MarkupTree(source.bytes)
      for element in tree.elements {
        #expect(element.startTag.end <= source.bytes.count && element.end <= source.bytes.count, "\(input)")
      }
      for offset in 0...source.bytes.count {
        _ = SelectionRanges.ranges(at: offset, in: source, tree: tree)
        _ = ClosingTagCompletion.candidate(at: offset, in: source, tree: tree)
        _ = LinkedTagNames.ranges(at: offset, in: tree)
      }
    }
    // 100,000 unclosed elements, then 100,000 stray end tags: one pass.
    let deep = SourceText(
      String(repeating: "<a>", count: 100_000) + String(repeating: "</b>", count: 100_000))
    let tree = MarkupTree(deep.bytes)
    #expect(tree.elements.count == 100_000 && tree.elements.last!.depth == 99_999)
    #expect(ClosingTagCompletion.candidate(at: deep.bytes.count, in: deep, tree: tree) == nil)
  }

  @Test func closingTagAfterLessThanSlash() throws {
    let (source, at) = EditorFixture.marked(
      """
      <outline>
        <Task title="a">
          <Task title="b"/>
          </1️⃣
      </outline>
      <Note></No2️⃣te>
      <Note> </Not3️⃣e>
      """)
    let first = try #require(ClosingTagCompletion.candidate(at: at[0], in: source))
    #expect(first.name == "Task" && first.newText == "</Task>")
    #expect(EditorFixture.text(first.range, source) == "</")
    // A partial name and its `>` are replaced too.
    let second = try #require(ClosingTagCompletion.candidate(at: at[1], in: source))
    #expect(second.name == "Note" && EditorFixture.text(second.range, source) == "</Note>")
    let third = try #require(ClosingTagCompletion.candidate(at: at[2], in: source))
    #expect(EditorFixture.text(third.range, source) == "</Note>")
    // Not after `</`: nothing.
    #expect(ClosingTagCompletion.candidate(at: 3, in: source) == nil)
  }

  @Test func closingTagWithNothingOpenIsNothing() {
    let (source, at) = EditorFixture.marked("</1️⃣<a b=\"c\"/></2️⃣<b></b></3️⃣")
    #expect(ClosingTagCompletion.candidate(at: at[0], in: source) == nil)
    #expect(ClosingTagCompletion.candidate(at: at[1], in: source) == nil)
    #expect(ClosingTagCompletion.candidate(at: at[2], in: source) == nil)
  }

  @Test func linkedEditingGivesBothNames() throws {
    let (source, at) = EditorFixture.marked("<outline><Ta1️⃣sk title=\"é\"><Note/></Task2️⃣></outline><x3️⃣>")
    let tree = MarkupTree(source.bytes)
    for offset in at.prefix(2) {
      let ranges = try #require(LinkedTagNames.ranges(at: offset, in: tree))
      #expect(ranges.map { EditorFixture.text($0, source) } == ["Task", "Task"])
      #expect(
        ranges[0].start == source.string.utf8.count
          - "Task title=\"é\"><Note/></Task></outline><x>".utf8.count)
    }
    // An element without an end tag links nothing; neither does an attribute.
    #expect(LinkedTagNames.ranges(at: at[2], in: tree) == nil)
    #expect(LinkedTagNames.ranges(at: at[0] + 7, in: tree) == nil)
  }

  @Test func selectionRangesGrowFromTheValueToTheDocument() throws {
    let (source, at) = EditorFixture.marked(
      """
      <outline>\r
        <Task title="a">\r
          <Task title="b1️⃣c" order="0"/>\r
          <!-- a 2️⃣comment -->\r
        </Ta3️⃣sk>\r
      </outline>\r

      """)
    let tree = MarkupTree(source.bytes)
    let ranges = SelectionRanges.ranges(at: at[0], in: source, tree: tree).map {
      EditorFixture.text($0, source)
    }
    #expect(
      ranges.prefix(5) == [
        "bc", "\"bc\"", "title=\"bc\"", "<Task title=\"bc\" order=\"0\"/>",
        "<Task title=\"a\">\r\n    <Task title=\"bc\" order=\"0\"/>\r\n    <!-- a comment -->\r\n  </Task>",
      ])
    #expect(ranges.count == 7)
    #expect(ranges.last == source.string)
    let comment = SelectionRanges.ranges(at: at[1], in: source, tree: tree).map {
      EditorFixture.text($0, source)
    }
    #expect(comment.first == "<!-- a comment -->")
    let end = SelectionRanges.ranges(at: at[2], in: source, tree: tree).map { EditorFixture.text($0, source) }
    #expect(end.prefix(2) == ["Task", "</Task>"])
    // Every range holds the one before it.
    for offset in 0...source.bytes.count {
      let chain = SelectionRanges.ranges(at: offset, in: source, tree: tree)
      for (inner, outer) in zip(chain, chain.dropFirst()) { #expect(outer.contains(inner) && outer != inner) }
      #expect(chain.first.map { $0.contains(offset) || $0.end == offset } ?? false)
    }
  }
}
