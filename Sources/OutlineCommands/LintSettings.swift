import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

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
  /// The lint cache's folder (`--cache-dir`), instead of each project's `.outline-cache`.
  var cacheDir: String?
  /// No lint cache (`--no-cache`).
  var noCache = false
  /// The baseline whose problems are not reported (`--baseline`), instead of the configuration's.
  var baseline: String?
  /// Where to write every problem found as a baseline (`--write-baseline`).
  var writeBaseline: String?

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
    if let problem = baselineUsageProblem { return problem }
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
    let cache = LintCaching.cache(for: self)
    let chosenConfiguration = config != nil || isolated
    let itemNames = wantsFingerprints
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
          stdinFilename: stdinFilename, cache: cache, chosenConfiguration: chosenConfiguration,
          itemNames: itemNames
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
          diff: diff, stdinFilename: stdinFilename, onBytes: onBytes, cache: cache,
          chosenConfiguration: chosenConfiguration, itemNames: itemNames
        ).run()
      }
    }
    progress.finish()
    cache?.finish()
    if verbose, let cache { Terminal.write(LintCaching.note(cache) + "\n", to: 2) }

    try report(
      files: files, results: &results, collected: collected, configurations: configurations, models: models)
  }
}
