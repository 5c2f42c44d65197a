/// A path the run could not check (missing, unreadable, not a regular file, too
/// large, a name that is not UTF-8), or one it checked but whose fix it could not write
/// (`--fix` on a read-only file). Machine-readable formats carry these too, so a CI reading
/// only the JSON or SARIF never mistakes a skipped file for a clean one, nor an unfixed one
/// for fixed.
struct RunProblem: Sendable {
  /// The path as the user gave it (or `<stdin>`), or as the search found it; a name that is not
  /// UTF-8 with its bytes escaped (`bad\xFFname.outline`).
  var path: String
  /// The one-line message, as printed on standard error.
  var message: String
  /// Whether the path was checked (its report is in the run) and only its fix could not be written.
  var checked = false
  /// The path's own bytes, when they are not `path`'s (a name that is not UTF-8): what SARIF's
  /// `uri` encodes.
  var bytes: [UInt8]? = nil
  /// How many of the run's reports come before it in the listing (files as named, each
  /// folder's sorted by the bytes of their paths); nil: after all of them.
  var position: Int? = nil

  /// The path's bytes.
  var pathBytes: [UInt8] { bytes ?? Array(path.utf8) }
}

/// Everything one lint (or model check) found: the reports of the files it
/// read and the paths it could not.
struct LintRun: Sendable {
  var reports: [FileReport]
  var problems: [RunProblem] = []
  /// The command that made the run, as JSON's `tool`, SARIF's driver and GitHub's titles
  /// name it: `outline-lint` (also for `outline lint`, the same command) or `outline model check`.
  var tool = LintRun.lintTool
  /// What a baseline did (``BaselineOutcome``), nil when the run had none.
  var baseline: BaselineOutcome?

  /// The name of the lint's runs.
  static let lintTool = "outline-lint"

  /// The paths that could not be checked at all.
  var unchecked: [RunProblem] { problems.filter { !$0.checked } }

  /// The paths checked whose fix could not be written.
  var unfixed: [RunProblem] { problems.filter(\.checked) }

  /// One entry of the listing: a report (its index in ``reports``) or a problem.
  enum Entry {
    case report(Int)
    case problem(RunProblem)
  }

  /// The reports and the `problems` chosen (in their order) in the order the run lists files:
  /// each problem before the report its ``RunProblem/position`` names, those without one last.
  func listing(of problems: [RunProblem]) -> [Entry] {
    var entries: [Entry] = []
    entries.reserveCapacity(reports.count + problems.count)
    var next = 0
    for index in reports.indices {
      while next < problems.count, let position = problems[next].position, position <= index {
        entries.append(.problem(problems[next]))
        next += 1
      }
      entries.append(.report(index))
    }
    entries += problems[next...].map { .problem($0) }
    return entries
  }
}
