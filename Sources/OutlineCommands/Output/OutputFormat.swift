import ArgumentParser

/// The output formats of `outline-lint` and `outline model check`.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  case text, json, sarif, github

  /// Renders `reports` in `format`; the text format ends with a summary unless `quiet`.
  static func render(_ format: OutputFormat, _ reports: [FileReport], quiet: Bool) -> String {
    switch format {
    case .text:
      let body = TextFormat.render(reports)
      return quiet ? body : body + TextFormat.summary(reports) + "\n"
    case .json: return JSONFormat.render(reports)
    case .sarif: return SARIFFormat.render(reports)
    case .github: return GitHubFormat.render(reports)
    }
  }
}
