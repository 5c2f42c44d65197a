import OutlineCore
import Testing

@Suite struct MessageTextTests {
  @Test func plainTextIsKept() {
    let text = "Order 0 is used twice  among \"3\" children: é 中 🚆\tend"
    #expect(MessageText.singleLine(text) == text)
  }

  @Test func libxml2LinesBecomeOne() {
    #expect(
      MessageText.singleLine("Input is not proper UTF-8, indicate encoding !\nBytes: 0xFF 0x3C 0x2F 0x49\n")
        == "Input is not proper UTF-8, indicate encoding ! Bytes: 0xFF 0x3C 0x2F 0x49")
    #expect(MessageText.singleLine("a \r\n  b\r\rc\u{2028}d\u{85}e\u{0B}f\u{0C}") == "a b c d e f")
    #expect(MessageText.singleLine("  padded \n") == "padded")
  }

  @Test func controlCharactersAreEscaped() {
    #expect(
      MessageText.singleLine("tag \u{1B}[31mred\u{0}\u{7F}\u{9B}") == "tag \\u{1B}[31mred\\u{0}\\u{7F}\\u{9B}"
    )
  }

  @Test func resultIsAlwaysOneLine() {
    let pieces = ["a", "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}", " ", "\t", "\u{1}", "é", "\u{0B}"]
    var generator: UInt64 = 7
    for _ in 0..<500 {
      var text = ""
      for _ in 0..<12 {
        generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        text += pieces[Int(generator >> 33) % pieces.count]
      }
      let line = MessageText.singleLine(text)
      #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" })
      #expect(!line.unicodeScalars.contains { [0x85, 0x2028, 0x2029, 0x7F].contains($0.value) })
      #expect(line.first?.isWhitespace != true && line.last?.isWhitespace != true)
    }
  }
}
