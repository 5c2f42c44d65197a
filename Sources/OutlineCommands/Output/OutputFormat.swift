import ArgumentParser
import OutlineJSON

/// The output formats of `outline-lint` and `outline model check`.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  case text, json, sarif, github

  /// Writes `run` in `format` to standard output; the text format ends with a summary unless
  /// `quiet`, and is styled by `style` (the other formats never are). JSON and SARIF go in
  /// pieces as they are made, never whole.
  static func write(_ format: OutputFormat, _ run: LintRun, quiet: Bool, style: TextStyle = .plain) {
    write(format, run, quiet: quiet, style: style) { Terminal.write($0) }
  }

  /// Hands `run` in `format` to `sink`, in one piece or (JSON and SARIF) several.
  static func write(
    _ format: OutputFormat, _ run: LintRun, quiet: Bool, style: TextStyle,
    to sink: @escaping ([UInt8]) -> Void
  ) {
    switch format {
    case .text:
      var body = TextFormat.renderBytes(run.reports, style: style)
      if !quiet { body += (TextFormat.summary(run, style: style) + "\n").utf8 }
      sink(body)
    case .json, .sarif:
      var writer = JSONStreamWriter(sink: sink)
      if format == .json {
        JSONFormat.write(run, to: &writer)
      } else {
        SARIFFormat.write(run, to: &writer)
      }
      writer.finish()
    case .github: sink(GitHubFormat.renderBytes(run))
    }
  }
}
