import OutlineCore
import OutlineMigration
import Testing

/// A removed element takes its indentation and the line end before it
/// along, whichever line end that is (`\n`, `\r\n`, a lone `\r`), so no
/// blank line is left; an element that shares its line keeps them.
@Suite struct EditStreamWideningTests {
  static func removing(_ element: String, from text: String) -> String {
    var bytes = Array(text.utf8)
    let start = bytes.indices.first { bytes[$0...].starts(with: Array(element.utf8)) }!
    let edit = TextEdit(range: TextRange(start: start, end: start + element.utf8.count), newText: "")
    let widened = bytes.withByteView { EditStream.widened(edit, in: $0, base: 0, notBefore: 0) }
    bytes.replaceSubrange(widened.range.start..<widened.range.end, with: [])
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test(arguments: ["\n", "\r\n", "\r"])
  func aRemovedLineTakesItsLineEnd(ending: String) {
    let text = ["<a>", "  <b/>", "  <c/>", "</a>", ""].joined(separator: ending)
    #expect(Self.removing("<b/>", from: text) == ["<a>", "  <c/>", "</a>", ""].joined(separator: ending))
  }

  @Test func anElementSharingItsLineKeepsThem() {
    #expect(Self.removing("<b/>", from: "<a>\r  x<b/>\r</a>") == "<a>\r  x\r</a>")
  }
}
