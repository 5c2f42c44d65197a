import Foundation
import TestSupport
import Testing

/// Every command line of known options, unknown options and names that
/// start with `-`, through the binaries: it runs, or it is a usage error
/// (exit 2, one `Error:` line naming the problem, then the usage); only a
/// standalone `-h` or `--help` before `--` prints the help (issue 32).
@Suite struct OptionsCLITests {
  /// A document lint reports (a duplicate order) and fmt would change (its indentation).
  static let broken =
    "<outline version=\"1\">\n<Item order=\"0\" title=\"a\"/>\n    <Item order=\"0\" title=\"b\"/></outline>\n"

  /// The files of a folder whose names start with `-` (and one that does not).
  static let files = ["plain.outline", "-h.outline", "-hello.outline", "-x-h.outline", "--h.outline"]

  static func folder() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(Dictionary(uniqueKeysWithValues: files.map { ($0, broken) }), in: folder)
    return folder
  }

  /// Whether `run` is a usage error: exit 2, nothing on standard output, and on
  /// standard error one line starting with `first`, then only the usage hint
  /// (`Usage: ...` and `  See '... --help' ...`, with `Help: ...` for an option's value).
  static func usageProblem(_ run: CLI.Output, _ first: String) -> String? {
    let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    guard run.status == 2, run.stdout.isEmpty, lines.count >= 3, lines.last == "" else {
      return "not a usage error: \(run)"
    }
    guard lines[0].hasPrefix("Error: " + first) else {
      return "first line is not '\(first)...': \(run.stderr)"
    }
    for line in lines.dropFirst().dropLast()
    where !(line.hasPrefix("Usage: ") || line.hasPrefix("  See '") || line.hasPrefix("Help: ")) {
      return "a line that is no hint: '\(line)' in \(run.stderr)"
    }
    return nil
  }

  /// Whether `run` printed the help.
  static func printedHelp(_ run: CLI.Output) -> Bool {
    run.stdout.contains("OVERVIEW:") || run.stdout.contains("USAGE:") || run.stderr.contains("OVERVIEW:")
  }

  /// The issue's two command lines: an argument with an `h` in it printed the help and exited 0.
  @Test func anArgumentWithAnHIsNoHelpRequest() throws {
    let folder = try Self.folder()
    let lint = try CLI.run("outline-lint", ["plain.outline", "-hello.outline"], in: folder)
    #expect(
      Self.usageProblem(
        lint,
        "Unknown option '-hello.outline'. A file whose name starts with '-' goes after '--' ('outline-lint -- -hello.outline')"
      ) == nil)
    let fmt = try CLI.run("outline", ["fmt", "--check", "-x-h.outline"], in: folder)
    #expect(
      Self.usageProblem(
        fmt,
        "Unknown option '-x-h.outline'. A file whose name starts with '-' goes after '--' ('outline fmt -- -x-h.outline')"
      ) == nil)
    // After `--`, the same names are files: linted, formatted.
    let linted = try CLI.run(
      "outline-lint", ["plain.outline", "--", "-hello.outline", "-h.outline"], in: folder)
    #expect(linted.status == 1, "\(linted)")
    for name in ["plain.outline", "-hello.outline", "-h.outline"] {
      #expect(
        linted.stdout.contains("\n\(name):3:18: error[OL401]") || linted.stdout.hasPrefix("\(name):3:18"),
        "\(linted)")
    }
    let checked = try CLI.run("outline", ["fmt", "--check", "--", "-x-h.outline", "-h.outline"], in: folder)
    #expect(checked.status == 1 && checked.stdout == "-x-h.outline\n-h.outline\n", "\(checked)")
    let formatted = try CLI.run("outline", ["fmt", "--", "-h.outline"], in: folder)
    #expect(formatted.status == 0, "\(formatted)")
    let written = try String(contentsOf: folder.appendingPathComponent("-h.outline"), encoding: .utf8)
    #expect(written != Self.broken && written.contains("\n  <Item order=\"0\" title=\"b\"/>"))
  }

  /// Every command of both binaries: an unknown option, however it is spelled, is
  /// a usage error naming it; a standalone `-h` prints the help; `-h` after `--` never does.
  @Test func unknownOptionsAreUsageErrorsOnEveryCommand() throws {
    let folder = try Self.folder()
    let paths = try CLIConventionTests.commandPaths()
    #expect(paths.contains(["model", "rename"]) && paths.contains(["lsp"]) && paths.contains(["new"]))
    let tools = [("outline-lint", [String]()), ("outline", [])] + paths.map { ("outline", $0) }
    for (tool, path) in tools {
      for (argument, named) in [
        ("-xh", "-xh"), ("-hello.outline", "-hello.outline"), ("-help", "-help"),
        ("--no-such-option", "--no-such-option"),
        ("--hx=1", "--hx"), ("-h.outline", "-h.outline"), ("-H", "-H"), ("-x", "-x"),
      ] {
        let run = try CLI.run(tool, path + [argument], in: folder)
        let problem = Self.usageProblem(run, "Unknown option '\(named)'")
        #expect(problem == nil, "\(tool) \(path) \(argument): \(problem ?? "")")
        #expect(run.stderr.contains("Usage: \(([tool] + path).joined(separator: " "))"), "\(run.stderr)")
      }
      let help = try CLI.run(tool, path + ["-h"], in: folder)
      #expect(help.status == 0 && Self.printedHelp(help), "\(tool) \(path) -h")
      let after = try CLI.run(tool, path + ["--", "-h"], in: folder)
      #expect(!Self.printedHelp(after) && after.status != 0, "\(tool) \(path) -- -h: \(after)")
    }
  }

  /// `outline help COMMAND` takes command names: an option it does not take is named whole.
  @Test func theHelpCommandNamesAnUnknownOptionWhole() throws {
    for arguments in [["help", "-hello.outline"], ["help", "lint", "-xh"], ["help", "--bogus=1"]] {
      let run = try CLI.run("outline", arguments)
      let named = arguments.last! == "--bogus=1" ? "--bogus" : arguments.last!
      #expect(Self.usageProblem(run, "Unknown option '\(named)'") == nil, "\(arguments): \(run)")
      #expect(run.stderr.hasPrefix("Error: Unknown option '\(named)'\n"), "\(run.stderr)")
      #expect(run.stderr.contains("Usage: outline help"))
    }
    let help = try CLI.run("outline", ["help", "lint"])
    #expect(help.status == 0 && help.stdout.contains("USAGE: outline lint"))
  }

  /// Values: one that starts with `-` is taken attached with `=` (and by `--jobs`,
  /// which takes whatever follows), or attached to `-o`; given apart, it is a missing value.
  @Test func valuesThatStartWithADash() throws {
    let folder = try Self.folder()
    let jobs = try CLI.run("outline-lint", ["--jobs", "-xh", "plain.outline"], in: folder)
    #expect(Self.usageProblem(jobs, "--jobs must be a whole number of at least 1, not '-xh'.") == nil)
    let jobsHelp = try CLI.run("outline", ["lint", "--jobs", "-h", "plain.outline"], in: folder)
    #expect(Self.usageProblem(jobsHelp, "--jobs must be a whole number of at least 1, not '-h'.") == nil)
    let jobsLongHelp = try CLI.run("outline-lint", ["--jobs", "--help", "plain.outline"], in: folder)
    #expect(
      Self.usageProblem(jobsLongHelp, "--jobs must be a whole number of at least 1, not '--help'.") == nil)
    let model = try CLI.run("outline-lint", ["--model", "-odd.xcdatamodel", "plain.outline"], in: folder)
    #expect(
      Self.usageProblem(
        model,
        "Missing value for '--model <path>'; a value that starts with '-' is written '--model=-odd.xcdatamodel'"
      ) == nil)
    let attached = try CLI.run("outline-lint", ["--model=-odd.xcdatamodel", "plain.outline"], in: folder)
    #expect(
      attached.status == 2 && attached.stdout.contains("model '-odd.xcdatamodel' does not exist"),
      "\(attached)")
    #expect(!Self.printedHelp(attached))
    // `-o` with its value attached, even one starting with `-h`; `-` is standard output.
    try CLI.write(["-ok.outline": "<outline version=\"1\"/>\n"], in: folder)
    let short = try CLI.run("outline", ["convert", "-o-h.json", "--", "-ok.outline"], in: folder)
    #expect(short.status == 0 && short.stdout.isEmpty, "\(short)")
    let json = try String(contentsOf: folder.appendingPathComponent("-h.json"), encoding: .utf8)
    #expect(json.contains("\"@outline\":1"), "\(json)")
    let apart = try CLI.run("outline", ["convert", "plain.outline", "-o", "-x.json"], in: folder)
    #expect(
      Self.usageProblem(
        apart, "Missing value for '-o <output>'; a value that starts with '-' is written '--output=-x.json'")
        == nil)
    let standard = try CLI.run(
      "outline", ["convert", "--to", "json", "-o", "-", "-"], in: folder, input: "<outline version=\"1\"/>\n")
    #expect(standard.status == 0 && standard.stdout.contains("\"@outline\":1"), "\(standard)")
    let new = try CLI.run("outline", ["new", "-o-new.outline"], in: folder)
    #expect(new.status == 0, "\(new)")
    let rendered = try CLI.run(
      "outline", ["render", "--html", "--output=-h.html", "--", "-new.outline"], in: folder)
    #expect(rendered.status == 0, "\(rendered)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("-h.html").path))
    // An unknown option ArgumentParser would have reported after a missing argument.
    let rename = try CLI.run("outline", ["model", "check", "--bogus"], in: folder)
    #expect(Self.usageProblem(rename, "Unknown option '--bogus'") == nil)
  }

  /// Standard input where a command reads it: `-`, before or after `--`.
  @Test func aDashAloneIsStandardInput() throws {
    let folder = try Self.folder()
    for arguments in [
      ["outline-lint", "-"], ["outline-lint", "--", "-"], ["outline", "lint", "--quiet", "-"],
    ] {
      let run = try CLI.run(arguments[0], Array(arguments.dropFirst()), in: folder, input: Self.broken)
      #expect(run.status == 1 && run.stdout.hasPrefix("<stdin>:3:18: error[OL401]"), "\(arguments): \(run)")
    }
    let fmt = try CLI.run("outline", ["fmt", "-"], in: folder, input: Self.broken)
    #expect(fmt.status == 0 && fmt.stdout.contains("\n  <Item order=\"0\" title=\"b\"/>"), "\(fmt)")
  }

  /// The property: ~200 generated command lines of `outline-lint`, `outline lint`
  /// and `outline fmt --check` mixing known options with valid values, unknown
  /// options, `--`, `-` and names starting with `-` (existing files and missing
  /// ones). Each either runs (every file named is linted or checked; a missing one
  /// is said and makes it exit 2) or is a usage error naming the first unknown
  /// option; the help only when `-h` or `--help` stands before `--`.
  @Test func everyCommandLineRunsOrIsAUsageError() throws {
    let folder = try Self.folder()
    try Property.check("command lines run or are usage errors", cases: 200) { random, _ in
      let line = GeneratedLine.generate(using: &random)
      let run = try CLI.run(line.tool, line.arguments, in: folder, input: Self.broken)
      return line.check(run)
    }
  }

  /// One generated command line and what it must do.
  struct GeneratedLine {
    var tool: String
    var arguments: [String]
    var asksHelp: Bool
    /// The first unknown option before `--`, as the error names it.
    var unknown: String?
    var isFmt: Bool
    var existing: [String]
    var missing: [String]
    var readsStandardInput: Bool

    static let unknownOptions = [
      ("--bogus", "--bogus"), ("--hello", "--hello"), ("-x", "-x"), ("-xh", "-xh"), ("-hello", "-hello"),
      ("-help", "-help"), ("-qh", "-qh"), ("-H", "-H"), ("--h.outline", "--h.outline"),
      ("--hx=1", "--hx"), ("-h.outline", "-h.outline"), ("-hello.outline", "-hello.outline"),
      ("-x-h.outline", "-x-h.outline"), ("-missing-h.outline", "-missing-h.outline"),
    ]

    static func generate(using random: inout SeededGenerator) -> GeneratedLine {
      let kind = Int.random(in: 0..<3, using: &random)
      let isFmt = kind == 2
      let tool = kind == 0 ? "outline-lint" : "outline"
      let command = kind == 0 ? [] : isFmt ? ["fmt", "--check"] : ["lint"]
      // Known options with valid values, each in one of its spellings.
      var known: [[String]] =
        isFmt
        ? [["--isolated"], ["--follow"], ["--max-size", "1M"], ["--max-size=1M"]]
        : [
          ["--format", "text"], ["--format=json"], ["--quiet"], ["--jobs", "2"], ["--jobs=1"],
          ["--color", "never"], ["--max-size=1M"], ["--isolated"], ["--follow"], ["--verbose"],
        ]
      known.shuffle(using: &random)
      var groups = Array(known.prefix(Int.random(in: 0...3, using: &random)))
      // Within one command line a flag or option appears once: drop a second spelling.
      var names: Set<String> = []
      groups = groups.filter { names.insert(String($0[0].split(separator: "=")[0])).inserted }
      var line = GeneratedLine(
        tool: tool, arguments: [], asksHelp: false, unknown: nil, isFmt: isFmt, existing: [], missing: [],
        readsStandardInput: false)
      if Int.random(in: 0..<3, using: &random) == 0 {
        let (spelled, named) = unknownOptions.randomElement(using: &random)!
        groups.append([spelled])
        line.unknown = named
      }
      if Int.random(in: 0..<12, using: &random) == 0 {
        groups.append([Bool.random(using: &random) ? "-h" : "--help"])
        line.asksHelp = true
      }
      if Bool.random(using: &random) {
        groups.append(["plain.outline"])
        line.existing.append("plain.outline")
      }
      if Int.random(in: 0..<4, using: &random) == 0 {
        groups.append(["missing.outline"])
        line.missing.append("missing.outline")
      }
      if Int.random(in: 0..<5, using: &random) == 0 {
        groups.append(["-"])
        line.readsStandardInput = true
      }
      groups.shuffle(using: &random)
      // The first unknown option in the order given.
      line.unknown =
        groups.lazy.compactMap { group in
          unknownOptions.first { $0.0 == group[0] }?.1
        }.first
      var after: [String] = []
      if Bool.random(using: &random) {
        var names = [
          "-h.outline", "-hello.outline", "-x-h.outline", "--h.outline", "-missing-h.outline", "-h", "--help",
        ]
        names.shuffle(using: &random)
        after = Array(names.prefix(Int.random(in: 0...3, using: &random)))
        if !line.readsStandardInput && Int.random(in: 0..<4, using: &random) == 0 {
          after.append("-")
          line.readsStandardInput = true
        }
        for name in after where name != "-" {
          if OptionsCLITests.files.contains(name) {
            line.existing.append(name)
          } else {
            line.missing.append(name)
          }
        }
      }
      line.arguments =
        command + groups.flatMap { $0 } + (after.isEmpty && Bool.random(using: &random) ? [] : ["--"] + after)
      return line
    }

    /// What is wrong with `run` for this command line, or nil.
    func check(_ run: CLI.Output) -> String? {
      let shown = "\(tool) \(arguments.joined(separator: " "))"
      if asksHelp {
        return run.status == 0 && OptionsCLITests.printedHelp(run) && run.stderr.isEmpty
          ? nil : "\(shown): no help: \(run)"
      }
      if OptionsCLITests.printedHelp(run) { return "\(shown): printed the help: \(run)" }
      if let unknown {
        return OptionsCLITests.usageProblem(run, "Unknown option '\(unknown)'").map { "\(shown): \($0)" }
      }
      let expected: Int32 = missing.isEmpty ? 1 : 2
      guard run.status == expected else { return "\(shown): exit \(run.status), not \(expected): \(run)" }
      for name in missing where !run.stderr.contains("'\(name)' does not exist") {
        return "\(shown): '\(name)' not said missing: \(run)"
      }
      let lines = run.stdout.split(separator: "\n").map(String.init)
      for name in existing + (readsStandardInput ? ["<stdin>"] : []) {
        let named =
          isFmt
          ? lines.contains(name)
          : lines.contains { $0.hasPrefix("\(name):3:18:") } || run.stdout.contains("\"path\" : \"\(name)\"")
            || run.stdout.contains("\"path\": \"\(name)\"")
        if !named { return "\(shown): '\(name)' not checked: \(run)" }
      }
      return nil
    }
  }

  /// A group of commands named without one (`outline`, `outline model`, as a CI line with an
  /// unset variable would) runs nothing: a usage error naming the commands, never help with
  /// exit 0; asked for, the help is still there.
  @Test func aGroupWithoutItsCommandIsAUsageError() throws {
    for words in [[], ["model"]] {
      let run = try CLI.run("outline", words)
      let name = (["outline"] + words).joined(separator: " ")
      #expect(Self.usageProblem(run, "'\(name)' needs a command: ") == nil, "\(name): \(run)")
      let help = try CLI.run("outline", words + ["--help"])
      #expect(help.status == 0 && help.stdout.contains("SUBCOMMANDS:"), "\(name) --help: \(help)")
    }
  }
}
