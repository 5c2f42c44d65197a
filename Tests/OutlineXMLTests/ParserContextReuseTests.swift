import CLibXML2
import OutlineCore
import Testing

@testable import OutlineXML

/// A thread's parser context serves its next document (``ParserContextCache``):
/// every document parses as it does with a context of its own, whatever the
/// thread parsed before. Each test's parses run on one thread, one after the other.
@Suite struct ParserContextReuseTests {
  static let clean = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" xmlns:x="urn:x">
      <Item title="a &amp; b" order="0"><x:Item title="é"/></Item>
    </outline>

    """

  /// Documents that leave a parser in every kind of state, or need a fresh one's.
  static let documents: [String] = [
    clean,
    // Cut off inside an element whose namespace it declares.
    "<outline version=\"1\"><x:Item xmlns:x=\"urn:x\" title=\"a\"><Item title=\"b",
    // A prefix that this document does not declare (the one before did).
    "<outline version=\"1\"><x:Item title=\"a\"/></outline>\n",
    "<!DOCTYPE outline [<!ENTITY e \"expanded\">]>\n<outline version=\"1\"><Item title=\"&e;\"/></outline>\n",
    "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<outline version=\"1\"><Item title=\"caf\u{E9}\"/></outline>\n",
    "<outline version=\"1\"><Item title=\"a\"/></outline>\n<Item/>\n",
    "<outline version=\"1\"><Item title=\"\u{01}\"/></outline>\n",
    "",
    "   ",
    "<outline version=\"1\"><!-- c --><?pi x?><Item title=\"a\"><![CDATA[ x ]]></Item></outline>\n",
    "<outline version=\"1\">\(String(repeating: "<Item>", count: 400))\(String(repeating: "</Item>", count: 400))</outline>\n",
    "<outline version=\"1\"><Item title='a' title='b'/></outline>\n",
  ]

  func events(_ xml: String) -> [String] {
    let bytes = Array(xml.utf8)
    let recorder = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: recorder)
    return recorder.lines
  }

  /// The events of `xml` parsed with a context made for it.
  func freshEvents(_ xml: String) -> [String] {
    ParserContextCache.discard()
    return events(xml)
  }

  @Test func aCleanParseLeavesItsContextForTheNext() {
    ParserContextCache.discard()
    _ = events(Self.clean)
    #expect(ParserContextCache.threadKeepsOne)
    _ = events(Self.clean)
    #expect(ParserContextCache.threadKeepsOne)
  }

  @Test func failedStoppedAndLargeParsesFreeTheirs() {
    for xml in [Self.documents[1], Self.documents[3], Self.documents[10]] {
      _ = events(Self.clean)
      #expect(ParserContextCache.threadKeepsOne)
      _ = events(xml)
      #expect(!ParserContextCache.threadKeepsOne, "\(xml.prefix(40))")
    }
  }

  @Test func everyDocumentAfterAnyOtherParsesAsWithItsOwnContext() {
    let fresh = Self.documents.map(freshEvents)
    for (index, xml) in Self.documents.enumerated() {
      for before in Self.documents {
        // A clean parse, so the context `before` leaves (or a new one) is the one reused.
        _ = events(Self.clean)
        _ = events(before)
        #expect(events(xml) == fresh[index], "\(xml.prefix(40)) after \(before.prefix(40))")
      }
    }
  }

  /// The fields a parse changes that libxml2's reset leaves, beside those it resets.
  static func state(_ context: xmlParserCtxtPtr) -> [Int] {
    let c = context.pointee
    return [
      Int(c.progressive), Int(c.nsNr), Int(c.charset), Int(c.instate.rawValue), Int(c.options),
      Int(c.nameNr), Int(c.spaceNr), Int(c.inputNr), Int(c.wellFormed), Int(c.disableSAX), Int(c.errNo),
      Int(c.standalone), Int(c.checkIndex), Int(c.depth), Int(c.dictNames), Int(c.replaceEntities),
      Int(c.loadsubset), Int(c.validate), c.encoding == nil ? 0 : 1, c.version == nil ? 0 : 1,
      Int(c.space?.pointee ?? -9), c.spaceTab.map { Int($0.distance(to: c.space!)) } ?? -9,
      Int(c.input?.pointee.cur.distance(to: c.input!.pointee.end) ?? -1), Int(c.input?.pointee.line ?? -1),
      Int(c.input?.pointee.col ?? -1), Int(c.hasExternalSubset), Int(c.hasPErefs), Int(c.inSubset),
      Int(c.external), Int(c.html), Int(c.token), Int(c.recovery), Int(c.keepBlanks), Int(c.pedantic),
      Int(c.linenumbers), Int(c.nodeNr), Int(c.valid), Int(c.nsWellFormed), Int(c.record_info),
    ]
  }

  @Test func aResetContextIsInTheStateOfANewOne() throws {
    var sax = xmlSAXHandler()
    sax.initialized = UInt32(XML_SAX2_MAGIC)
    var marker = 0
    let fresh = try #require(xmlCreatePushParserCtxt(&sax, &marker, nil, 0, nil))
    defer { xmlFreeParserCtxt(fresh) }
    for xml in [Self.clean, "<outline version=\"1\"><x:Item xmlns:x=\"urn:x\">", "<!-- c --><?pi?><a/>"] {
      // A context that parsed `xml` (kept or not), reset as the cache resets a kept one.
      ParserContextCache.discard()
      let used = try #require(xmlCreatePushParserCtxt(&sax, &marker, nil, 0, nil))
      _ = xml.utf8CString.withUnsafeBufferPointer {
        xmlParseChunk(used, $0.baseAddress, Int32($0.count - 1), 0)
      }
      _ = xmlParseChunk(used, nil, 0, 1)
      ParserContextCache.keep(used)
      let reset = try #require(ParserContextCache.take(sax: &sax, userData: &marker))
      #expect(Self.state(reset) == Self.state(fresh), "\(xml)")
      #expect(reset.pointee.userData == fresh.pointee.userData)
      xmlFreeParserCtxt(reset)
    }
  }

  @Test func aDoctypeAfterACleanDocumentIsStillRefused() {
    _ = events(Self.clean)
    #expect(ParserContextCache.threadKeepsOne)
    let lines = events(Self.documents[3])
    #expect(lines.first?.hasPrefix("doctype <!DOCTYPE outline") == true, "\(lines)")
    // Nothing after it is read: no element, and the entity is never expanded.
    #expect(!lines.contains { $0.hasPrefix("start") || $0.contains("expanded") }, "\(lines)")
  }

  @Test func anUndeclaredPrefixAfterADocumentDeclaringItIsStillAnError() {
    _ = events(Self.clean)
    let lines = events(Self.documents[2])
    #expect(lines.contains { $0.hasPrefix("error@") && $0.contains("Namespace prefix x") }, "\(lines)")
  }
}
