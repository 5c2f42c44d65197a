/// A path the run could not check (missing, unreadable, not a regular file, too
/// large), or one it checked but whose fix it could not write (`--fix` on a read-only
/// file). Machine-readable formats carry these too, so a CI reading only the JSON or
/// SARIF never mistakes a skipped file for a clean one, nor an unfixed one for fixed.
struct RunProblem: Sendable {
  /// The path as the user gave it (or `<stdin>`).
  var path: String
  /// The one-line message, as printed on standard error.
  var message: String
  /// Whether the path was checked (its report is in the run) and only its fix could not be written.
  var checked = false
}

/// Everything one lint (or model check) found: the reports of the files it
/// read and the paths it could not.
struct LintRun: Sendable {
  var reports: [FileReport]
  var problems: [RunProblem] = []
  /// The command that made the run, as JSON's `tool` names it: `outline-lint` (also for
  /// `outline lint`, the same command) or `outline model check`.
  var tool = "outline-lint"

  /// The paths that could not be checked at all.
  var unchecked: [RunProblem] { problems.filter { !$0.checked } }

  /// The paths checked whose fix could not be written.
  var unfixed: [RunProblem] { problems.filter(\.checked) }
}
