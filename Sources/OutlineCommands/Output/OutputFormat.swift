import ArgumentParser

/// The output formats of `outline-lint` and `outline model check`.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  case text, json, sarif, github

  /// Renders `reports` in `format`; the text format ends with a summary unless `quiet`.
  /// Bytes, written as they are: a report of 50,000 diagnostics is tens of megabytes, never copied into a `String`.
  static func render(_ format: OutputFormat, _ reports: [FileReport], quiet: Bool) -> [UInt8] {
    switch format {
    case .text:
      var body = TextFormat.renderBytes(reports)
      if !quiet { body += (TextFormat.summary(reports) + "\n").utf8 }
      return body
    case .json: return JSONFormat.document(reports).serializedBytes(indent: 2) + [0x0A]
    case .sarif: return SARIFFormat.document(reports).serializedBytes(indent: 2) + [0x0A]
    case .github: return GitHubFormat.renderBytes(reports)
    }
  }
}
