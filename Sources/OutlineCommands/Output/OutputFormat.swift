import ArgumentParser

/// The output formats of `outline-lint` and `outline model check`.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  case text, json, sarif, github

  /// Renders `run` in `format`; the text format ends with a summary unless
  /// `quiet`, and is styled by `style` (the other formats never are).
  /// Bytes, written as they are: a report of 50,000 diagnostics is tens of
  /// megabytes, never copied into a `String`.
  static func render(_ format: OutputFormat, _ run: LintRun, quiet: Bool, style: TextStyle = .plain)
    -> [UInt8]
  {
    switch format {
    case .text:
      var body = TextFormat.renderBytes(run.reports, style: style)
      if !quiet { body += (TextFormat.summary(run, style: style) + "\n").utf8 }
      return body
    case .json: return JSONFormat.document(run).serializedBytes(indent: 2) + [0x0A]
    case .sarif: return SARIFFormat.document(run).serializedBytes(indent: 2) + [0x0A]
    case .github: return GitHubFormat.renderBytes(run)
    }
  }
}
