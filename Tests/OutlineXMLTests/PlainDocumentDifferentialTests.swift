import OutlineCore
import TestSupport
import Testing

@testable import OutlineXML

/// Records every event with its byte offsets as numbers (``Recorder`` shows the bytes a range
/// covers, which two tags of the same spelling share), and every diagnostic with its range,
/// message and fatality.
final class OffsetRecorder: XMLEventHandler {
  var lines: [String] = []

  func startElement(_ tag: StartTag) {
    var attributes: [String] = []
    for index in 0..<tag.attributes.count {
      attributes.append("\(tag.nameRange(of: index))=\(tag.valueRange(of: index))")
    }
    lines.append(
      "start \(tag.range) name \(tag.nameRange)\(tag.isSelfClosing ? " empty" : "") [\(attributes.joined(separator: " "))]"
    )
  }
  func endElement(range: TextRange?) { lines.append("end \(range.map { "\($0)" } ?? "-")") }
  func comment(range: TextRange, content: ByteView) { lines.append("comment \(range) \(content.count)") }
  func text(range: TextRange) { lines.append("text \(range)") }
  func doctype(range: TextRange) { lines.append("doctype \(range)") }
  func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    lines.append("error \(range) \(isFatal ? "fatal" : "not fatal") \(message)")
  }
  func processingInstruction(range: TextRange) { lines.append("pi \(range)") }
  func markup(range: TextRange, bytes: ByteView) { lines.append("markup \(range) \(bytes.count)") }
}

/// Documents at and past the edge of the plain shape (``PlainDocument``), fed whole
/// (``XMLEventParser/feedWhole(_:)``) and fed to libxml2 (`feed`): the same events, offsets and
/// errors, whichever way the scan decides.
@Suite struct PlainDocumentDifferentialTests {
  /// The events of `bytes` fed whole, those of `bytes` fed to libxml2, and whether the scan took it.
  static func compare(_ bytes: [UInt8]) -> (whole: [String], libxml2: [String], taken: Bool) {
    let whole = OffsetRecorder()
    let wholeParser = XMLEventParser(handler: whole)
    bytes.withByteView { wholeParser.feedWhole($0) }
    wholeParser.finish()
    let fed = OffsetRecorder()
    let fedParser = XMLEventParser(handler: fed)
    bytes.withByteView { fedParser.feed($0) }
    fedParser.finish()
    let taken = bytes.withUnsafeBufferPointer { PlainDocument.tags(of: $0) != nil }
    return (whole.lines, fed.lines, taken)
  }

  /// What differs between the two ways of `bytes`, or nil.
  static func difference(_ bytes: [UInt8]) -> String? {
    let (whole, libxml2, taken) = compare(bytes)
    guard whole != libxml2 else { return nil }
    return "\(bytes) (taken: \(taken)): whole \(whole) libxml2 \(libxml2)"
  }

