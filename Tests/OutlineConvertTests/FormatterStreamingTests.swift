import OutlineCore
import OutlineModel
import OutlineXML
import Testing

@testable import OutlineConvert

/// The formatter fed a document in pieces, handing its output over in blocks, writes what it
/// writes for the whole document at once; comments and processing instructions stay as they are.
@Suite struct FormatterStreamingTests {
  /// The streamed formatter's output for `text` parsed in pieces of `piece` bytes.
  static func streamed(_ text: [UInt8], piece: Int, model: Model? = nil) -> (
    bytes: [UInt8], formatter: Formatter
  ) {
    var output: [UInt8] = []
    var blocks = 0
    let formatter = Formatter.streaming(model: { model }) { block in
      output.append(contentsOf: block)
      blocks += 1
    }
    XMLEventParser.parse(text, handler: formatter, chunkSize: piece)
    formatter.finish()
    #expect(blocks >= 1)
    return (output, formatter)
  }

  static let odd = Array(
    ("<?xml version=\"1.0\"?>\r\n<!-- lead -->\r\n<?pi data  here ?>\r\n<outline version=\"1\">\r\n"
      + "\t<Item order=\"007\" title=\"a &amp; b &#x41; 'q'\"   >\r\n\t\t<!-- multi\r\nline\r\n comment -->\r\n"
      + "\t\t<Item order=\"0\" title=\"x\"></Item>\r\n\t</Item>\r\n<?later  x?></outline>\r\n<!-- trailing -->")
      .utf8)

  @Test(arguments: [1, 5, 64, 1 << 20])
  func streamedOutputIsTheWholeDocumentsFormatting(piece: Int) {
    let many = Array(
      ("<outline version=\"1\">"
        + (0..<30_000).map { "<Item title=\"t \($0) &amp; &lt; &gt;\" order=\"\($0)\"/>" }.joined()
        + "</outline>").utf8)
    for text in [Self.odd, many] {
      let whole = Formatter.format(SourceText(bytes: text), model: ModelLoader.defaultModel)
      #expect(Self.streamed(text, piece: piece, model: ModelLoader.defaultModel).bytes == whole)
    }
  }

  /// Comments and processing instructions are copied as they stand but for their line ends,
  /// `\n` as XML reads them (`\r\n` and a lone `\r` alike): no `\r` is left, and formatting the
  /// result again changes nothing.
  @Test func commentsAndInstructionsAreCopiedWithTheirLineEndsAsXMLReadsThem() {
    let text = String(decoding: Self.streamed(Self.odd, piece: 3).bytes, as: UTF8.self)
    #expect(text.contains("\n    <!-- multi\nline\n comment -->\n"))
    #expect(!text.contains("\r"))
    let mixed = Array(
      "<outline version=\"1\">\r<!-- a\rb\r\nc\n\r\rd &amp;\t e -->\r\n<?pi x\r\ry\r\n?>\r</outline>\r".utf8)
    let once = Self.streamed(mixed, piece: 2).bytes
    #expect(
      String(decoding: once, as: UTF8.self)
        == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n  <!-- a\nb\nc\n\n\nd &amp;\t e -->\n  <?pi x\n\ny\n?>\n</outline>\n"
    )
    #expect(Self.streamed(once, piece: 2).bytes == once, "formatting twice changes nothing")
    #expect(text.contains("\n<?pi data  here ?>\n"))
    #expect(text.contains("\n  <?later  x?>\n"))
    #expect(text.hasSuffix("</outline>\n<!-- trailing -->\n"))
  }

  @Test func integerValuesAreWrittenCanonically() {
    let text = Array(
      "<outline version=\"1\"><Item order=\"007\" title=\"a\"/><Item order=\"-0\"/><Item order=\"12\"/><Item order=\" 3 \"/><Item order=\"x\"/></outline>"
        .utf8)
    let formatted = String(
      decoding: Formatter.format(SourceText(bytes: text), model: ModelLoader.defaultModel), as: UTF8.self)
    #expect(formatted.contains("<Item order=\"7\" title=\"a\"/>"))
    #expect(formatted.contains("<Item order=\"0\"/>"))
    #expect(formatted.contains("<Item order=\"12\"/>"))
    #expect(formatted.contains("<Item order=\" 3 \"/>"))
    #expect(formatted.contains("<Item order=\"x\"/>"))
  }

  @Test func theRootsOpeningCanBeWrittenAgainWithAnEdit() throws {
    let text = Array(
      "<!-- c --><outline model=\"M.xcdatamodeld\" version=\"1\" owner=\"me\"><Item order=\"0\"/></outline>"
        .utf8)
    let (bytes, formatter) = Self.streamed(text, piece: 7)
    let range = try #require(formatter.rootOpening)
    #expect(
      String(decoding: bytes[range], as: UTF8.self)
        == "<outline version=\"1\" model=\"M.xcdatamodeld\" owner=\"me\"")
    let root = try #require(formatter.rootStartTag)
    #expect(root == Array("<outline model=\"M.xcdatamodeld\" version=\"1\" owner=\"me\">".utf8))
    let at = root.count - " owner=\"me\">".utf8.count
    let opening = try #require(
      formatter.rootOpening(editedBy: TextEdit(range: TextRange(at: at), newText: " modelVersion=\"M 2\"")))
    #expect(
      String(decoding: opening, as: UTF8.self)
        == "<outline version=\"1\" model=\"M.xcdatamodeld\" modelVersion=\"M 2\" owner=\"me\"")
  }
}

/// What the layout leaves out is said: text inside an object and a DOCTYPE, so that no writer
/// puts the output in the document's place.
@Suite struct FormatterDroppedTests {
  @Test func textAndDoctypeAreSaidDropped() {
    var dropped: TextRange?
    _ = Formatter.format(
      SourceText("<outline version=\"1\"><Item order=\"0\">hi</Item></outline>"), model: nil,
      dropped: &dropped)
    #expect(dropped == TextRange(start: 37, end: 39))
    dropped = nil
    _ = Formatter.format(
      SourceText("<!DOCTYPE outline>\n<outline version=\"1\"/>"), model: nil, dropped: &dropped)
    #expect(dropped != nil)
    dropped = nil
    _ = Formatter.format(
      SourceText("<outline version=\"1\">\n  <Item order=\"0\"/>\n</outline>\n"), model: nil,
      dropped: &dropped)
    #expect(dropped == nil)
  }
}
