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

  @Argument(help: "Files, folders or - for standard input (default: the current folder).")
  var paths: [String] = []

  init() {}

  /// What the options say, as plain values.
  var settings: LintSettings {
    LintSettings(
      model: model, format: format, config: configuration.config, isolated: configuration.isolated, fix: fix,
      diff: diff, quiet: quiet,
      statistics: statistics, color: color,
      jobs: jobs.flatMap { Int($0) },
      follow: follow, maxSize: maxSize, verbose: verbose, stdinFilename: stdinFilename,
      paths: paths.isEmpty ? StandardInput.defaultPaths(stdinFilename: stdinFilename) : paths)
  }

  func validate() throws {
    if let jobs, let problem = LintSettings.jobsProblem(jobs) { throw ValidationError(problem) }
    if let problem = settings.usageProblem { throw ValidationError(problem) }
  }

  func run() throws { try settings.run() }
}

/// A lint's settings as plain values: from ``LintOptions`` or, for the
/// common command lines, from ``LintSettings/parse(_:)`` without building
/// the argument parser's tables.
struct LintSettings: Sendable {
  var model: String?
  var format: OutputFormat = .text
  /// The configuration every document is given (`--config`), instead of the one found for it.
  var config: String?
  /// No configuration at all (`--isolated`).
  var isolated = false
  var fix = false
  /// What `--fix` would change is printed as a unified diff, and nothing is written.
  var diff = false
  var quiet = false
  var statistics = false
  var color: ColorChoice = .auto
  var jobs: Int?
  var follow = false
  var maxSize: InputSize?
  var verbose = false
  /// The path standard input stands for (`--stdin-filename`), as ruff's option of that name.
  var stdinFilename: String?
  var paths: [String] = []

  /// Why these settings cannot run (a usage error), or nil.
  var usageProblem: String? {
    if let jobs, jobs < 1 { return Self.jobsProblem(String(jobs)) }
    if fix && paths.contains("-") { return "--fix cannot rewrite standard input (--diff shows its fixes)." }
    if let problem = ConfigurationOptions.usageProblem(config: config, isolated: isolated) { return problem }
    if diff && (statistics || format != .text) {
      return "--diff prints the fixes as a diff, not \(statistics ? "statistics" : format.rawValue)."
    }
    if let problem = StandardInput.usageProblem(paths: paths, stdinFilename: stdinFilename) { return problem }
    if statistics && format != .text && format != .json {
      return "--statistics prints text or json, not \(format.rawValue)."
    }
    return nil
  }

  /// The usage error of `--jobs` given `value`, or nil when it is a whole number of at least 1.
  static func jobsProblem(_ value: String) -> String? {
    if let jobs = Int(value), jobs >= 1 { return nil }
    return "--jobs must be a whole number of at least 1, not \(Excerpt.quoted(value))."
  }

