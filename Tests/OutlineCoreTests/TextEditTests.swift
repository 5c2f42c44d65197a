import OutlineCore
import Testing

/// `TextEdit.trimmed` keeps only what differs, with edges a client can hold: never inside a
/// UTF-8 sequence, never between a line end's `\r` and `\n`; `merged` joins touching edits.
@Suite struct TextEditTests {
  func trimmed(_ old: String, _ new: String) -> TextEdit? {
    let bytes = Array(old.utf8)
    return TextEdit.trimmed(TextRange(start: 0, end: bytes.count), of: bytes, to: Array(new.utf8))
  }

  @Test func onlyWhatDiffersIsReplaced() {
    #expect(trimmed("abc", "abc") == nil)
    #expect(trimmed("a  b", "a b") == TextEdit(range: TextRange(start: 2, end: 3), newText: ""))
    #expect(trimmed("ab", "axb") == TextEdit(range: TextRange(start: 1, end: 1), newText: "x"))
    // Inside a part of a text: offsets of the whole text.
    let bytes = Array("<a>\n    <b/>".utf8)
    #expect(
      TextEdit.trimmed(TextRange(start: 3, end: bytes.count), of: bytes, to: Array("\n  <b/>".utf8))
        == TextEdit(range: TextRange(start: 6, end: 8), newText: ""))
  }

  @Test func edgesNeverCutASequenceOrALineEnd() {
    // é and è share their first byte: the edit takes the whole character.
    #expect(trimmed("é", "è") == TextEdit(range: TextRange(start: 0, end: 2), newText: "è"))
    #expect(trimmed("😀a", "😃a") == TextEdit(range: TextRange(start: 0, end: 4), newText: "😃"))
    // CRLF to LF: the CR and the LF go together, never an edge between them.
    #expect(trimmed("a\r\nb", "a\nb") == TextEdit(range: TextRange(start: 1, end: 3), newText: "\n"))
    #expect(trimmed("a\r\n", "a\r\n  ") == TextEdit(range: TextRange(start: 3, end: 3), newText: "  "))
    #expect(trimmed("\r\n  x", "\nx") == TextEdit(range: TextRange(start: 0, end: 4), newText: "\n"))
    for (old, new) in [("a\r\nb\r\n", "a\nb\n"), ("x\r\n\r\ny", "x\ny"), ("\r\n", "\n"), ("é\r\né", "è\nè")] {
      let bytes = Array(old.utf8)
      let edit = TextEdit.trimmed(TextRange(start: 0, end: bytes.count), of: bytes, to: Array(new.utf8))!
      #expect(TextEdit.apply([edit], to: bytes) == Array(new.utf8))
      for edge in [edit.range.start, edit.range.end] where edge > 0 && edge < bytes.count {
        #expect(!(bytes[edge - 1] == 0x0D && bytes[edge] == 0x0A), "\(old.debugDescription): \(edit)")
        #expect(bytes[edge] & 0xC0 != 0x80)
      }
    }
  }

  @Test func touchingEditsAreOne() {
    let edits = TextEdit.merged([
      TextEdit(range: TextRange(start: 4, end: 6), newText: "b"),
      TextEdit(range: TextRange(start: 0, end: 0), newText: "x"),
      TextEdit(range: TextRange(start: 0, end: 2), newText: "a"),
      TextEdit(range: TextRange(start: 7, end: 8), newText: ""),
    ])
    #expect(
      edits == [
        TextEdit(range: TextRange(start: 0, end: 2), newText: "xa"),
        TextEdit(range: TextRange(start: 4, end: 6), newText: "b"),
        TextEdit(range: TextRange(start: 7, end: 8), newText: ""),
      ])
  }
}
