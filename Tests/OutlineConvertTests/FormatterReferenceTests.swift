import OutlineCore
import OutlineModel
import OutlineXML
import Testing

@testable import OutlineConvert

/// A character reference to white space between tags (`&#32;`) is what the user wrote, not
/// layout: the formatter keeps it as written, on a line of its own, in whole and streamed
/// output alike, and formatting again changes nothing.
@Suite struct FormatterReferenceTests {
  static let source = Array(
    ("<outline><Item title=\"a\" order=\"0\">&#32;</Item>\n"
      + "<Item title=\"b\" order=\"1\">&#x20;&#10;<Item title=\"c\" order=\"0\"/>&#9;<!-- c -->&#xD;</Item>"
      + "&#0032;</outline>").utf8)

  static let expected = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline>
      <Item order="0" title="a">
        &#32;
      </Item>
      <Item order="1" title="b">
        &#x20;
        &#10;
        <Item order="0" title="c"/>
        &#9;
        <!-- c -->
        &#xD;
      </Item>
      &#0032;
    </outline>

    """

  @Test func referencesToWhiteSpaceAreKeptAsWritten() {
    let formatted = Formatter.format(SourceText(bytes: Self.source), model: ModelLoader.defaultModel)
    #expect(String(decoding: formatted, as: UTF8.self) == Self.expected)
    #expect(Formatter.format(SourceText(bytes: formatted), model: ModelLoader.defaultModel) == formatted)
  }

  @Test(arguments: [1, 2, 3, 7, 1 << 20])
  func streamedInAnyPiecesTheyAreKeptToo(piece: Int) {
    let streamed = FormatterStreamingTests.streamed(
      Self.source, piece: piece, model: ModelLoader.defaultModel)
    #expect(String(decoding: streamed.bytes, as: UTF8.self) == Self.expected)
    #expect(streamed.formatter.dropped == nil)
  }

  /// The line of a kept reference stands for the reference's own bytes.
  @Test func itsLineStandsForTheReference() throws {
    let text = Array("<outline>\n  <Item order=\"0\" title=\"a\">&#32;</Item>\n</outline>\n".utf8)
    let (formatted, lines) = Formatter.layout(SourceText(bytes: text), model: ModelLoader.defaultModel)
    let line = try #require(lines.first { formatted[$0.text].elementsEqual("    &#32;".utf8) })
    #expect(Array(text[line.source.start..<line.source.end]) == Array("&#32;".utf8))
  }

  /// Text next to a reference is still text: the formatter says so, and drops nothing unsaid.
  @Test func textBesideAReferenceIsStillDropped() {
    for text in [
      "<outline><Item title=\"a\">&#32;x</Item></outline>", "<outline><Item>x&#32;</Item></outline>",
    ] {
      var dropped: TextRange?
      _ = Formatter.format(SourceText(bytes: Array(text.utf8)), model: nil, dropped: &dropped)
      #expect(dropped != nil, "\(text)")
    }
  }
}
