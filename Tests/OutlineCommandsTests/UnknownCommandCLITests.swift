import Foundation
import TestSupport
import Testing

/// A word where a command belongs that names none is a usage error (exit 2, on standard
/// error), with the command a typo away when there is one, as cargo and ruff answer it;
/// `outline help` of a command that does not exist too.
@Suite struct UnknownCommandCLITests {
  @Test(arguments: [
    (["fmtt"], "Unknown command 'fmtt'. Did you mean 'fmt'?", "outline"),
    (["covnert", "a.outline"], "Unknown command 'covnert'. Did you mean 'convert'?", "outline"),
    (
      ["model", "chek", "m.xcdatamodel"], "Unknown command 'model chek'. Did you mean 'model check'?",
      "outline model"
    ),
    (["help", "fmtt"], "Unknown command 'fmtt'. Did you mean 'fmt'?", "outline"),
    (
      ["help", "model", "chek"], "Unknown command 'model chek'. Did you mean 'model check'?", "outline model"
    ),
    (["help", "nosuchcommand"], "Unknown command 'nosuchcommand'", "outline"),
    (["nosuchcommand"], "Unknown command 'nosuchcommand'", "outline"),
    (["model", "frobnicate"], "Unknown command 'model frobnicate'", "outline model"),
  ])
  func unknownCommandsAreUsageErrors(arguments: [String], error: String, command: String) throws {
    let run = try CLI.run("outline", arguments)
    #expect(run.status == 2, "\(arguments): \(run)")
    #expect(run.stdout.isEmpty, "\(arguments): \(run.stdout)")
    let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "Error: \(error)"[...], "\(arguments): \(run.stderr)")
    // Only a close name is suggested, never one for any word.
    #expect(error.contains("Did you mean") == run.stderr.contains("Did you mean"), "\(run.stderr)")
    #expect(run.stderr.contains("Usage: \(command) <subcommand>\n"), "\(run.stderr)")
    #expect(run.stderr.hasSuffix("  See '\(command) --help' for more information.\n"), "\(run.stderr)")
  }

  /// What was right stays so: `help` of a real command, a leaf's own arguments, and
  /// `outline-lint`, which has no commands (`help` there is a path).
  @Test func commandsThatExistAreUnchanged() throws {
    let help = try CLI.run("outline", ["help", "model", "check"])
    #expect(help.status == 0 && help.stdout.contains("USAGE: outline model check"), "\(help)")
    #expect(try CLI.run("outline", ["help"]).status == 0)
    #expect(try CLI.run("outline", ["help", "help"]).status == 0)
    let lint = try CLI.run("outline", ["lint", "fmtt"])
    #expect(lint.status == 2 && lint.stderr.hasPrefix("outline: 'fmtt' does not exist"), "\(lint)")
    let linter = try CLI.run("outline-lint", ["help"])
    #expect(linter.status == 2 && linter.stderr.hasPrefix("outline-lint: 'help' does not exist"), "\(linter)")
    // Past the last command, `help` knows no more words.
    let extra = try CLI.run("outline", ["help", "lint", "extra"])
    #expect(extra.status == 2 && extra.stderr.hasPrefix("Error: Unknown command 'lint extra'\n"), "\(extra)")
  }
}
