import Foundation
import OutlineCore
import OutlineEditing
import OutlineFiles
import OutlineValidation
import OutlineWorkspace

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
  /// The run's lint cache (``LintCaching``), if it uses one.
  var cache: CheckCache? = nil
  /// Whether `--config` or `--isolated` chose the configuration (no project cache folder then).
  var chosenConfiguration = false
  /// Name the item each diagnostic is on (``FileReport/itemNames``), for fingerprints.
  var itemNames = false

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
    let json = DocumentCheck.isJSONForm(isStdin ? stdinFilename ?? "" : path)
    if let cache, !isStdin, !fix, !diff,
      let result = cachedRun(cache, json: json, chosenConfiguration: chosenConfiguration)
    {
      return result
    }
    if json { return runJSON() }
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

  func report(_ check: DocumentCheck, _ lines: any DocumentLines) -> FileReport {
    var report = FileReport(
      path: path == "-" ? stdinFilename ?? "<stdin>" : path, source: lines, diagnostics: check.diagnostics)
    // Only a diagnostic's related location reads the model's lines: a clean file's report makes no dictionary.
    if !check.diagnostics.isEmpty, let model = check.model, let modelPath = model.path {
      report.relatedSources[modelPath] = model.source
    }
    if itemNames || check.configuration?.baseline != nil {
      report.itemNames = Self.itemNames(report, check, lines, path: path, limit: limit)
    }
    return report
  }

  /// The items `report`'s diagnostics are on, read from the file's bytes (read again when the
  /// check streamed them): none is needed for a clean file, and in the JSON form each problem's
  /// message names its place.
  static func itemNames(
    _ report: FileReport, _ check: DocumentCheck, _ lines: any DocumentLines, path: String, limit: Int
  ) -> [String] {
    if report.diagnostics.isEmpty { return [] }
    if check.isJSONForm { return report.diagnostics.map { _ in "" } }
    let bytes = (lines as? SourceText)?.bytes ?? (try? FileInput.read(path, limit: limit)) ?? []
    return ItemIdentity.names(of: report.diagnostics, in: bytes, model: check.model)
  }
}
