import OutlineCore
import Testing

/// `SourceText.replace` edits the bytes and their line index in place; the
/// result equals the same bytes indexed afresh.
@Suite struct SourceTextEditTests {
  static func edited(_ text: String, _ start: Int, _ end: Int, _ replacement: String) -> SourceText {
    var source = SourceText(text)
    source.replace(TextRange(start: start, end: end), with: Array(replacement.utf8))
    return source
  }

  @Test func replacementsInsideALineAndAcrossLines() {
    // Inside one line: later lines move by the change in length.
    let typed = Self.edited("a\nbc\nd\n", 3, 3, "é")
    #expect(typed == SourceText("a\nbéc\nd\n"))
    #expect(typed.lines.start(ofLine: 2) == 7)
    // Newlines removed and added, CRLF kept with its line.
    #expect(Self.edited("a\r\nb\nc\n", 1, 4, "") == SourceText("a\nc\n"))
    #expect(Self.edited("a\r\nb\nc\n", 1, 5, "") == SourceText("ac\n"))
    #expect(Self.edited("a\nc", 1, 2, "\r\nb\n\n") == SourceText("a\r\nb\n\nc"))
    // At the very end and at the very start; a range past the end is clamped.
    #expect(Self.edited("ab", 2, 2, "\n") == SourceText("ab\n"))
    #expect(Self.edited("ab\n", 0, 0, "\n") == SourceText("\nab\n"))
    #expect(Self.edited("ab\n", 1, 99, "") == SourceText("a"))
    #expect(Self.edited("", 0, 0, "x\ny") == SourceText("x\ny"))
  }

  /// A line grown past the long-line stride gets its column checkpoints, and loses them when it shrinks.
  @Test func longLinesAreCountedAgainWhenTheyChange() {
    let long = String(repeating: "😀", count: 400)  // 1,600 bytes, 800 UTF-16 units
    let grown = Self.edited("a\nb\n", 2, 2, long)
    #expect(grown == SourceText("a\n\(long)b\n"))
    #expect(grown.position(of: 2 + 1_600, unit: .utf16) == SourcePosition(line: 1, column: 800))
    var shrunk = grown
    shrunk.replace(TextRange(start: 2, end: 2 + 1_600), with: [])
    #expect(shrunk == SourceText("a\nb\n"))
  }
}
