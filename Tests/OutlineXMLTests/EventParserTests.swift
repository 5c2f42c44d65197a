import OutlineCore
import Testing

@testable import OutlineXML

@Suite struct EventParserTests {
  func events(_ xml: String) -> [String] {
    let bytes = Array(xml.utf8)
    let recorder = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: recorder)
    return recorder.lines
  }

  @Test func reportsExactRanges() {
    let lines = events(
      """
      <?xml version="1.0"?>
      <!-- top -->
      <outline a = 'x>y' b="&amp;é">
        <Item title="中文 😀"/>
        <Item title="b" ><!-- in
      side --></Item >
        text &amp; more <![CDATA[ cd ]]>
      </outline>
      """)
    #expect(
      lines == [
        "comment <!-- top --> content= top ",
        "start outline tag=<outline a = 'x>y' b=\"&amp;é\"> [a=x>y b=&amp;é]",
        "start Item tag=<Item title=\"中文 😀\"/> empty [title=中文 😀]",
        "end -",
        "start Item tag=<Item title=\"b\" > [title=b]",
        "comment <!-- in\nside --> content= in\nside ",
        "end </Item >",
        "text text &amp; more <![CDATA[ cd ]]>",
        "end </outline>",
      ])
  }
}

@Suite struct EventParserEdgeTests {
  func events(_ xml: String, chunkSize: Int = 1 << 20) -> [String] {
    let bytes = Array(xml.utf8)
    let recorder = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: recorder, chunkSize: chunkSize)
    return recorder.lines
  }

  static let sample = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <!-- é 中文 -->
      <Item title="a &lt; b" order="0" xml:id="x1">
        <Item
            title="multi
    line"
            order='1'/>
      </Item>
    </outline>

    """

  @Test(arguments: [1, 2, 3, 7, 64, 511, 512, 513])
  func chunkBoundariesDoNotMoveRanges(chunkSize: Int) {
    #expect(events(Self.sample, chunkSize: chunkSize) == events(Self.sample))
  }

  @Test func processingInstructionsHaveRanges() {
    #expect(
      events("<?xml version=\"1.0\"?>\n<?pi one?><outline><?x a < b?></outline>")
        == ["pi <?pi one?>", "start outline tag=<outline> []", "pi <?x a < b?>", "end </outline>"])
  }

  /// An instruction's data may hold `<?`: its range starts at its own `<?` (found forward from
  /// the markup before it), not at the last `<?` before its end; CDATA sections, the declaration
  /// and a byte order mark before it are passed over, at any chunk size.
  @Test(arguments: [1, 3, 4096])
  func anInstructionHoldingAnOpeningHasItsWholeRange(chunkSize: Int) {
    let xml =
      "\u{FEFF}<?xml version=\"1.0\"?><?pi x <?y?>\n<outline><Item><![CDATA[a<?b?>]]><?in <?q <? ?></Item>"
      + "<?z?></outline>"
    let instructions = events(xml, chunkSize: chunkSize).filter { $0.hasPrefix("pi ") }
    #expect(instructions == ["pi <?pi x <?y?>", "pi <?in <?q <? ?>", "pi <?z?>"], "\(instructions)")
  }

  @Test func syntaxErrorCarriesLibxml2MessageAndPosition() {
    let xml = "<outline>\n  <Item title=\"é\">\n  </Itm>\n</outline>\n"
    let lines = events(xml)
    let error = lines.first { $0.hasPrefix("error@") }
    #expect(error?.contains("Opening and ending tag mismatch") == true)
    // The reported offset is on line 3, where the bad end tag is.
    let offset = Int(error!.dropFirst(6).prefix { $0.isNumber })!
    let source = SourceText(xml)
    #expect(source.position(of: offset, unit: .utf8).line == 2)
  }

  @Test func doctypeStopsParsingBeforeAnythingIsDeclared() {
    let xml = """
      <?xml version="1.0"?>
      <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
      <outline><Item title="&lol2;"/></outline>
      """
    let lines = events(xml)
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("doctype <!DOCTYPE lolz") == true)
  }

  @Test func refusesOtherEncodings() {
    let lines = events("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><outline/>")
    #expect(lines == ["error@30 Unsupported encoding 'ISO-8859-1': outline files are UTF-8"])
    let utf16: [UInt8] = [0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00, 0x2F, 0x00, 0x3E, 0x00]
    let recorder = Recorder(utf16)
    XMLEventParser.parse(utf16, handler: recorder)
    #expect(recorder.lines.first?.contains("UTF-16") == true)
  }

  @Test func deepChainParsesWithoutLimit() {
    let depth = 100_000
    var xml = "<outline>"
    xml.reserveCapacity(depth * 20)
    for _ in 0..<depth { xml += "<Item order=\"0\">" }
    for _ in 0..<depth { xml += "</Item>" }
    xml += "</outline>"
    final class Counter: XMLEventHandler {
      var starts = 0
      var ends = 0
      var errors: [String] = []
      func startElement(_ tag: StartTag) { starts += 1 }
      func endElement(range: TextRange?) { ends += 1 }
      func comment(range: TextRange, content: ByteView) {}
      func text(range: TextRange) {}
      func doctype(range: TextRange) {}
      func syntaxError(message: String, range: TextRange, isFatal: Bool) { errors.append(message) }
    }
    let counter = Counter()
    XMLEventParser.parse(Array(xml.utf8), handler: counter)
    #expect(counter.errors == [])
    #expect(counter.starts == depth + 1)
    #expect(counter.ends == depth + 1)
  }
}

@Suite struct LargeFeedTests {
  /// One feed of more than libxml2's 10 MB look-ahead limit is split, not refused.
  @Test func aSingleHugeFeedParses() {
    var xml = Array("<outline>".utf8)
    let item = Array("<Item title=\"some title to make it long\" order=\"0\"/>\n".utf8)
    while xml.count < 12_000_000 { xml += item }
    xml += Array("</outline>".utf8)
    final class Errors: XMLEventHandler {
      var messages: [String] = []
      var elements = 0
      func startElement(_ tag: StartTag) { elements += 1 }
      func endElement(range: TextRange?) {}
      func comment(range: TextRange, content: ByteView) {}
      func text(range: TextRange) {}
      func doctype(range: TextRange) {}
      func syntaxError(message: String, range: TextRange, isFatal: Bool) { messages.append(message) }
    }
    let errors = Errors()
    let parser = XMLEventParser(handler: errors)
    xml.withUnsafeBufferPointer { parser.feed($0) }
    parser.finish()
    #expect(errors.messages == [])
    #expect(errors.elements > 200_000)
  }
}

/// The pipeline hands a handler on another thread exactly the events, with
/// exactly the ranges and bytes, that it would see directly.
@Suite struct EventPipelineTests {
  static func document(items: Int) -> String {
    var xml = "<?xml version=\"1.0\"?>\n<outline version=\"1\">\n<?keep this?>\n"
    for index in 0..<items {
      if index % 97 == 0 { xml += "<!-- comment \(index) é -->\n" }
      if index % 7 == 0 {
        xml +=
          "<Item title=\"p\(index) &amp; 中文\" order=\"\(index)\">\n<Item title='c' order='0'/>\n</Item>\n"
      } else {
        xml += "<Item xml:id=\"i\(index)\" title=\"t\(index)\" order=\"\(index)\"/>\n"
      }
    }
    return xml + "stray text\n</outline>\n<late/>"
  }

  @Test(arguments: [10, 5_000, 60_000])
  func pipelinedEventsEqualDirectOnes(items: Int) {
    let bytes = Array(Self.document(items: items).utf8)
    let direct = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: direct)
    let recorder = Recorder(bytes)
    let pipeline = XMLEventPipeline(handler: recorder)
    XMLEventParser.parse(bytes, handler: pipeline)
    pipeline.finish()
    #expect(recorder.lines.count == direct.lines.count)
    #expect(recorder.lines == direct.lines)
    #expect(direct.lines.contains { $0.hasPrefix("error@") })
    #expect(direct.lines.contains { $0.hasPrefix("comment") })
  }

  @Test func finishingWithoutEventsReturns() {
    let recorder = Recorder([])
    let pipeline = XMLEventPipeline(handler: recorder)
    pipeline.finish()
    #expect(recorder.lines.isEmpty)
  }
}

/// libxml2's tag-mismatch message loses the line number it counted at `\n` alone.
@Suite struct XMLErrorTextTests {
  @Test func theMismatchLosesItsLine() {
    #expect(
      XMLErrorText.withoutLine("Opening and ending tag mismatch: Item line 3 and Itm")?.message
        == "Opening and ending tag mismatch: Item and Itm")
    #expect(XMLErrorText.withoutLine("Opening and ending tag mismatch: a line x and b") == nil)
    #expect(
      XMLErrorText.withoutLine("Premature end of data in tag a line 2")?.message
        == "Premature end of data in tag a")
    #expect(XMLErrorText.withoutLine("Extra content at the end of the document") == nil)
  }
}

/// A document that ends while elements are open (a forgotten end tag, a file cut short) is said
/// to end so, at its end, naming the innermost open element, whatever libxml2's push parser calls
/// it ("Extra content at the end of the document" in 2.9); content after the root element closed
/// is extra content indeed.
@Suite struct UnclosedElementTests {
  /// The syntax errors of `xml`, parsed whole and fed a few bytes at a time.
  static func errors(_ xml: String) -> [String] {
    let bytes = Array(xml.utf8)
    let whole = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: whole)
    let fed = Recorder(bytes)
    let parser = XMLEventParser(handler: fed)
    var start = 0
    while start < bytes.count {
      let end = min(start + 3, bytes.count)
      bytes[start..<end].withUnsafeBufferPointer { parser.feed($0) }
      start = end
    }
    parser.finish()
    let errors = whole.lines.filter { $0.hasPrefix("error@") }
    #expect(fed.lines.filter { $0.hasPrefix("error@") } == errors)
    return errors
  }

  @Test(arguments: ["\n", "\r\n", "\r"])
  func aDocumentCutShortEndsWithItsElementsOpen(ending: String) {
    let xml = ["<outline>", "  <Item order=\"0\" title=\"a\">", "    <Item order=\"0\"/>", ""].joined(
      separator: ending)
    #expect(
      Self.errors(xml) == [
        "error@\(xml.utf8.count) The document ends while 2 elements are still open: the innermost, <Item>, has no end tag"
      ])
    // Cut in the middle of nested items, white space and all.
    let deeper = xml + "    <Item order=\"1\">" + ending + "      <Item order=\"0\">" + ending + "   "
    #expect(
      Self.errors(deeper) == [
        "error@\(deeper.utf8.count) The document ends while 4 elements are still open: the innermost, <Item>, has no end tag"
      ])
  }

  @Test func aForgottenRootEndTagNamesTheRoot() {
    #expect(
      Self.errors("<outline>\n  <Item order=\"0\"/>\n") == [
        "error@30 The document ends while <outline> is still open: its end tag is missing"
      ])
    // Inside an open element, an unfinished CDATA section or text: still the elements left open.
    #expect(
      Self.errors("<outline><Item><![CDATA[ x") == [
        "error@26 The document ends while 2 elements are still open: the innermost, <Item>, has no end tag"
      ])
  }

  @Test func contentAfterTheRootIsStillExtraContent() {
    #expect(Self.errors("<a/><b/>") == ["error@4 Extra content at the end of the document"])
    #expect(Self.errors("<a></a>junk") == ["error@7 Extra content at the end of the document"])
  }

  @Test func theMessageIsOneTheHandlersPointAtTheElementFor() {
    let one = XMLErrorText.unclosed(innermost: "outline", openCount: 1)
    #expect(one == "The document ends while <outline> is still open: its end tag is missing")
    #expect(XMLErrorText.withoutLine(one)?.message == one)
    #expect(XMLErrorText.withoutLine(one)?.note == "the element left open")
    let two = XMLErrorText.unclosed(innermost: "Item", openCount: 2)
    #expect(XMLErrorText.withoutLine(two)?.message == two)
  }
}
