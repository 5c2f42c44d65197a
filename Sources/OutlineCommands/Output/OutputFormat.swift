import ArgumentParser

/// The output formats of `outline-lint` and `outline model check`.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  case text, json, sarif, github

  /// Renders `run` in `format`; the text format ends with a summary unless
  /// `quiet`, and is styled by `style` (the other formats never are).
  static func render(_ format: OutputFormat, _ run: LintRun, quiet: Bool, style: TextStyle = .plain)
    -> String
  {
    switch format {
    case .text:
      let body = TextFormat.render(run.reports, style: style)
      return quiet ? body : body + TextFormat.summary(run, style: style) + "\n"
    case .json: return JSONFormat.render(run)
    case .sarif: return SARIFFormat.render(run)
    case .github: return GitHubFormat.render(run)
    }
  }
}
