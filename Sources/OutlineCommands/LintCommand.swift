import ArgumentParser
import Foundation
import OutlineCore
import OutlineEditing
import OutlineFiles
import OutlineValidation
import OutlineWorkspace

/// `outline-lint`: the CI linter, a binary of its own.
public struct OutlineLintCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "outline-lint", abstract: LintOptions.abstract, discussion: LintOptions.discussion,
    version: ToolVersion.current)

  @OptionGroup var options: LintOptions

  public init() {}

  public func run() throws { try options.run() }
}

/// `outline lint`: the same linter as a subcommand.
public struct LintCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "lint", abstract: LintOptions.abstract, discussion: LintOptions.discussion)

  @OptionGroup var options: LintOptions

  public init() {}

  public func run() throws { try options.run() }
}

/// The options and the run of a lint, shared by `outline-lint` and `outline lint`.
struct LintOptions: ParsableArguments {
  static let abstract = "Validate .outline files against their Core Data model."
  static let discussion = """
    PATH is a file, a folder (searched for *.outline, honouring `exclude` in .outline.json) \
    or - for standard input; with no PATH, the current folder.

    Text output: path:line:col: severity[CODE]: message (1-based; columns count characters).

    Exit status:
      0  no errors (warnings and hints allowed)
      1  errors found
      2  usage, configuration or I/O trouble (a missing file, an unreadable model)
    """

  @Option(
    help: ArgumentHelp(
      "Validate against this model, whatever the files or configuration say.", valueName: "path"))
  var model: String?

  @Option(help: "Output format: text, json, sarif or github.")
  var format: OutputFormat = .text

  @OptionGroup var configuration: ConfigurationOptions

  @Flag(
    help:
      "Renumber broken sibling groups 0..n-1 in place, keeping the order their values give (atomic writes; unparsable files are never touched)."
  )
  var fix = false

  @Flag(
    help:
      "Change nothing; print what --fix would change as a unified diff (patch -p0 applies it) and exit 1 if it would change anything."
  )
  var diff = false

  @Flag(help: "Print only diagnostics: no summary, no fix notes.")
  var quiet = false

  @Flag(help: "Print how many times each code was reported (text or json) instead of the diagnostics.")
  var statistics = false

  @Option(help: "Color the text output: auto (only on a terminal, unless NO_COLOR is set), always or never.")
  var color: ColorChoice = .auto

  /// Text, not a number, and taken even when it starts with `-`: `--jobs -1` and `--jobs abc`
  /// get the one usage error that says what `--jobs` accepts (``LintSettings/jobsProblem(_:)``),
  /// not ArgumentParser's `Missing value` or `invalid` without the range.
  @Option(
    parsing: .unconditional, help: "Files linted in parallel: 1 or more (default: the number of cores).")
  var jobs: String?

  @Flag(
    help:
      "Follow symbolic links to folders (and to files outside a searched folder); each folder is searched once."
  )
  var follow = false

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  @Flag(help: "Also say which model version each file is for (recorded, or inferred when not).")
  var verbose = false

  @Option(
    help: ArgumentHelp(
      "The path standard input stands for: its configuration and model are found from it, and diagnostics name it (implies - when no PATH is given).",
      valueName: "path"))
  var stdinFilename: String?

  @Option(
    help: ArgumentHelp(
      "Keep the lint cache in this folder (default: OUTLINE_CACHE_DIR, else .outline-cache beside each .outline.json).",
      valueName: "dir"))
  var cacheDir: String?

  @Flag(help: "Use no lint cache: check every file, read and write no cache entry.")
  var noCache = false

  @OptionGroup var baselineOptions: BaselineOptions

  @Argument(help: "Files, folders or - for standard input (default: the current folder).")
  var paths: [String] = []

  init() {}

  /// What the options say, as plain values.
  var settings: LintSettings {
    var settings = LintSettings(
      model: model, format: format, config: configuration.config, isolated: configuration.isolated, fix: fix,
      diff: diff, quiet: quiet,
      statistics: statistics, color: color,
      jobs: jobs.flatMap { Int($0) },
      follow: follow, maxSize: maxSize, verbose: verbose, stdinFilename: stdinFilename,
      paths: paths.isEmpty ? StandardInput.defaultPaths(stdinFilename: stdinFilename) : paths)
    settings.cacheDir = cacheDir
    settings.noCache = noCache
    settings.baseline = baselineOptions.baseline
    settings.writeBaseline = baselineOptions.writeBaseline
    return settings
  }

  func validate() throws {
    if let jobs, let problem = LintSettings.jobsProblem(jobs) { throw ValidationError(problem) }
    if let problem = settings.usageProblem { throw ValidationError(problem) }
  }

  func run() throws { try settings.run() }
}

/// Standard input's place among the paths, the same for lint and fmt.
enum StandardInput {
  /// What is read when no path is given: the current folder, as ruff and taplo do; standard
  /// input when a name is given for it (`--stdin-filename`).
  static func defaultPaths(stdinFilename: String?) -> [String] { stdinFilename == nil ? ["."] : ["-"] }

  /// Why `paths` (as given; none for the default) and `--stdin-filename` cannot run, or nil.
  static func usageProblem(paths: [String], stdinFilename: String?) -> String? {
    // Standard input is read once: named again it would be an empty document.
    if paths.filter({ $0 == "-" }).count > 1 { return "Standard input (-) can be named once." }
    guard let stdinFilename else { return nil }
    if !paths.isEmpty && !paths.contains("-") {
      return "--stdin-filename names standard input, but - is not among the paths."
    }
    return stdinFilename.isEmpty ? "--stdin-filename needs a path." : nil
  }
}

/// `--config PATH` and `--isolated`: which configuration the documents get, shared by lint and fmt.
struct ConfigurationOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Use this configuration file for every document instead of the .outline.json found for it.",
      valueName: "path"))
  var config: String?

  @Flag(help: "Use no configuration file at all: the default model and every code at its own severity.")
  var isolated = false

  init() {}

  func validate() throws {
    if let problem = Self.usageProblem(config: config, isolated: isolated) { throw ValidationError(problem) }
  }

  /// Why `--config` and `--isolated` as given cannot run, or nil.
  static func usageProblem(config: String?, isolated: Bool) -> String? {
    config != nil && isolated ? "--config and --isolated cannot both be given." : nil
  }
}

extension ConfigurationFinder.Choice {
  /// The choice `--config PATH` or `--isolated` makes, or nil for neither (each document's own).
  init?(_ config: String?, isolated: Bool) {
    if let config {
      self = .file(config)
    } else if isolated {
      self = .isolated
    } else {
      return nil
    }
  }
}
