import OutlineCore

/// `path:line:col: severity[CODE]: message`, one line a diagnostic.
enum TextFormat {
  static func render(_ reports: [FileReport], style: TextStyle = .plain) -> String {
    var out = ""
    for report in reports {
      for diagnostic in report.diagnostics {
        let position = DisplayPosition(diagnostic.range.start, in: report.source)
        out +=
          "\(style.location("\(report.path):\(position.line):\(position.column):")) \(style.severity(diagnostic.severity))[\(style.code(diagnostic.code))]: \(diagnostic.message)\n"
        for related in diagnostic.related {
          let file = related.file ?? report.path
          let where_ = DisplayPosition(related.range.start, in: report.source(for: related))
          out +=
            "  \(style.location("\(file):\(where_.line):\(where_.column):")) \(style.note("note")): \(related.message)\n"
        }
      }
    }
    return out
  }

  /// `3 errors, 1 warning in 2 files` (hints and information counted when
  /// present; files that could not be checked counted apart).
  static func summary(_ run: LintRun, style: TextStyle = .plain) -> String {
    var counts: [Severity: Int] = [:]
    for report in run.reports {
      for diagnostic in report.diagnostics { counts[diagnostic.severity, default: 0] += 1 }
    }
    let errors = counts[.error] ?? 0
    var parts = [counted(errors, "error"), counted(counts[.warning] ?? 0, "warning")]
    if let hints = counts[.hint], hints > 0 { parts.append(counted(hints, "hint")) }
    if let notes = counts[.information], notes > 0 { parts.append(counted(notes, "note")) }
    var line = "\(parts.joined(separator: ", ")) in \(counted(run.reports.count, "file"))"
    if !run.problems.isEmpty { line += "; \(counted(run.problems.count, "path")) could not be checked" }
    return style.summary(line, errors: errors > 0 || !run.problems.isEmpty)
  }
}
