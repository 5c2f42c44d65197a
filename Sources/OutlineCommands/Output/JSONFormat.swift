import OutlineCore
import OutlineJSON

/// `--format json`: one stable document (documented in Documentation/OutputFormats.md).
enum JSONFormat {
  static let version = 1

  static func render(_ run: LintRun) -> String {
    document(run).serialized(indent: 2) + "\n"
  }

  static func document(_ run: LintRun) -> JSONValue {
    let reports = run.reports
    var counts: [Severity: Int] = [:]
    let unfixed = Dictionary(run.unfixed.map { ($0.path, $0.message) }) { first, _ in first }
    let entries: [JSONValue] = reports.map { report in
      let positions = ReportPositions(report)
      let diagnostics: [JSONValue] = report.diagnostics.map { diagnostic in
        counts[diagnostic.severity, default: 0] += 1
        return [
          "code": .string(diagnostic.code.rawValue),
          "severity": .string(diagnostic.severity.description),
          "message": .string(diagnostic.message),
          "range": range(diagnostic.range) { positions.display($0) },
          "related": .array(
            diagnostic.related.map { related in
              [
                "path": .string(related.file ?? report.path),
                "message": .string(related.message),
                "range": range(related.range) { positions.display($0, of: related) },
              ]
            }),
        ]
      }
      // A file checked whose fix could not be written: its one entry carries the reason too.
      if let failure = unfixed[report.path] {
        return ["path": .string(report.path), "error": .string(failure), "diagnostics": .array(diagnostics)]
      }
      return ["path": .string(report.path), "diagnostics": .array(diagnostics)]
    }
    // A path that could not be checked is an entry of its own, with its reason, where it
    // stands among the files.
    let unchecked = run.unchecked
    let files: [JSONValue] = run.listing(of: unchecked).map { entry in
      switch entry {
      case .report(let index): entries[index]
      case .problem(let problem):
        ["path": .string(problem.path), "error": .string(problem.message), "diagnostics": []]
      }
    }
    var summary: [(String, JSONValue)] = [
      ("files", .int(reports.count)),
      ("unchecked", .int(unchecked.count)),
      ("unfixed", .int(unfixed.count)),
      ("errors", .int(counts[.error] ?? 0)),
      ("warnings", .int(counts[.warning] ?? 0)),
      ("information", .int(counts[.information] ?? 0)),
      ("hints", .int(counts[.hint] ?? 0)),
    ]
    // With a baseline: the problems it held (not listed above), and its entries no problem matched.
    if let baseline = run.baseline {
      summary += [("baselined", .int(baseline.baselined)), ("baselineAbsent", .int(baseline.absent.count))]
    }
    let document: JSONValue = [
      "version": .int(version),
      "tool": .string(run.tool),
      "files": .array(files),
      "summary": .object(summary),
    ]
    return document
  }

  /// 1-based lines and character columns, plus 0-based UTF-8 offsets.
  static func range(_ range: TextRange, _ display: (Int) -> DisplayPosition) -> JSONValue {
    func point(_ offset: Int) -> JSONValue {
      let position = display(offset)
      return ["line": .int(position.line), "column": .int(position.column), "offset": .int(offset)]
    }
    return ["start": point(range.start), "end": point(range.end)]
  }
}
