import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

/// `--baseline FILE` and `--write-baseline FILE` (Documentation/Baseline.md).
struct BaselineOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Report only the problems this baseline does not hold (instead of the baseline .outline.json names).",
      valueName: "file"))
  var baseline: String?

  @Option(
    help: ArgumentHelp(
      "Write every problem found to this baseline file (sorted JSON, one problem a line) instead of reporting them.",
      valueName: "file"))
  var writeBaseline: String?

  init() {}
}

/// What a baseline did to a run, for the summaries.
struct BaselineOutcome: Sendable {
  /// Problems found that a baseline holds (left out of the reports).
  var baselined = 0
  /// Entries of a baseline for the files linted that no problem matched any more, each with
  /// the path of its file as the run names it.
  var absent: [(entry: Baseline.Entry, path: String)] = []
}

extension LintSettings {
  /// Why `--baseline` and `--write-baseline` as given cannot run, or nil.
  var baselineUsageProblem: String? {
    if baseline != nil && writeBaseline != nil {
      return "--baseline and --write-baseline cannot both be given."
    }
    guard let writeBaseline else { return nil }
    if writeBaseline.isEmpty || writeBaseline == "-" { return "--write-baseline needs a file to write." }
    if fix || diff {
      return "--write-baseline records the problems as they are: not with --\(fix ? "fix" : "diff")."
    }
    if statistics { return "--write-baseline writes the baseline, not statistics." }
    return nil
  }

  /// Whether the run needs every diagnostic's fingerprint whatever the configurations say.
  var wantsFingerprints: Bool { baseline != nil || writeBaseline != nil || format == .sarif }

  /// Fingerprints the reports' problems when a baseline or SARIF needs them, leaves out (into
  /// ``FileReport/baselined``) those a baseline holds, and with `--write-baseline` writes them all.
  /// Returns what the baseline did, nil when none applied. Throws the message of a baseline that
  /// cannot be read or written (exit 2).
  func applyBaseline(
    to reports: inout [FileReport], configurations: ConfigurationFinder, models: ModelCache
  ) throws(BaselineError) -> BaselineOutcome? {
    let useConfigurations = baseline == nil && writeBaseline == nil
    var configurationOf: [String: Configuration?] = [:]
    func configuration(_ path: String) -> Configuration? {
      let folder = PathText.folder(of: path)
      if let known = configurationOf[folder] { return known }
      let found = configurations.configuration(for: (folder.isEmpty ? "." : folder) + "/-")
      configurationOf[folder] = found
      return found
    }
    let anyNamed =
      useConfigurations && reports.contains { configuration($0.path)?.baseline != nil }
    guard wantsFingerprints || anyNamed else { return nil }

    var projectOf: [String: String] = [:]
    var baselines: [String: Baseline] = [:]
    var outcome = BaselineOutcome()
    // Per baseline file, the project paths of the files linted against it.
    var linted: [String: [String: String]] = [:]
    var written: [Baseline.Entry] = []
    // Per baseline file, `path NUL fingerprint` of each entry a problem matched.
    var matched: [String: Set<String>] = [:]
    for index in reports.indices {
      let path = reports[index].path
      let folder = PathText.folder(of: path)
      let config = configuration(path)
      let project =
        projectOf[folder]
        ?? {
          let found = ProjectRoot.folder(for: path == "<stdin>" ? nil : path, configuration: config)
          projectOf[folder] = found
          return found
        }()
      let projectPath = Baseline.projectPath(of: path, in: project)
      let file = baseline ?? (useConfigurations ? config?.baselinePath : nil)
      if let file {
        if baselines[file] == nil { baselines[file] = try Baseline.load(file) }
        linted[file, default: [:]][projectPath] = path
      }
      if reports[index].diagnostics.isEmpty { continue }
      let names = itemNames(of: reports[index], configurations: configurations, models: models)
      let diagnostics = reports[index].diagnostics
      let fingerprints = ProblemFingerprint.fingerprints(
        path: projectPath,
        problems: diagnostics.indices.map {
          (diagnostics[$0].code.rawValue, names[$0], diagnostics[$0].message)
        })
      if writeBaseline != nil {
        for (offset, diagnostic) in diagnostics.enumerated() {
          written.append(
            Baseline.Entry(
              fingerprint: fingerprints[offset], path: projectPath, code: diagnostic.code.rawValue,
              item: names[offset], message: diagnostic.message))
        }
      }
      reports[index].itemNames = names
      reports[index].fingerprints = fingerprints
      guard let file, let held = baselines[file] else { continue }
      var kept: [Diagnostic] = []
      var keptFingerprints: [String] = []
      var keptNames: [String] = []
      for (offset, diagnostic) in diagnostics.enumerated() {
        if held.contains(path: projectPath, fingerprint: fingerprints[offset]) {
          reports[index].baselined.append((diagnostic, fingerprints[offset]))
          matched[file, default: []].insert(projectPath + "\u{0}" + fingerprints[offset])
        } else {
          kept.append(diagnostic)
          keptFingerprints.append(fingerprints[offset])
          keptNames.append(names[offset])
        }
      }
      outcome.baselined += reports[index].baselined.count
      reports[index].diagnostics = kept
      reports[index].fingerprints = keptFingerprints
      reports[index].itemNames = keptNames
    }
    if let writeBaseline {
      try write(Baseline(entries: written), to: writeBaseline)
      return outcome
    }
    if baselines.isEmpty { return nil }
    // Entries for the files linted that matched nothing: fixed, or changed past recognition.
    for file in baselines.keys.sorted() {
      let paths = linted[file] ?? [:]
      let held = matched[file] ?? []
      for entry in baselines[file]!.entries where !held.contains(entry.path + "\u{0}" + entry.fingerprint) {
        if let path = paths[entry.path] { outcome.absent.append((entry, path)) }
      }
    }
    return outcome
  }

  /// The item names of `report`'s diagnostics: those its check made, else (a result from the
  /// cache) the file checked again for them.
  private func itemNames(
    of report: FileReport, configurations: ConfigurationFinder, models: ModelCache
  ) -> [String] {
    if let names = report.itemNames, names.count == report.diagnostics.count { return names }
    let isStdin = report.path == (stdinFilename ?? "<stdin>") && paths.contains("-")
    if !isStdin {
      let job = LintJob(
        path: report.path, modelOverride: model, fix: false, configurations: configurations, models: models,
        histories: ModelHistoryCache(limit: models.limit),
        limit: configurations.inputLimit(for: report.path, maxSize: maxSize), itemNames: true)
      if let again = job.run().report, let names = again.itemNames,
        again.diagnostics == report.diagnostics
      {
        return names
      }
    }
    return report.diagnostics.map { _ in "" }
  }

  /// Writes `baseline` to `path`, never over a file that is not a baseline.
  private func write(_ baseline: Baseline, to path: String) throws(BaselineError) {
    var info = stat()
    if stat(path, &info) == 0 {
      guard (info.st_mode & S_IFMT) == S_IFREG else {
        throw BaselineError(message: "\(path) is not a regular file: the baseline was not written")
      }
      let existing: [UInt8]
      do {
        existing = try InputFile.read(path)
      } catch {
        throw BaselineError(message: "the baseline was not written: \(error.description)")
      }
      guard Baseline.mayReplace(existing, path: path) else {
        throw BaselineError(
          message:
            "\(path) exists and is not a baseline of outline-lint: it was left as it is (remove it, or name another file)"
        )
      }
    }
    do {
      try AtomicFile.write(baseline.serialized(), to: path, activity: "written")
    } catch {
      throw BaselineError(message: "the baseline was not written: \(error.description)")
    }
  }
}
