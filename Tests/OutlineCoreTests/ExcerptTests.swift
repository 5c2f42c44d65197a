import OutlineCore
import Testing

@Suite struct ExcerptTests {
  @Test func shortTextIsQuotedAsItIs() {
    #expect(Excerpt.quoted("Tasks.xcdatamodel") == "'Tasks.xcdatamodel'")
    #expect(Excerpt.quoted("Jóga 🎵") == "'Jóga 🎵'")
  }

  @Test func controlCharactersAreEscaped() {
    #expect(
      Excerpt.quoted("a\nb\tc\r\u{1B}[31m\u{7F}\u{85}\u{2028}\\")
        == #"'a\nb\tc\r\u{1B}[31m\u{7F}\u{85}\u{2028}\\'"#)
  }

  @Test func longTextIsCutAfterTheLimit() {
    let long = String(repeating: "x", count: 10_000)
    #expect(Excerpt.quoted(long) == "'" + String(repeating: "x", count: 60) + "...'")
    #expect(Excerpt.escaped(String(repeating: "y", count: 60)) == String(repeating: "y", count: 60))
    #expect(Excerpt.escaped("abcdef", limit: 3) == "abc...")
  }
}
