import OutlineCore
import OutlineXML
import Testing

@testable import OutlineMigration

/// The order census's tag scan finds the tags libxml2 finds in a well-formed document, however it is cut.
@Suite struct TagStreamTests {
  /// Start tags (name and attributes as `name=raw`) and ends, as one line each.
  final class Recorder: XMLEventHandler {
    var lines: [String] = []

    func startElement(_ tag: StartTag) {
      var line = "<\(XMLName.string(tag.name))@\(tag.offset)"
      for index in 0..<tag.attributes.count {
        line +=
          " \(XMLName.string(tag.name(of: index)))=\(String(decoding: tag.rawValue(of: index), as: UTF8.self))"
      }
      lines.append(line + (tag.isSelfClosing ? "/" : ""))
    }
    func endElement(range: TextRange?) { lines.append("end") }
    func comment(range: TextRange, content: ByteView) {}
    func text(range: TextRange) {}
    func doctype(range: TextRange) {}
    func syntaxError(message: String, range: TextRange, isFatal: Bool) {}
  }

  static let document = Array(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <?editor <not a tag> ?>
    <outline version="1" title='a > b "c"' note="?>">
      <!-- <Item order="9"/> --><!---->
      <Item order="0" title="x &amp; y"><![CDATA[ <Item order="8"/> ]]>
        <Item order = '0'
              title=">"/>
      </Item>
      <Tag name="é ünïcode"/>text &lt; more
    </outline>

    """.utf8)

  static func parsed() -> [String] {
    let recorder = Recorder()
    XMLEventParser.parse(document, handler: recorder)
    return recorder.lines
  }

  @Test func everyCutGivesTheParsersTags() {
    let expected = Self.parsed()
    #expect(expected.count == 8)
    for size in [1, 2, 3, 5, 7, 64, Self.document.count] {
      let recorder = Recorder()
      let stream = TagStream(handler: recorder)
      Self.document.withByteView { all in
        var start = 0
        while start < all.count {
          let end = min(all.count, start + size)
          stream.feed(all.extracting(start..<end))
          start = end
        }
      }
      #expect(recorder.lines == expected, "chunks of \(size)")
    }
  }

  @Test func aDoctypeStopsTheScan() {
    let recorder = Recorder()
    let stream = TagStream(handler: recorder)
    Array("<!DOCTYPE outline><outline><Item/></outline>".utf8).withByteView { stream.feed($0) }
    #expect(recorder.lines.isEmpty)
  }
}
