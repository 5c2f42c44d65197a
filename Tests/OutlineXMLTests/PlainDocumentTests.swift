import OutlineCore
import TestSupport
import Testing

@testable import OutlineXML

/// A plain document's events come from a scan of its bytes, not from libxml2
/// (``XMLEventParser/feedWhole(_:)``): they must be libxml2's, event for event,
/// and every document the scan does not take must go to libxml2 as before.
@Suite struct PlainDocumentTests {
  /// The events and errors of `bytes` fed whole, and whether the scan took it.
  static func wholeEvents(_ bytes: [UInt8]) -> (lines: [String], taken: Bool) {
    let recorder = Recorder(bytes)
    let parser = XMLEventParser(handler: recorder)
    bytes.withByteView { parser.feedWhole($0) }
    parser.finish()
    let taken = bytes.withUnsafeBufferPointer { PlainDocument.tags(of: $0) != nil }
    return (recorder.lines, taken)
  }

  /// The events and errors of `bytes` as libxml2's callbacks report them.
  static func libxml2Events(_ bytes: [UInt8]) -> [String] {
    let recorder = Recorder(bytes)
    let parser = XMLEventParser(handler: recorder)
    bytes.withByteView { parser.feed($0) }
    parser.finish()
    return recorder.lines
  }

  @Test func plainDocumentGivesLibxml2sEvents() {
    let document = Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <outline version="1" model="../m.xcdatamodeld">\r
        <Item title="Zürich &amp; 日本語 😀 &lt;x&gt; &quot;q&quot; &apos;" order="0"/>
        <Item xml:id="i1" title = 'it&apos;s "fine"' order="1" >
          <Item title="tab\there
      line" order="0"></Item >
        </Item>
      </outline>

      """.utf8)
    let (lines, taken) = Self.wholeEvents(document)
    #expect(taken)
    #expect(lines == Self.libxml2Events(document))
    #expect(lines.count == 8)
  }

  @Test(arguments: [
    "<a><!-- c --></a>", "<!DOCTYPE a><a/>", "<a>text</a>", "<a>&#32;</a>", "<a><?pi x?></a>",
    "<a><![CDATA[x]]></a>", "<a xmlns=\"u\"/>", "<a xmlns:p=\"u\" p:b=\"1\"/>", "<p:a/>",
    "<a xml:lang=\"en\"/>",
    "<é/>", "<a b=\"1\" b=\"2\"/>", "<a b=\"&#233;\"/>", "<a b=\"&foo;\"/>", "<a b=\"x<y\"/>",
    "<a b=\"1\"c=\"2\"/>",
    "<a></b>", "<a/><b/>", "<a/>x", "<a>", " <?xml version=\"1.0\"?><a/>", "<?xml version=\"1.1\"?><a/>",
    "\u{FEFF}<a/>", "<a b=\"\u{1}\"/>", "<a b=\"\u{FFFE}\"/>", "", "<a", "<a b=\"1/>",
  ])
  func otherDocumentsGoToLibxml2(_ text: String) {
    let document = Array(text.utf8)
    let (lines, taken) = Self.wholeEvents(document)
    #expect(!taken)
    #expect(lines == Self.libxml2Events(document))
  }

  @Test func nameBytesAreASCIINameCharacters() {
    for value in 0...255 {
      let letter = (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
      let other = (0x30...0x39).contains(value) || value == 0x2D || value == 0x2E
      #expect(PlainDocument.Scan.isNameStart(UInt8(value)) == letter, "\(value)")
      #expect(PlainDocument.Scan.isNameByte(UInt8(value)) == (letter || other), "\(value)")
    }
  }

  @Test func bytesThatAreNoXMLCharacterGoToLibxml2() {
    // A lone lead byte, a continuation byte, an overlong form, a surrogate, past U+10FFFF.
    for bad: [UInt8] in [[0xC3], [0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
      let document = Array("<a b=\"".utf8) + bad + Array("\"/>".utf8)
      let (lines, taken) = Self.wholeEvents(document)
      #expect(!taken)
      #expect(lines == Self.libxml2Events(document))
    }
  }

  /// Documents near the edge of the plain shape, and the same with a byte changed: fed
  /// whole, each gives libxml2's events and errors exactly.
  @Test func wholeDocumentsGiveLibxml2sEvents() throws {
    var taken = 0
    var refused = 0
    try Property.check("a document fed whole gives libxml2's events", cases: 400) { random, _ in
      var document = PlainDocumentGenerator.document(&random)
      if random.next() % 4 == 0 { PlainDocumentGenerator.mutate(&document, &random) }
      let (lines, wasTaken) = Self.wholeEvents(document)
      if wasTaken { taken += 1 } else { refused += 1 }
      let expected = Self.libxml2Events(document)
      guard lines == expected else {
        return
          "\(String(decoding: document, as: UTF8.self).debugDescription): \(lines) instead of \(expected)"
      }
      return nil
    }
    // Both sides of the edge are tried.
    #expect(taken * 5 > taken + refused)
    #expect(refused * 5 > taken + refused)
  }
}

/// Documents of elements, attributes and white space, with now and then what the plain
/// shape leaves to libxml2 (an error, a comment, a reference, a namespace).
enum PlainDocumentGenerator {
  static let declarations = [
    "", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "<?xml version=\"1.0\"?>", "<?xml version='1.0'?>",
    "<?xml version=\"1.1\"?>", " <?xml version=\"1.0\"?>", "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
  ]
  static let names = ["outline", "Item", "a", "_b", "x.y", "x-1", "A9", "p:a", "é", "1a", "xml", "xmlx"]
  static let attributeNames = [
    "title", "order", "done", "note", "xml:id", "xml:id", "xmlns", "xmlns:p", "xml:lang", "p:q", "xml:idx",
    "xmlfoo", "b-1", ".x",
  ]
  static let valuePieces: [[UInt8]] = [
    Array("plain words".utf8), Array("é".utf8), Array("中文".utf8), Array("😀".utf8), Array("&amp;".utf8),
    Array("&lt;".utf8), Array("&gt;".utf8), Array("&quot;".utf8), Array("&apos;".utf8), Array("&#38;".utf8),
    Array("&foo;".utf8), Array("&am".utf8), Array("&".utf8), Array("<".utf8), Array(">".utf8), [0x09], [0x0A],
    [0x0D], [0x01], [0x00], [0xFF], [0xC3], [0xC2, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE],
    [0xEF, 0xBF, 0xBD], [0xEE, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
    [0xE0, 0x80, 0x80],
    [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80], Array("'".utf8), Array("\"".utf8),
    Array("]]>".utf8), Array("x/y=z".utf8), Array("12345678901234567890".utf8),
  ]
  static let between = [
    "", "\n", "\n  ", " ", "\t", "\r\n", "x", "<!-- c -->", "&#32;", "<?p x?>", "<![CDATA[c]]>",
  ]

  static func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T {
    items[Int(random.next() % UInt64(items.count))]
  }

  /// Mostly one of the first `common` items, now and then any.
  static func pickMostly<T>(_ items: [T], common: Int, _ random: inout SeededGenerator) -> T {
    random.next() % 40 == 0 ? pick(items, &random) : items[Int(random.next() % UInt64(common))]
  }

  static func document(_ random: inout SeededGenerator) -> [UInt8] {
    var out = Array(pickMostly(declarations, common: 3, &random).utf8)
    out += Array(pickMostly(["\n", "", " "], common: 3, &random).utf8)
    // Open elements' names; an explicit stack.
    var open: [String] = []
    let elements = 1 + Int(random.next() % 12)
    for number in 0..<elements {
      let name = number == 0 ? pickMostly(names, common: 1, &random) : pickMostly(names, common: 6, &random)
      out += Array("<\(name)".utf8)
      // Mostly distinct names: the first few, shuffled.
      let common = ["title", "order", "done", "note", "xml:id"].shuffled(using: &random)
      for number in 0..<Int(random.next() % 4) {
        out += Array(pickMostly([" ", "\n    ", ""], common: 2, &random).utf8)
        out += Array((random.next() % 40 == 0 ? pick(attributeNames, &random) : common[number]).utf8)
        out += Array(pickMostly(["=", " = ", "\t=\n"], common: 1, &random).utf8)
        let quote = random.next() % 4 == 0 ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        out.append(quote)
        for _ in 0..<Int(random.next() % 5) { out += pickMostly(valuePieces, common: 9, &random) }
        if random.next() % 60 != 0 { out.append(quote) }
      }
      let empty = number == elements - 1 || (number > 0 && random.next() % 2 == 0)
      out += Array(
        (empty
          ? pickMostly(["/>", " />", "/ >"], common: 2, &random)
          : pickMostly([">", " >"], common: 2, &random)).utf8)
      if !empty { open.append(name) }
      // Close some of the open elements.
      while !open.isEmpty && random.next() % 3 == 0 {
        out += Array(pickMostly(between, common: 5, &random).utf8)
        let name = open.removeLast()
        out += Array(
          "</\(random.next() % 40 == 0 ? "zz" : name)\(pickMostly([">", " >", "\n>"], common: 1, &random))"
            .utf8)
      }
      if open.isEmpty && random.next() % 20 != 0 { break }
      out += Array(pickMostly(between, common: 5, &random).utf8)
    }
    while let name = open.popLast() {
      out += Array(pickMostly(between, common: 5, &random).utf8)
      out += Array("</\(name)>".utf8)
    }
    out += Array(pickMostly(["\n", "", "\n\n", " x", "<a/>", "<!-- c -->"], common: 3, &random).utf8)
    return out
  }

  /// Inserts, removes or replaces one byte.
  static func mutate(_ document: inout [UInt8], _ random: inout SeededGenerator) {
    let bytes: [UInt8] = Array("<>/=\"'&;: \nax".utf8) + [0x00, 0x80, 0xC3, 0xFF]
    let at = Int(random.next() % UInt64(document.count + 1))
    switch random.next() % 3 {
    case 0: document.insert(pick(bytes, &random), at: at)
    case 1 where at < document.count: document.remove(at: at)
    default: if at < document.count { document[at] = pick(bytes, &random) }
    }
  }
}