  /// Byte sequences that sit on the edge of what libxml2 takes or how it reports it.
  static let hazards: [[UInt8]] = [
    [0x09], [0x0A], [0x0D], [0x0D, 0x0A], [0x0A, 0x0D], [0x00], [0x01], [0x1F], [0x7F], [0x20],
    [0xC2, 0x80], [0xC2, 0x85], [0xC2, 0x9F], [0xC2, 0xA0], [0xC0, 0xBC], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF],
    [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xB7, 0x90],
    [0xEF, 0xBF, 0xBD], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xEF, 0xBB, 0xBF], [0xF0, 0x9F, 0xBF, 0xBE],
    [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
    [0xF8], [0xFE], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xBF],
    Array("&amp;".utf8), Array("&#38;".utf8), Array("&#x9;".utf8), Array("&#32;".utf8), Array("&lt".utf8),
    Array("&AMP;".utf8), Array(">".utf8), Array("<".utf8), Array("'".utf8), Array("\"".utf8),
    Array("/".utf8), Array("=".utf8), Array(":".utf8), Array(".".utf8), Array("-".utf8), Array("1".utf8),
    Array("xml".utf8), Array("xmlns".utf8), Array(" xml:id=\"a\"".utf8), Array(" a=\"1\"".utf8),
    Array("<!---->".utf8), Array("<?p?>".utf8), Array("]]>".utf8), Array("<b/>".utf8), Array("</b>".utf8),
    Array(" standalone=\"yes\"".utf8),
  ]

  /// Puts one hazard, or a byte, into `document` at a random place.
  static func mutate(_ document: inout [UInt8], _ random: inout SeededGenerator) {
    let at = Int(random.next() % UInt64(document.count + 1))
    let hazard = hazards[Int(random.next() % UInt64(hazards.count))]
    switch random.next() % 4 {
    case 0: document.insert(contentsOf: hazard, at: at)
    case 1 where at < document.count:
      document.replaceSubrange(at..<min(document.count, at + hazard.count), with: hazard)
    case 2 where at < document.count: document.remove(at: at)
    default: document.insert(contentsOf: hazard, at: min(at, document.count))
    }
  }

  @Test func mutatedPlainDocumentsGiveLibxml2sEvents() throws {
    var taken = 0
    var refused = 0
    try Property.check("a mutated document fed whole gives libxml2's events", cases: 600) { random, _ in
      var document = PlainDocumentGenerator.document(&random)
      for _ in 0..<Int(random.next() % 3) { Self.mutate(&document, &random) }
      if Self.compare(document).taken { taken += 1 } else { refused += 1 }
      return Self.difference(document)
    }
    // Both sides of the edge are tried.
    #expect(taken * 10 > taken + refused)
    #expect(refused * 10 > taken + refused)
  }

  /// Documents the scan takes, each with one hazard the scan must get right.
  @Test(arguments: [
    // Line ends and white space in values, between attributes, tags and after the root.
    "<a b=\"x\ty\"/>", "<a b=\"x\ny\"/>", "<a b=\"x\ry\"/>", "<a b=\"x\r\ny\"/>", "<a\rb=\"1\"\r/>",
    "<a>\r<b/>\r</a>\r", "<a>\r\n<b\r\n/>\r\n</a\r\n>\r\n", " \t\r\n<a/>\n\n", "<a b=\"\r\r\n\n\"/>",
    // Quotes and markup characters inside values.
    "<a b=\"'\" c='\"'/>", "<a b=\">\"/>", "<a b=\"a>b>c\"></a>", "<a b=\"&amp;&lt;&gt;&quot;&apos;\"/>",
    // Names.
    "<_/>", "<a.b-c_1/>", "<A/>", "<xml/>", "<xmlns/>", "<XMLNS a=\"1\"/>", "<a XML=\"1\"/>",
    "<a Xmlns=\"1\"/>",
    "<a _xml=\"1\"/>", "<a b=\"1\" b.c=\"2\" b-c=\"3\" bc=\"4\"/>",
    // xml:id and its neighbours.
    "<a xml:id=\"x\"/>", "<a xml:id=\"1 2\"/>", "<a id=\"1\" xml:id=\"1\"/>",
    // End tags, empty tags, spacing.
    "<a></a >", "<a></a\t>", "<a ></a>", "<a b = '1' />", "<a\n/>",
    // Declarations.
    "<?xml version=\"1.0\"?><a/>", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<a/>",
    "<?xml version=\"1.0\" encoding=\"utf-8\"?><a/>",
    // Characters beyond ASCII that XML 1.0 allows: C1 controls, noncharacters, the last plane.
    "<a b=\"\u{80}\u{85}\u{9F}\"/>", "<a b=\"\u{FFFD}\u{10FFFF}\"/>", "<a b=\"\u{D7FF}\u{E000}\"/>",
  ])
  func takenDocumentsGiveLibxml2sEvents(_ text: String) {
    let document = Array(text.utf8)
    let (whole, libxml2, taken) = Self.compare(document)
    #expect(taken)
    #expect(whole == libxml2)
  }

  /// Documents past the edge: whatever the scan decides, the events are libxml2's.
  @Test(arguments: [
    "", " ", "\n\r\t", "<", "<a", "<a/", "<a/ >", "< a/>", "<a></ a>", "</a>", "<a/><b/>", "<a/>x",
    "<a/>\u{0}",
    "\u{0}<a/>", "<a\u{0}/>", "<a b=\"\u{0}\"/>", "<a>\u{0}</a>", "<a b=\"1\"c=\"2\"/>", "<a b='1'c='2'/>",
    "<a b=\"1\"/c=\"2\"/>", "<a b=1/>", "<a b/>", "<a =\"1\"/>", "<1a/>", "<-a/>", "<.a/>", "<a 1b=\"1\"/>",
    "<a -b=\"1\"/>", "<a .b=\"1\"/>", "<a xml:id=\"1\" xml:id=\"2\"/>", "<a xml:id=\"1\"xml:id=\"2\"/>",
    "<a b=\"1\" b=\"1\"/>", "<a xmlns=\"u\"/>", "<a xmlns:x=\"u\"/>", "<a xml=\"1\"/>", "<a xmlid=\"1\"/>",
    "<a xml:ids=\"1\"/>", "<a xml:i=\"1\"/>", "<a xml:lang=\"en\"/>", "<a xml:space=\"bad\"/>",
    "<a xml:base=\"u\"/>", "<a xml:id:x=\"1\"/>", "<a:b/>", "<a b:c=\"1\"/>",
    "<?xml version=\"1.0\" standalone=\"yes\"?><a/>", "<?xml version='1.0'?><a/>",
    "<?xml version=\"1.0\" ?><a/>", "<?xml  version=\"1.0\"?><a/>", "<?xml version=\"1.0\"?>",
    "<?xml version=\"1.0\" encoding=\"US-ASCII\"?><a b=\"é\"/>",
    "<?xml version=\"1.0\" encoding=\"latin1\"?><a/>",
    "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><a/>", "\u{FEFF}<a/>",
    "\u{FEFF}<?xml version=\"1.0\"?><a/>",
    "<a b=\"\u{FFFE}\"/>", "<a b=\"\u{FFFF}\"/>", "<a b=\"&#0;\"/>", "<a b=\"&#x10FFFF;\"/>",
    "<a b=\"&#xD800;\"/>",
    "<a b=\"<\"/>", "<a b=\"&\"/>", "<a b=\"&amp\"/>", "<a></b>", "<a><b></a></b>", "<a></a></a>",
    "<a></a><!---->", "<a></a><?p?>", "<a></a>\u{0085}", "<a></a>\u{00A0}", "<a b=\"\u{1}\"/>",
    "<a b=\"\u{7F}\"/>",
  ])
  func edgeDocumentsGiveLibxml2sEvents(_ text: String) {
    #expect(Self.difference(Array(text.utf8)) == nil)
  }

  /// Noncharacters other than U+FFFE and U+FFFF are XML characters: U+FDD0 and U+1FFFE.
  @Test func noncharactersAreTaken() {
    let document = Array("<a b=\"".utf8) + [0xEF, 0xB7, 0x90, 0xF0, 0x9F, 0xBF, 0xBE] + Array("\"/>".utf8)
    let (whole, libxml2, taken) = Self.compare(document)
    #expect(taken)
    #expect(whole == libxml2)
  }

  /// Bytes that are no UTF-8, or no XML character, in a value, a name, between tags, after the
  /// root and cut short at the end of the document.
  @Test func malformedUTF8GivesLibxml2sEvents() {
    let bad: [[UInt8]] = [
      [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x20], [0xE0, 0x80, 0x80],
      [0xE0, 0x9F, 0xBF],
      [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xED, 0xB0, 0x80], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF],
      [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
      [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],
    ]
    for bytes in bad {
      let documents: [[UInt8]] = [
        Array("<a b=\"".utf8) + bytes + Array("\"/>".utf8), Array("<a b=\"x".utf8) + bytes,
        Array("<a".utf8) + bytes + Array("/>".utf8), Array("<a>".utf8) + bytes + Array("</a>".utf8),
        Array("<a/>".utf8) + bytes, Array("<a/>\n".utf8) + bytes, bytes + Array("<a/>".utf8),
        Array("<a b=\"".utf8) + bytes + Array("\" c=\"1\"/>".utf8),
      ]
      for document in documents { #expect(Self.difference(document) == nil) }
    }
  }

  /// A deep chain of plain elements, deeper than libxml2's default limit without
  /// `XML_PARSE_HUGE`, and one past a piece of the feed (1 MiB) with `>` in its values.
  @Test func deepAndLongDocumentsGiveLibxml2sEvents() {
    let depth = 3000
    let deep = Array((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8)
    let deepResult = Self.compare(deep)
    #expect(deepResult.taken)
    #expect(deepResult.whole == deepResult.libxml2)

    var long = Array("<outline>\n".utf8)
    var number = 0
    while long.count < (1 << 20) + 4096 {
      long += Array("  <Item title=\"a > b ' c\" note='x>\"y' order=\"\(number)\"></Item  >\r\n".utf8)
      number += 1
    }
    long +=
      Array("<Item title=\"".utf8) + Array(repeating: UInt8(ascii: ">"), count: 70_000) + Array("\"/>".utf8)
    long += Array("</outline>".utf8)
    let longResult = Self.compare(long)
    #expect(longResult.taken)
    #expect(longResult.whole == longResult.libxml2)

    // Long names and many attributes.
    let name = String(repeating: "n", count: 60_000)
    var many = "<\(name)"
    for index in 0..<500 { many += " a\(index)=\"\(index)\"" }
    many += "></\(name)>"
    let manyResult = Self.compare(Array(many.utf8))
    #expect(manyResult.taken)
    #expect(manyResult.whole == manyResult.libxml2)
  }
}
