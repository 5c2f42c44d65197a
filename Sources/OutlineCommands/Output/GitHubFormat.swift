import OutlineCore

/// `--format github`: workflow commands that annotate the pull request.
enum GitHubFormat {
  static func render(_ run: LintRun) -> String {
    var out = ""
    for problem in run.problems {
      out += "::error file=\(property(problem.path)),title=outline-lint::\(data(problem.message))\n"
    }
    for report in run.reports {
      for diagnostic in report.diagnostics {
        let start = DisplayPosition(diagnostic.range.start, in: report.source)
        let end = DisplayPosition(diagnostic.range.end, in: report.source)
        let command: String
        switch diagnostic.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .information, .hint: command = "notice"
        }
        let properties = [
          "file=\(property(report.path))", "line=\(start.line)", "col=\(start.column)",
          "endLine=\(end.line)", "endColumn=\(end.column)", "title=\(property(diagnostic.code.rawValue))",
        ]
        out += "::\(command) \(properties.joined(separator: ","))::\(data(diagnostic.message))\n"
      }
    }
    return out
  }

  /// Escapes a message as the runner expects.
  static func data(_ text: String) -> String {
    text.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
  }

  /// Escapes a property value (also `:` and `,`).
  static func property(_ text: String) -> String {
    data(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
  }
}

extension String {
  func replacingAll(_ target: String, _ replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
