import Testing

@testable import OutlineCommands

/// The command a mistyped name most likely meant: a typo or two away, never any word.
@Suite struct CommandSuggestionTests {
  static let commands = [
    "lint", "fmt", "convert", "import", "export", "new", "render", "migrate", "model", "lsp", "explain",
    "help",
  ]

  @Test(arguments: [
    ("fmtt", "fmt"), ("covnert", "convert"), ("lnit", "lint"), ("FMT", "fmt"), ("mdoel", "model"),
    ("exlpain", "explain"), ("hlep", "help"), ("migarte", "migrate"), ("rendr", "render"),
  ])
  func typosFindTheirCommand(typed: String, meant: String) {
    #expect(CommandSuggestion.closest(to: typed, among: Self.commands) == meant)
  }

  @Test(arguments: ["nosuchcommand", "check", "x", "xyz", "format", "foo", "build", "", "completely"])
  func otherWordsFindNothing(typed: String) {
    #expect(CommandSuggestion.closest(to: typed, among: Self.commands) == nil)
  }

  @Test func editsCountOneEach() {
    func distance(_ a: String, _ b: String) -> Int {
      CommandSuggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }
    #expect(distance("check", "check") == 0)
    #expect(distance("chek", "check") == 1)  // a letter dropped
    #expect(distance("checks", "check") == 1)  // one added
    #expect(distance("chack", "check") == 1)  // one changed
    #expect(distance("cehck", "check") == 1)  // two neighbours swapped
    #expect(distance("", "lsp") == 3 && distance("lsp", "") == 3)
    #expect(distance("kitten", "sitting") == 3)
    #expect(CommandSuggestion.closest(to: "chek", among: ["check", "graph", "diff", "rename"]) == "check")
  }
}
