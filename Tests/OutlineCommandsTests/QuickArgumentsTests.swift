import Foundation
import TestSupport
import Testing

@testable import OutlineCommands

/// The lint's common command lines, read without ArgumentParser: the same
/// settings, and everything else (help, errors) left to ArgumentParser.
@Suite struct QuickArgumentsTests {
  @Test func commonCommandLinesAreReadAsArgumentParserReadsThem() throws {
    let settings = try #require(
      LintSettings.parse([
        "--format", "json", "--jobs=3", "--quiet", "a.outline", "--model", "m.xcdatamodel", "-",
        "--max-size", "1M", "--color=never", "--", "--fix",
      ]))
    #expect(settings.format == .json)
    #expect(settings.jobs == 3)
    #expect(settings.quiet && !settings.fix && !settings.verbose && !settings.follow && !settings.statistics)
    #expect(settings.model == "m.xcdatamodel")
    #expect(settings.maxSize?.bytes == 1 << 20)
    #expect(settings.color == .never)
    #expect(settings.paths == ["a.outline", "-", "--fix"])
    let flags = try #require(LintSettings.parse(["--fix", "--follow", "--verbose", "--statistics", "x"]))
    #expect(flags.fix && flags.follow && flags.verbose && flags.statistics)
    let named = try #require(LintSettings.parse(["--diff", "--stdin-filename", "notes/a.outline"]))
    #expect(named.diff && named.stdinFilename == "notes/a.outline" && named.paths == ["-"])
    // No path: the current folder.
    #expect(LintSettings.parse([])?.paths == ["."])
    #expect(LintSettings.parse(["--quiet"])?.paths == ["."])
  }

  @Test(arguments: [
    ["--help"], ["-h"], ["--version"], ["--jobs", "0", "a"], ["--jobs", "two", "a"],
    ["--format", "xml", "a"],
    ["--jobs"], ["--model", "--quiet", "a"], ["--quiet", "--quiet", "a"], ["--quiet=yes", "a"],
    ["--unknown", "a"], ["-q", "a"], ["--fix", "-"], ["--statistics", "--format", "sarif", "a"],
    ["--model=", "a"], ["--generate-completion-script", "bash"],
  ])
  func everythingElseIsLeftToArgumentParser(_ arguments: [String]) {
    #expect(LintSettings.parse(arguments) == nil)
  }

  /// `--jobs` takes a whole number of at least 1; anything else is named in the one message.
  @Test func jobsProblemSaysWhatJobsTakes() {
    for value in ["1", "2", "256", "40000", "+3"] {
      #expect(LintSettings.jobsProblem(value) == nil, "\(value)")
    }
    for value in ["0", "-1", "abc", "2.5", "", " 2", "99999999999999999999"] {
      #expect(
        LintSettings.jobsProblem(value) == "--jobs must be a whole number of at least 1, not '\(value)'.")
    }
    #expect(LintSettings(jobs: 0).usageProblem == LintSettings.jobsProblem("0"))
    #expect(LintSettings(jobs: 1).usageProblem == nil)
  }

  /// The binaries: a quick command line and one ArgumentParser reads (an
  /// option given twice) print the same report; usage errors are ArgumentParser's.
  @Test func theBinariesAgreeWithArgumentParser() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "a/one.outline": "<outline version=\"1\"><Item order=\"0\"/><Item order=\"0\"/></outline>\n",
        "b/two.outline": "<outline version=\"1\"><Item order=\"0\" title=\"t\"/></outline>\n",
      ], in: folder)
    for tool in [("outline-lint", [String]()), ("outline", ["lint"])] {
      let quick = try CLI.run(tool.0, tool.1 + ["--format", "json", "--jobs", "2", "."], in: folder)
      let parsed = try CLI.run(
        tool.0, tool.1 + ["--format", "json", "--jobs", "2", "--format", "json", "."], in: folder)
      #expect(quick.status == 1)
      #expect(quick.stdout == parsed.stdout)
      #expect(quick.stdout.contains("OL401"))
      let usage = try CLI.run(tool.0, tool.1 + ["--jobs=0", "."], in: folder)
      #expect(usage.status == 2)
      #expect(usage.stderr.contains("--jobs must be a whole number of at least 1, not '0'."))
      #expect(usage.stderr.contains("Usage:"))
    }
  }
}
