import Testing

@testable import OutlineCommands

/// The command line read as the command's own words before ArgumentParser
/// reads it: an argument is never searched for a help flag, unknown options
/// are named in one line, and `--` ends the options (issue 32).
@Suite struct OptionScanTests {
  /// A command with every kind of option: a flag, options with a value (one
  /// taking whatever follows), a short option with a long name, a short flag.
  static let scan = OptionScan(
    options: [
      .init(long: "fix", short: nil, takesValue: false, unconditional: false, valueName: nil),
      .init(long: "model", short: nil, takesValue: true, unconditional: false, valueName: "path"),
      .init(long: "jobs", short: nil, takesValue: true, unconditional: true, valueName: "jobs"),
      .init(long: "output", short: "o", takesValue: true, unconditional: false, valueName: "output"),
      .init(long: "quiet", short: "q", takesValue: false, unconditional: false, valueName: nil),
      .init(long: "help", short: "h", takesValue: false, unconditional: false, valueName: nil),
    ], commandName: "tool")

  @Test(arguments: [
    // Nothing to change.
    (
      ["a.outline", "--fix", "--model", "m", "-", "--model=-odd"],
      ["a.outline", "--fix", "--model", "m", "-", "--model=-odd"]
    ),
    (["--", "-h.outline", "-xh", "--bogus"], ["--", "-h.outline", "-xh", "--bogus"]),
    (["-o", "-", "-q"], ["-o", "-", "-q"]),
    // A value that starts with `-` is attached, so that it is never read as an option.
    (["--jobs", "-xh", "a"], ["--jobs=-xh", "a"]),
    (["--jobs", "-h"], ["--jobs=-h"]),
    (["--jobs", "--"], ["--jobs=--"]),
    (["--jobs", "--help"], ["--jobs=--help"]),
    // A short option's attached value, and clusters of short flags.
    (["-oout.json"], ["-o", "out.json"]),
    (["-o-h.json"], ["--output=-h.json"]),
    (["-oh"], ["-o", "h"]),
    (["-qq", "-qo", "x"], ["-q", "-q", "-q", "-o", "x"]),
    // A standalone -h or --help before `--` asks for the help: the line is ArgumentParser's.
    (["-xh", "-h"], ["-xh", "-h"]),
    (["--bogus", "--help"], ["--bogus", "--help"]),
  ])
  func argumentsHandedOn(_ arguments: [String], _ expected: [String]) {
    #expect(Self.scan.scan(arguments) == .arguments(expected))
  }

  @Test(arguments: [
    (
      ["a.outline", "-hello.outline"],
      "Unknown option '-hello.outline'. A file whose name starts with '-' goes after '--' ('tool -- -hello.outline') or is written './-hello.outline'"
    ),
    (
      ["-x-h.outline"],
      "Unknown option '-x-h.outline'. A file whose name starts with '-' goes after '--' ('tool -- -x-h.outline') or is written './-x-h.outline'"
    ),
    (["-xh"], "Unknown option '-xh'"),
    (["-hq"], "Unknown option '-hq'"),
    (["-qh"], "Unknown option '-qh'"),
    (["-help"], "Unknown option '-help'. Did you mean '--help'?"),
    (["-model", "m"], "Unknown option '-model'. Did you mean '--model'?"),
    (["--fxi"], "Unknown option '--fxi'. Did you mean '--fix'?"),
    (["--bogus=1", "-xh"], "Unknown option '--bogus'"),
    (["--fix", "-x", "--", "-y"], "Unknown option '-x'"),
    (
      ["--model", "-xh"],
      "Missing value for '--model <path>'; a value that starts with '-' is written '--model=-xh'"
    ),
    (["--model", "--fix"], "Missing value for '--model <path>'"),
    (["--model"], "Missing value for '--model <path>'"),
    (
      ["-o", "-x.json"],
      "Missing value for '-o <output>'; a value that starts with '-' is written '--output=-x.json'"
    ),
    (["a\nb", "-bad\nname"], "Unknown option '-bad\\nname'"),
  ])
  func problemsInOneLine(_ arguments: [String], _ problem: String) {
    #expect(Self.scan.scan(arguments) == .problem(problem))
  }

  /// Only a command line in which ArgumentParser could find a help flag that is
  /// not an argument of its own builds the command's description.
  @Test func scanIsNeededOnlyForClustersAndValuesThatMayBeHelp() {
    for arguments in [
      ["a", "-hello.outline"], ["-xh"], ["--jobs", "-h"], ["-ofile"], ["--fix", "-h"], ["--jobs", "--help"],
      ["--jobs", "--version"],
    ] {
      #expect(OptionScan.isNeeded(arguments), "\(arguments)")
    }
    for arguments in [
      [], ["a", "--fix", "-", "-o", "x"], ["-h"], ["--help"], ["--", "-hello.outline"], ["--model=x", "-h"],
    ] {
      #expect(!OptionScan.isNeeded(arguments), "\(arguments)")
    }
  }

  /// The options of a real command come from ArgumentParser's description of it.
  @Test func optionsOfARealCommand() throws {
    let lint = OptionScan(LintCommand.self, commandName: "outline lint")
    let jobs = try #require(lint.options.first { $0.long == "jobs" })
    #expect(jobs.takesValue && jobs.unconditional)
    let fix = try #require(lint.options.first { $0.long == "fix" })
    #expect(!fix.takesValue)
    #expect(lint.options.contains { $0.long == "help" && $0.short == "h" })
    #expect(lint.options.contains { $0.long == "version" })
    #expect(
      lint.scan(["--format", "json", "--jobs", "-2", "a", "-"])
        == .arguments(["--format", "json", "--jobs=-2", "a", "-"]))
    #expect(lint.scan(["-xh"]) == .problem("Unknown option '-xh'"))
    let convert = OptionScan(ConvertCommand.self, commandName: "outline convert")
    #expect(convert.scan(["a.outline", "-o-h.json"]) == .arguments(["a.outline", "--output=-h.json"]))
  }

  /// The quick readers never take an argument that starts with `-` for a path
  /// before `--`, and take every argument after it for one.
  @Test func quickReadersLeaveDashedArgumentsToTheScan() throws {
    for arguments in [["a", "-hello.outline"], ["-xh"], ["--jobs", "-xh"], ["-h"], ["--quiet", "-help"]] {
      #expect(LintSettings.parse(arguments) == nil, "\(arguments)")
      #expect(ConvertCommand.parse(arguments) == nil, "\(arguments)")
    }
    let after = try #require(LintSettings.parse(["--quiet", "--", "-h.outline", "--help", "-"]))
    #expect(after.paths == ["-h.outline", "--help", "-"])
    #expect(after.quiet)
  }
}
