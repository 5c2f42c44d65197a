import Foundation
import TestSupport
import Testing

/// Documentation/CLI.md keeps up with the binaries: every command reached by
/// walking `--help` from both binaries has a section headed with its name in
/// backticks (`## \`outline model check\``), and that section names every
/// `--option` the command's help lists.
@Suite struct CLIDocumentationTests {
  /// One command: a binary and the subcommand words after it.
  struct Command: CustomStringConvertible {
    var tool: String
    var words: [String]
    var description: String { ([tool] + words).joined(separator: " ") }
  }

  static let page = "Documentation/CLI.md"

  @Test func everyCommandAndOptionIsDocumented() throws {
    let text = try String(contentsOf: CLI.repository.appendingPathComponent(Self.page), encoding: .utf8)
    var pending = [Command(tool: "outline-lint", words: []), Command(tool: "outline", words: [])]
    var visited: [String] = []
    while let command = pending.popLast() {
      visited.append(command.description)
      let run = try CLI.run(command.tool, command.words + ["--help"])
      #expect(run.status == 0, "`\(command) --help` exited \(run.status): \(run.stderr)")
      let help = run.stdout
      for word in Self.subcommands(inHelp: help) {
        pending.append(Command(tool: command.tool, words: command.words + [word]))
      }
      let options = Self.options(inHelp: help)
      #expect(options.contains("--help"), "no options found in `\(command) --help`:\n\(help)")
      guard let section = Self.section(headed: "`\(command)`", in: text) else {
        Issue.record(
          "\(Self.page) has no section headed `\(command)`; add one (## `\(command)`) describing it and its options"
        )
        continue
      }
      // Every subcommand takes the root's --version; the root's section says it once.
      let own = command.words.isEmpty ? options : options.filter { $0 != "--version" }
      for option in Self.undocumented(own, in: section) {
        Issue.record(
          "\(Self.page): the section `\(command)` does not mention \(option), which `\(command) --help` lists; document it there"
        )
      }
    }
    // The walk reached the subcommands, so the checks above covered them.
    for known in ["outline lint", "outline fmt", "outline convert", "outline model check", "outline lsp"] {
      #expect(visited.contains(known), "the --help walk did not reach `\(known)`; visited: \(visited)")
    }
  }

  /// The parsing the test relies on, on help text shaped as swift-argument-parser prints it.
  @Test func findsSubcommandsOptionsAndTheGaps() {
    let help = """
      OVERVIEW: A tool.

      USAGE: tool fmt [--check] [--force] <paths> ...

      ARGUMENTS:
        <paths>                 Files, folders or - for standard input; a long
                                line that wraps --not-an-option.

      OPTIONS:
        --check                 Change nothing.
        -f, --force             Write even when
                                nothing changed.
        -h, --help              Show help information.

      SUBCOMMANDS:
        check (default)         Check things.
        graph                   Draw the model, with a description that wraps
                                onto a second line.

        See 'tool help <subcommand>' for detailed help.
      """
    #expect(Self.subcommands(inHelp: help) == ["check", "graph"])
    #expect(Self.options(inHelp: help) == ["--check", "--force", "--help"])
    let page = """
      # Tool

      ## `tool fmt`

      `--help` shows the help.

      ```
      # not a heading, so the section goes on
      ```

      ### Exit status

      With --check, 1 when a file would change.

      ## `tool fmt check`

      --force
      """
    let section = Self.section(headed: "`tool fmt`", in: page)
    #expect(section != nil)
    #expect(Self.undocumented(["--check", "--force", "--help"], in: section ?? "") == ["--force"])
    #expect(Self.section(headed: "`tool`", in: page) == nil)
    #expect(Self.undocumented(["--check"], in: "--checkered, `--check-all`") == ["--check"])
  }

  /// Subcommand names from the `SUBCOMMANDS:` section of a help text.
  static func subcommands(inHelp help: String) -> [String] {
    var names: [String] = []
    var inSection = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "SUBCOMMANDS:" {
        inSection = true
        continue
      }
      guard inSection else { continue }
      if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
      // An entry starts two spaces in; wrapped descriptions start further in.
      guard line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
      if let name = line.split(separator: " ").first { names.append(String(name)) }
    }
    return names
  }

  /// The `--long` names of the options a help text lists (in any `...OPTIONS:` section).
  static func options(inHelp help: String) -> [String] {
    var names: [String] = []
    var inOptions = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if !line.hasPrefix(" "), line.hasSuffix(":") {
        inOptions = line.hasSuffix("OPTIONS:")
        continue
      }
      guard inOptions, line.hasPrefix("  -") else { continue }
      // The names column ends where two spaces separate it from the description.
      let trimmed = line.dropFirst(2)
      let column = trimmed.range(of: "  ").map { trimmed[..<$0.lowerBound] } ?? trimmed
      for word in column.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("--") {
        names.append(String(word))
      }
    }
    return names
  }

  /// The text under the Markdown heading that contains `title`, up to the
  /// next heading of the same or a higher level (headings in code blocks do not count).
  static func section(headed title: String, in page: String) -> String? {
    var collected: [Substring] = []
    var level: Int?
    var inCode = false
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inCode.toggle() }
      let hashes = inCode ? 0 : line.prefix(while: { $0 == "#" }).count
      if hashes > 0 {
        if let open = level, hashes <= open { break }
        if level == nil {
          if line.contains(title) { level = hashes }
          continue
        }
      }
      if level != nil { collected.append(line) }
    }
    return level == nil ? nil : collected.joined(separator: "\n")
  }

  /// The options that `section` never names as a whole word.
  static func undocumented(_ options: [String], in section: String) -> [String] {
    options.filter { option in
      var searchStart = section.startIndex
      while let found = section.range(of: option, range: searchStart..<section.endIndex) {
        let next = section[found.upperBound...].first
        if next.map({ !($0.isLetter || $0.isNumber || $0 == "-") }) ?? true { return false }
        searchStart = found.upperBound
      }
      return true
    }
  }
}
