import OutlineCore
import Testing

@testable import OutlineXML

/// An undefined entity or a bad character reference is reported over the whole reference,
/// `&` to `;`, not just past the `;` where libxml2 stops: in an attribute value or in text,
/// however the document is cut into chunks.
@Suite struct ReferenceErrorRangeTests {
  /// The error's range and message for `xml` fed in chunks of `chunkSize` bytes.
  func error(_ xml: String, chunkSize: Int) -> (range: TextRange, text: String, message: String)? {
    let bytes = Array(xml.utf8)
    let recorder = Recorder(bytes)
    XMLEventParser.parse(bytes, handler: recorder, chunkSize: chunkSize)
    guard let range = recorder.errorRanges.first,
      let line = recorder.lines.first(where: { $0.hasPrefix("error@") })
    else { return nil }
    return (range, recorder.text(range), String(line.drop { $0 != " " }.dropFirst()))
  }

  static let references: [(xml: String, reference: String, message: String)] = [
    ("<outline><Item title=\"a&nbsp;b\"/></outline>", "&nbsp;", "Entity 'nbsp' not defined"),
    (
      "<outline><Item title=\"a&#xD800;b\"/></outline>", "&#xD800;",
      "xmlParseCharRef: invalid xmlChar value 55296"
    ),
    ("<outline><Item title=\"&#1;\"/></outline>", "&#1;", "xmlParseCharRef: invalid xmlChar value 1"),
    ("<outline>\n  <Item/>x&nbsp;</outline>", "&nbsp;", "Entity 'nbsp' not defined"),
    ("<outline>&#0;</outline>", "&#0;", "xmlParseCharRef: invalid xmlChar value 0"),
  ]

  @Test(arguments: [1, 2, 3, 7, 4096])
  func theWholeReferenceIsTheRange(chunkSize: Int) {
    for (xml, reference, message) in Self.references {
      let found = error(xml, chunkSize: chunkSize)
      #expect(found?.text == reference, "\(xml) in chunks of \(chunkSize): \(String(describing: found))")
      #expect(found?.message == message, "\(xml)")
      let start = Array(xml.utf8).firstIndex(of: UInt8(ascii: "&"))
      #expect(found?.range.start == start, "\(xml)")
    }
  }

  /// On a line of a megabyte the reference is found as fast (the scan back is bounded); a
  /// reference longer than the bound keeps libxml2's position, just past its `;`.
  @Test func longLinesAndLongNames() {
    let padding = String(repeating: "x", count: 1 << 20)
    let long = error("<outline><Item title=\"\(padding)&nbsp;\"/></outline>", chunkSize: 1 << 16)
    #expect(long?.text == "&nbsp;")
    let name = String(repeating: "n", count: XMLEventParser.referenceLimit)
    let xml = "<outline><Item title=\"&\(name);\"/></outline>"
    let past = error(xml, chunkSize: 4096)
    #expect(past?.range == TextRange(at: xml.utf8.count - "\"/></outline>".utf8.count))
  }
}
