import OutlineCore
import Testing

@testable import OutlineXML

/// Text libxml2 hands over in a buffer of its own (references, character data
/// with non-ASCII bytes, in pieces of a few hundred bytes) still gets its exact
/// place in the input, whatever `&` came before it.
@Suite struct CopiedTextTests {
  func texts(_ xml: String, chunk: Int? = nil) -> [String] {
    let bytes = Array(xml.utf8)
    let recorder = Recorder(bytes)
    if let chunk {
      let parser = XMLEventParser(handler: recorder)
      var offset = 0
      while offset < bytes.count {
        let end = min(bytes.count, offset + chunk)
        bytes[offset..<end].withUnsafeBufferPointer { parser.feed($0) }
        offset = end
      }
      parser.finish()
    } else {
      XMLEventParser.parse(bytes, handler: recorder)
    }
    return recorder.lines.filter { $0.hasPrefix("text ") }
  }

  @Test(arguments: [nil, 1, 7, 4096] as [Int?])
  func nonASCIITextAfterAnEarlierReference(chunk: Int?) {
    let long = String(repeating: "é日本", count: 200)
    let xml = """
      <outline t="R&amp;D">
        <a t="x&#38;y"/>
        <b>café text</b>
        <c>a &amp; b</c>
        <d>&#233;t&#xE9;</d>
        <e>\(long)</e>
        <f>plain</f>
      </outline>
      """
    #expect(
      texts(xml, chunk: chunk) == [
        "text café text", "text a &amp; b", "text &#233;t&#xE9;", "text \(long)", "text plain",
      ])
  }

  @Test func textWithCarriageReturnsStaysInsideItsElement() {
    let xml = "<outline t=\"&amp;\">\r\n  <b>\r\n  über\r\n  zwei\r\n  </b>\r\n</outline>"
    let lines = texts(xml)
    #expect(lines == ["text über\r\n  zwei"])
    // Lone carriage returns too, which libxml2 hands over as line feeds.
    #expect(texts("<o t=\"&amp;\"><b>\r  ä\rb\r\r\nc\r</b></o>") == ["text ä\rb\r\r\nc"])
  }
}
