/// A path the run could not check: missing, unreadable, not a regular
/// file, too large. Machine-readable formats carry these too, so a CI
/// reading only the JSON or SARIF never mistakes a skipped file for a clean one.
struct RunProblem: Sendable {
  /// The path as the user gave it (or `<stdin>`).
  var path: String
  /// The one-line message, as printed on standard error.
  var message: String
}

/// Everything one lint (or model check) found: the reports of the files it
/// read and the paths it could not.
struct LintRun: Sendable {
  var reports: [FileReport]
  var problems: [RunProblem] = []
}
