import ArgumentParser
import Foundation
import OutlineCore
import OutlineEditing
import OutlineValidation
import OutlineWorkspace

/// `outline-lint` and `outline lint`: the CI linter (SPEC §6).
public struct LintCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Validate .outline files against their Core Data model.",
    discussion: """
      PATH is a file, a folder (searched for *.outline, honouring `exclude` in .outline.json) \
      or - for standard input.

      Text output: path:line:col: severity[CODE]: message (1-based; columns count characters).

      Exit status:
        0  no errors (warnings and hints allowed)
        1  errors found
        2  usage, configuration or I/O trouble (a missing file, an unreadable model)
      """)

  @Option(
    help: ArgumentHelp(
      "Validate against this model, whatever the files or configuration say.", valueName: "path"))
  var model: String?

  @Option(help: "Output format: text, json, sarif or github.")
  var format: OutputFormat = .text

  @Flag(help: "Renumber broken sibling orders in place (atomic writes; unparsable files are never touched).")
  var fix = false

  @Flag(help: "Print only diagnostics: no summary, no fix notes.")
  var quiet = false

  @Option(help: "Files linted in parallel (default: the number of cores).")
  var jobs: Int?

  @Argument(help: "Files, folders or - for standard input.")
  var paths: [String] = []

  public init() {}

  public func validate() throws {
    if paths.isEmpty { throw ValidationError("Give at least one file or folder (or - for standard input).") }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    if fix && paths.contains("-") { throw ValidationError("--fix cannot rewrite standard input.") }
  }

  public func run() throws {
    let configurations = ConfigurationFinder()
    var troubled = false
    let files = FileCollector.collect(paths, configurations: configurations) { message in
      Terminal.error(message)
      troubled = true
    }
    let models = ModelCache()
    let progress = Progress(total: files.count, enabled: Terminal.stderrIsTerminal && files.count > 20)
    let modelOverride = model
    let fix = self.fix
    let results = ParallelMap.map(files, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount) {
      path in
      defer { progress.advance() }
      return LintJob(
        path: path, modelOverride: modelOverride, fix: fix, configurations: configurations, models: models
      ).run()
    }
    progress.finish()

    var reports: [FileReport] = []
    var configurationReports: [String: FileReport] = [:]
    for result in results {
      if let message = result.failure {
        Terminal.error(message)
        troubled = true
        // A file that could not be rewritten is still reported as it is.
        if result.report == nil { continue }
      }
      if let configuration = result.configuration, !configuration.diagnostics.isEmpty,
        configurationReports[configuration.path] == nil
      {
        configurationReports[configuration.path] = FileReport(
          path: configuration.path, source: configuration.source, diagnostics: configuration.diagnostics)
        troubled = true
      }
      if let report = result.report {
        if report.diagnostics.contains(where: { $0.code == .modelUnreadable }) { troubled = true }
        reports.append(report)
      }
      if !quiet, let note = result.fixNote { Terminal.write(note + "\n", to: 2) }
    }
    let all = configurationReports.keys.sorted().map { configurationReports[$0]! } + reports
    Terminal.write(OutputFormat.render(format, all, quiet: quiet))
    if troubled { throw ExitCode(2) }
    if all.contains(where: { $0.count(.error) > 0 }) { throw ExitCode(1) }
  }
}

/// Lints (and with `--fix`, repairs) one file.
struct LintJob {
  let path: String
  let modelOverride: String?
  let fix: Bool
  let configurations: ConfigurationFinder
  let models: ModelCache

  struct Result: Sendable {
    var report: FileReport?
    var configuration: Configuration?
    var failure: String?
    var fixNote: String?
  }

  func run() -> Result {
    let isStdin = path == "-"
    if !isStdin && !fix {
      // Validate as the file streams by; read back only the lines reported.
      do {
        let (check, lines) = try DocumentCheck.stream(
          path: path, modelOverride: modelOverride, configurations: configurations, models: models)
        return Result(report: report(check, lines), configuration: check.configuration)
      } catch {
        return Result(failure: error.description)
      }
    }
    // Taken before reading: a write after it shows in the file's stamp, or in its bytes.
    let snapshot = isStdin ? nil : FileSnapshot.take(path)
    guard let bytes = isStdin ? FileInput.readStandardInput() : FileInput.read(path) else {
      return Result(failure: "cannot read '\(path)'")
    }
    var source = SourceText(bytes: bytes)
    var check = DocumentCheck.run(
      source, path: isStdin ? nil : path, modelOverride: modelOverride, configurations: configurations,
      models: models, buildTree: fix)
    var note: String?
    if fix, check.parsed, let tree = check.tree, let model = check.model {
      let edits = Renumbering.fixAll(tree: tree, source: source, model: model)
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
        let remaining = check.diagnostics.filter { $0.severity == .error }.count
        note =
          "fixed \(path): \(edits.count) order value\(edits.count == 1 ? "" : "s") renumbered, \(remaining) error\(remaining == 1 ? "" : "s") remain"
      }
    }
    return Result(report: report(check, source), configuration: check.configuration, fixNote: note)
  }

  private func report(_ check: DocumentCheck, _ lines: any DocumentLines) -> FileReport {
    var report = FileReport(
      path: path == "-" ? "<stdin>" : path, source: lines, diagnostics: check.diagnostics)
    if let model = check.model, let modelPath = model.path { report.relatedSources[modelPath] = model.source }
    return report
  }
}
