import CLibXML2
import Foundation
import Testing

@testable import OutlineXML

/// What ``XMLEscaping`` writes, read back by an XML reader (libxml2's tree parser, as any other
/// program would read an exported file), is the value it was given: in an attribute value (where
/// XML normalizes a raw tab, line feed or carriage return to a space) and in text (where it reads
/// a raw carriage return, alone or before a line feed, as a line feed).
@Suite struct EscapingRoundTripTests {
  static let values = [
    "plain", "", "a\tb", "a\nb", "a\rb", "a\r\nb", "\r", "\r\n", "\n\r", "line\r\n\r\nend\r",
    "  lead and trail  ",
    "]]>", "a]]>b]]", "<tag>", "a & b", "&amp;", "&#13;", "\"double\" 'single'", "café 中 🚆", "\u{85}\u{2028}",
    "\t\n\r\r\n ]]> < > & \" ' é",
  ]

  /// The document libxml2 reads from `xml`: the root's attribute `v` and its text.
  static func read(_ xml: String) -> (attribute: String?, text: String?) {
    let bytes = Array(xml.utf8)
    guard
      let document = bytes.withUnsafeBufferPointer({
        $0.withMemoryRebound(to: CChar.self) {
          xmlReadMemory($0.baseAddress, Int32($0.count), nil, "UTF-8", Int32(XML_PARSE_NONET.rawValue))
        }
      })
    else { return (nil, nil) }
    defer { xmlFreeDoc(document) }
    let root = xmlDocGetRootElement(document)
    func take(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String? {
      guard let pointer else { return nil }
      defer { free(pointer) }  // libxml2 allocates with malloc unless told otherwise
      return String(cString: pointer)
    }
    return (take(xmlGetProp(root, "v")), take(xmlNodeGetContent(root)))
  }

  @Test(arguments: values)
  func anXMLReaderReadsBackWhatWasEscaped(_ value: String) {
    let xml = "<r v=\"\(XMLEscaping.escapeAttribute(value))\">\(XMLEscaping.escapeText(value))</r>"
    let read = Self.read(xml)
    #expect(read.attribute == value, "attribute: \(xml.debugDescription)")
    #expect(read.text == value, "text: \(xml.debugDescription)")
  }

  @Test func textKeepsTabAndLineFeedAndEscapesCarriageReturnAndEveryGreaterThan() {
    #expect(XMLEscaping.escapeText("a\tb\nc") == "a\tb\nc")
    #expect(XMLEscaping.escapeText("a\r\nb\rc") == "a&#13;\nb&#13;c")
    #expect(XMLEscaping.escapeText("x]]>y & <z>") == "x]]&gt;y &amp; &lt;z&gt;")
    #expect(XMLEscaping.escapeAttribute("a\tb\nc\r\nd") == "a&#9;b&#10;c&#13;&#10;d")
  }

  /// The decoder agrees: an escaped attribute decodes to its value, and escaped text decodes to
  /// it too (``XMLEscaping/decodeText(_:)`` keeps line ends as written, which escaped text holds
  /// only as `&#13;` and raw line feeds).
  @Test(arguments: values)
  func theDecoderReadsBackWhatWasEscaped(_ value: String) {
    #expect(XMLEscaping.decodeAttribute(Array(XMLEscaping.escapeAttribute(value).utf8)) == value)
    let text = Array(XMLEscaping.escapeText(value).utf8)
    #expect(!text.contains(0x0D))
    #expect(text.withUnsafeBufferPointer { XMLEscaping.decodeText($0) } == value)
  }
}