  /// Whether the paths name one file (standard input, or one path that is not a folder).
  var namesOneFile: Bool {
    guard paths.count == 1 else { return false }
    var info = stat()
    return paths[0] == "-" || (stat(paths[0], &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR)
  }

  func run() throws {
    let configurations = ConfigurationFinder(
      limit: maxSize?.bytes ?? InputFile.defaultLimit,
      choice: ConfigurationFinder.Choice(config, isolated: isolated))
    let models = ModelCache(limit: maxSize?.bytes ?? InputFile.defaultLimit)
    let histories = ModelHistoryCache(limit: models.limit)
    let modelOverride = model
    let fix = self.fix
    let diff = self.diff
    let maxSize = self.maxSize
    let stdinFilename = self.stdinFilename
    // One file needs no count of the cores (reading the cgroup's quota shows in a tiny file's lint).
    let jobs = self.jobs ?? (namesOneFile ? 1 : ProcessInfo.processInfo.activeProcessorCount)
    // Paths the collection could not take, said as they are met and listed where they stand.
    var collected: [PathTrouble] = []
    let trouble = { (found: PathTrouble) in
      Terminal.error(found.message)
      collected.append(found)
    }
    let files: [String]
    var results: [LintJob.Result]
    let progress: Progress
    if jobs > 1 && !fix && !diff && !Terminal.stderrIsTerminal {
      // No progress to show and nothing rewritten: files are linted while the folders are still searched.
      progress = Progress(total: 0, enabled: false)
      (files, results) = StreamingMap.mapInOrder(jobs: jobs) { emit in
        let found = FileCollector.collectWithOrder(
          paths, configurations: configurations, follow: follow, trouble: trouble, found: emit)
        return (found.files, found.reported)
      } _: { path in
        LintJob(
          path: path, modelOverride: modelOverride, fix: false, configurations: configurations,
          models: models,
          histories: histories, limit: configurations.inputLimit(for: path, maxSize: maxSize),
          stdinFilename: stdinFilename
        ).run()
      }
    } else {
      files = FileCollector.collect(
        paths, configurations: configurations, follow: follow, oncePerFile: fix, trouble: trouble)
      let wanted = Progress.wanted(for: files)
      progress = Progress(total: files.count, enabled: wanted.files || wanted.bytes)
      let showBytes: @Sendable (String, Int, Int) -> Void = { [progress] path, read, size in
        progress.bytes(path, read: read, size: size)
      }
      let onBytes = wanted.bytes ? showBytes : nil
      results = ParallelMap.map(files, jobs: jobs) { [progress] path in
        defer { if !wanted.bytes { progress.advance() } }
        return LintJob(
          path: path, modelOverride: modelOverride, fix: fix, configurations: configurations, models: models,
          histories: histories, limit: configurations.inputLimit(for: path, maxSize: maxSize),
          diff: diff, stdinFilename: stdinFilename, onBytes: onBytes
        ).run()
      }
    }
    progress.finish()

    var troubled = !collected.isEmpty
    var diffs = 0
    // JSON form files with order problems, which --fix does not rewrite (--diff).
    var unfixedJSON = 0
    var reports: [FileReport] = []
    reports.reserveCapacity(results.count)
    var configurationReports: [String: FileReport] = [:]
    // Every problem where it stands among the reports: those the collection met before the file
    // they come before, a file's own (it could not be read, or not be fixed) just before its report.
    var problems: [RunProblem] = []
    collected.sort { $0.position < $1.position }
    var nextCollected = 0
    func listCollected(before file: Int) {
      while nextCollected < collected.count && collected[nextCollected].position <= file {
        let found = collected[nextCollected]
        problems.append(
          RunProblem(
            path: found.path, message: found.message,
            bytes: found.bytes == Array(found.path.utf8) ? nil : found.bytes, position: reports.count))
        nextCollected += 1
      }
    }
    // Each result is moved out as it is read, its report into the run: ten thousand
    // results copied and freed twice cost the single core after the threads more than the rest.
    results.reverse()
    for (index, path) in files.enumerated() {
      listCollected(before: index)
      var result = results.removeLast()
      if let message = result.failure {
        Terminal.error(message)
        problems.append(
          RunProblem(
            path: path == "-" ? stdinFilename ?? "<stdin>" : path, message: message,
            checked: result.report != nil,
            position: reports.count))
        troubled = true
        // A file that could not be rewritten is still reported as it is.
        if result.report == nil { continue }
      }
      if let configuration = result.configuration, configurationReports[configuration.path] == nil {
        configurationReports[configuration.path] = FileReport(
          path: DisplayPath.of(configuration.path), source: configuration.source,
          diagnostics: configuration.diagnostics)
        troubled = true
      }
      if let report = result.report.take() {
        if result.modelTrouble { troubled = true }
        reports.append(report)
      }
      if !quiet, let note = result.fixNote { Terminal.write(note + "\n", to: 2) }
      if diff, result.fixNote != nil, result.diff == nil,
        DocumentCheck.isJSONForm(path == "-" ? stdinFilename ?? "" : path)
      {
        unfixedJSON += 1
      }
      if let text = result.diff {
        Terminal.write(text)
        diffs += 1
      }
    }
    if verbose {
      let versions = DocumentVersions(configurations: configurations, models: models, modelOverride: model)
      for path in files where path != "-" && !DocumentCheck.isJSONForm(path) {
        let limit = configurations.inputLimit(for: path, maxSize: maxSize)
        if let note = versions.note(for: path, limit: limit) { Terminal.write(note + "\n", to: 2) }
      }
    }
    listCollected(before: files.count)
    var all = reports
    reports = []
    all.insert(contentsOf: configurationReports.keys.sorted().map { configurationReports[$0]! }, at: 0)
    // The configurations' reports come first.
    for index in problems.indices { problems[index].position? += configurationReports.count }
    let run = LintRun(reports: all, problems: problems)
    if diff {
      // Only the diffs on standard output, as ruff's --diff; what could not be read is on standard
      // error, and so is a file that does not parse: --fix cannot touch it, and "nothing to fix"
      // alone would pass it as clean.
      let unparsed = all.compactMap { report -> FileReport? in
        var broken = report
        broken.diagnostics = report.diagnostics.filter { $0.code == .notWellFormed }
        return broken.diagnostics.isEmpty ? nil : broken
      }
      if !unparsed.isEmpty {
        Terminal.write(TextFormat.renderBytes(unparsed, style: .plain), to: 2)
      }
      if !quiet {
        let fixed = diffs == 0 ? "nothing to fix" : "\(counted(diffs, "file")) would be fixed"
        let refused =
          unparsed.isEmpty ? "" : "; \(counted(unparsed.count, "file")) cannot be fixed: not well-formed"
        let json =
          unfixedJSON == 0 ? "" : "; \(counted(unfixedJSON, "file")) cannot be fixed: in the JSON form"
        Terminal.write(fixed + refused + json + "\n", to: 2)
      }
      if troubled { throw ExitCode(2) }
      if diffs > 0 || !unparsed.isEmpty || unfixedJSON > 0 { throw ExitCode(1) }
      return
    }
    if statistics {
      Terminal.write(StatisticsFormat.render(run, json: format == .json, quiet: quiet))
    } else {
      Terminal.write(
        OutputFormat.render(format, run, quiet: quiet, style: TextStyle(color.enabled(descriptor: 1))))
    }
    if troubled { throw ExitCode(2) }
    if all.contains(where: { $0.count(.error) > 0 }) { throw ExitCode(1) }
  }
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

/// Lints (and with `--fix`, repairs) one file.
struct LintJob {
  let path: String
  let modelOverride: String?
  let fix: Bool
  let configurations: ConfigurationFinder
  let models: ModelCache
  /// Model versions, for OL108 (the server's check: `DocumentCheck.checkVersion`).
  let histories: ModelHistoryCache
  /// The largest input read.
  let limit: Int
  /// What `--fix` would change is returned as a unified diff instead of written.
  var diff = false
  /// The path standard input stands for, if one was given.
  var stdinFilename: String? = nil
  /// Hears how much of the file was read (path, bytes read, size), for progress.
  var onBytes: (@Sendable (String, Int, Int) -> Void)? = nil

  /// What a file's lint gives the run: its report, and what it rarely has (a
  /// configuration with errors, a failure, a note) boxed, so a run over ten
  /// thousand files holds and moves results of 88 bytes (with the whole
  /// configuration inline, the arrays of results cost a run with several jobs
  /// much of its memory traffic: Documentation/PerformanceHistory.md).
  struct Result: Sendable {
    var report: FileReport?
    /// A model named by `--model` or the configuration could not be read: trouble of the run.
    var modelTrouble = false
    private let rare: Rare?

    private final class Rare: Sendable {
      let configuration: Configuration?
      let failure: String?
      let fixNote: String?
      let diff: [UInt8]?
      init(configuration: Configuration?, failure: String?, fixNote: String?, diff: [UInt8]?) {
        self.configuration = configuration
        self.failure = failure
        self.fixNote = fixNote
        self.diff = diff
      }
    }

    /// `configuration` is kept only when it has diagnostics: the run reports those once, and reads nothing else of it.
    init(
      report: FileReport? = nil, configuration: Configuration? = nil, failure: String? = nil,
      fixNote: String? = nil, diff: [UInt8]? = nil, modelTrouble: Bool = false
    ) {
      self.report = report
      self.modelTrouble = modelTrouble
      let troubled = configuration.map { !$0.diagnostics.isEmpty } ?? false
      rare =
        troubled || failure != nil || fixNote != nil || diff != nil
        ? Rare(
          configuration: troubled ? configuration : nil, failure: failure, fixNote: fixNote, diff: diff) : nil
    }

    /// The file's configuration, when it has diagnostics.
    var configuration: Configuration? { rare?.configuration }
    var failure: String? { rare?.failure }
    var fixNote: String? { rare?.fixNote }
    /// What `--fix` would change, as a unified diff (`--diff`).
    var diff: [UInt8]? { rare?.diff }
  }

  func run() -> Result {
    let isStdin = path == "-"
    if !isStdin && (path == ".outline.json" || path.hasSuffix("/.outline.json")) { return runConfiguration() }
    if DocumentCheck.isJSONForm(isStdin ? stdinFilename ?? "" : path) { return runJSON() }
    if !isStdin && !fix && !diff {
      // A small file read whole, a large one validated as it streams by; read back only the lines reported.
      do {
        let (check, lines) = try DocumentCheck.file(
          path: path, modelOverride: modelOverride, configurations: configurations, models: models,
          // Every path here was found a regular file by FileCollector: no second stat before opening.
          histories: histories, limit: limit, checked: true,
          progress: onBytes.map { onBytes in { read, size in onBytes(path, read, size) } })
        return Result(
          report: report(check, lines), configuration: check.configuration,
          modelTrouble: check.namedModelIsUnreadable)
      } catch {
        return Result(failure: error.description)
      }
    }
    // Taken before reading: a write after it shows in the file's stamp, or in its bytes.
    let snapshot = isStdin ? nil : FileSnapshot.take(path)
    let bytes: [UInt8]
    do {
      bytes = try FileInput.read(path, limit: limit)
    } catch {
      return Result(failure: error.description)
    }
    var source = SourceText(bytes: bytes)
    var check = DocumentCheck.run(
      source, path: isStdin ? stdinFilename : path, modelOverride: modelOverride,
      configurations: configurations, models: models, buildTree: fix || diff)
    check.checkVersion(histories: histories, source: source)
    var note: String?
    if fix || diff, let configuration = check.configuration, !configuration.diagnostics.isEmpty {
      // Orders depend on the model, which a broken configuration may have chosen: write nothing.
      note = "not fixed \(path): its configuration \(DisplayPath.of(configuration.path)) has errors"
    } else if fix || diff, check.parsed, let tree = check.tree, let model = check.model {
      let edits = Renumbering.fixAll(tree: tree, source: source, model: model, reported: check.diagnostics)
      if diff {
        guard !edits.isEmpty, let fixed = TextEdit.apply(edits, to: bytes) else { return Result() }
        let name = isStdin ? stdinFilename ?? "<stdin>" : TextFormat.displayedPath(path)
        return Result(diff: LineDiff.unified(bytes, fixed, oldName: name, newName: name))
      }
      if !edits.isEmpty, let fixed = TextEdit.apply(edits, to: bytes) {
        do {
          try AtomicFile.write(fixed, to: path, unchangedSince: snapshot?.holding(bytes), activity: "fixed")
        } catch {
          // Not written: its problems are reported as they still are, beside the one message.
          return Result(
            report: report(check, source), configuration: check.configuration, failure: error.description)
        }
        source = SourceText(bytes: fixed)
        check = DocumentCheck.run(
          source, path: path, modelOverride: modelOverride, configurations: configurations, models: models,
          buildTree: false)
        check.checkVersion(histories: histories, source: source)
        let remaining = check.diagnostics.filter { $0.severity == .error }.count
        note =
          "fixed \(path): \(counted(edits.count, "order value")) renumbered, \(counted(remaining, "error")) \(remaining == 1 ? "remains" : "remain")"
      }
    }
    return Result(
      report: report(check, source), configuration: check.configuration, fixNote: note,
      modelTrouble: check.namedModelIsUnreadable)
  }

  /// A file in the JSON form: read as `outline convert` reads it, every problem at its JSON value.
  /// A `.outline.json` named on the command line is checked as the configuration it is (its
  /// problems are the run's, OC100, reported once with those of every file it covers), not read
  /// as an outline.
  private func runConfiguration() -> Result {
    let folder = PathText.folder(of: path)
    let configuration = configurations.configuration(for: (folder.isEmpty ? "." : folder) + "/-")
    // A configuration with problems is reported (and counted) once, as the run reports every
    // one; a clean one is a file checked with nothing to say.
    if let configuration, !configuration.diagnostics.isEmpty { return Result(configuration: configuration) }
    return Result(report: FileReport(path: path, source: SourceText(bytes: []), diagnostics: []))
  }

  private func runJSON() -> Result {
    let bytes: [UInt8]
    do {
      bytes = try FileInput.read(path, limit: limit)
    } catch {
      return Result(failure: error.description)
    }
    let buffer = ByteBuffer(copying: bytes)
    var check = DocumentCheck.runJSON(
      buffer, path: path == "-" ? stdinFilename : path, modelOverride: modelOverride,
      configurations: configurations, models: models)
    check.checkVersion(histories: histories, json: buffer)
    // `--fix` rewrites XML only: a JSON form file with order problems is said not to be fixed,
    // and `--diff` counts it among the files it cannot fix, not as "nothing to fix".
    var note: String?
    if fix || diff, check.diagnostics.contains(where: { Renumbering.fixableCodes.contains($0.code) }) {
      note =
        "not fixed \(path == "-" ? stdinFilename ?? "<stdin>" : path): --fix does not rewrite the JSON form; renumber its orders by hand"
    }
    return Result(
      report: report(check, SourceText(bytes: bytes)), configuration: check.configuration, fixNote: note,
      modelTrouble: check.namedModelIsUnreadable)
  }

  private func report(_ check: DocumentCheck, _ lines: any DocumentLines) -> FileReport {
    var report = FileReport(
      path: path == "-" ? stdinFilename ?? "<stdin>" : path, source: lines, diagnostics: check.diagnostics)
    // Only a diagnostic's related location reads the model's lines: a clean file's report makes no dictionary.
    if !check.diagnostics.isEmpty, let model = check.model, let modelPath = model.path {
      report.relatedSources[modelPath] = model.source
    }
    return report
  }
}
