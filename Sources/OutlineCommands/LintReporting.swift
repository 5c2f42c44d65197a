import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

extension LintSettings {
  /// Reports the run: every file's result in the order of `files`, with the
  /// paths the collection could not take (`collected`) where they stand; throws
  /// the exit status when it is not 0.
  func report(
    files: [String], results: inout [LintJob.Result], collected: [PathTrouble],
    configurations: ConfigurationFinder, models: ModelCache
  ) throws {
    var collected = collected
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
    var baselineOutcome: BaselineOutcome?
    if !diff {
      let unchecked = problems.filter { !$0.checked }.count
      if writeBaseline != nil && unchecked > 0 {
        Terminal.error("the baseline was not written: \(counted(unchecked, "path")) could not be checked")
        throw ExitCode(2)
      }
      do {
        baselineOutcome = try applyBaseline(to: &all, configurations: configurations, models: models)
      } catch {
        Terminal.error(error.message)
        throw ExitCode(2)
      }
      if let writeBaseline {
        let count = all.reduce(0) { $0 + $1.diagnostics.count }
        let files = all.filter { !$0.diagnostics.isEmpty }.count
        if !quiet {
          Terminal.write(
            "\(counted(count, "problem")) in \(counted(files, "file")) written to the baseline \(writeBaseline)\n",
            to: 2)
        }
        if troubled { throw ExitCode(2) }
        return
      }
    }
    var run = LintRun(reports: all, problems: problems)
    run.baseline = baselineOutcome
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
      OutputFormat.write(format, run, quiet: quiet, style: TextStyle(color.enabled(descriptor: 1)))
    }
    if troubled { throw ExitCode(2) }
    if all.contains(where: { $0.count(.error) > 0 }) { throw ExitCode(1) }
  }
}
