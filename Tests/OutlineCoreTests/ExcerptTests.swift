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

  @Test func pathsAreQuotedWholeUpToTheirOwnLimit() {
    let path = String(repeating: "d/", count: 400)
    #expect(Excerpt.quotedPath(path) == "'" + path + "'")
    let long = String(repeating: "p", count: 5_000)
    #expect(Excerpt.quotedPath(long) == "'" + String(repeating: "p", count: 1024) + "...'")
    #expect(Excerpt.quotedPath("a\nb") == #"'a\nb'"#)
  }

  @Test func truncatedCutsWithoutEscaping() {
    #expect(Excerpt.truncated("a\nb") == "a\nb")
    #expect(Excerpt.truncated(String(repeating: "k", count: 61)) == String(repeating: "k", count: 60) + "...")
    #expect(Excerpt.truncated(String(repeating: "k", count: 60)) == String(repeating: "k", count: 60))
    #expect(Excerpt.truncated("éé", limit: 1) == "é...")
  }

  @Test func anotherProgramsMessageHasItsLongWordsCut() {
    let name = String(repeating: "z", count: 1_000_000)
    #expect(
      Excerpt.shorteningWords("Entity '\(name)' not defined")
        == "Entity '" + String(repeating: "z", count: 60) + "...' not defined")
    #expect(
      Excerpt.shorteningWords("Opening and ending tag mismatch: \(name) line 2 and b")
        == "Opening and ending tag mismatch: " + String(repeating: "z", count: 60) + "... line 2 and b")
    let short = "Attribute title redefined"
    #expect(Excerpt.shorteningWords(short) == short)
  }
}
