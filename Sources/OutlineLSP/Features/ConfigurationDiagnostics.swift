import Foundation
import OutlineCore
import OutlineJSON
import OutlineWorkspace

/// The problems of an `.outline.json` (OC100), as `outline-lint` reports them: for the
/// configuration document itself (open, from the editor's text, or on disk), and one pointer
/// diagnostic at the start of each open outline it governs, so the user learns why the
/// outline's rules or model may not be the ones the file sets.
enum ConfigurationDiagnostics {
  /// The `file:` URI of the configuration file.
  static func uri(of configuration: Configuration) -> String {
    URL(fileURLWithPath: configuration.path).absoluteString
  }

  /// The diagnostics of `configuration` as values, for tests: the server writes them with ``json(_:mapper:)``.
  static func render(_ configuration: Configuration, mapper: PositionMapper) -> [LSP.Diagnostic] {
    configuration.diagnostics.map { diagnostic in
      LSP.Diagnostic(
        range: mapper.range(diagnostic.range, in: configuration.source),
        severity: DiagnosticsFeature.lspSeverity(diagnostic.severity), code: diagnostic.code.rawValue,
        source: "outline", message: diagnostic.message)
    }
  }

  /// The JSON text of ``render(_:mapper:)``'s diagnostics (`[Diagnostic]`).
  static func json(_ configuration: Configuration, mapper: PositionMapper) -> JSONValue {
    var json = JSONBytes()
    json.raw("[")
    for (index, diagnostic) in configuration.diagnostics.enumerated() {
      if index > 0 { json.raw(",") }
      DiagnosticsFeature.appendHead(
        range: diagnostic.range, in: configuration.source, severity: diagnostic.severity,
        code: diagnostic.code,
        message: diagnostic.message, mapper: mapper, to: &json)
      json.raw("}")
    }
    json.raw("]")
    return json.value
  }

  /// What an open outline governed by a configuration with problems is told: one error at its
  /// start naming the configuration, related to the first problem's place in it.
  struct Pointer {
    /// The message, naming the configuration as seen from the outline's folder.
    let message: String
    /// The configuration file's URI and its text, for the related location.
    let uri: String
    let source: SourceText
    /// The first problem, with its range in `source`.
    let first: Diagnostic

    /// The pointer for a document at `documentPath` (nil: an unsaved buffer) governed by
    /// `configuration`; nil when there is none or it has no problem.
    init?(_ configuration: Configuration?, documentPath: String?) {
      guard let configuration, let first = configuration.diagnostics.first else { return nil }
      let shown = Self.name(of: configuration, from: documentPath)
      let count = configuration.diagnostics.count
      let problems = count == 1 ? "a problem" : "\(count) problems"
      let lead = count == 1 ? ":" : "; the first:"
      message =
        "Its configuration \(Excerpt.quoted(shown)) has \(problems) (OC100), so the rules and the model "
        + "it sets may not apply to this document as written\(lead) \(first.message)"
      uri = ConfigurationDiagnostics.uri(of: configuration)
      source = configuration.source
      self.first = first
    }

    /// The LSP diagnostic, at the document's start.
    func diagnostic(mapper: PositionMapper) -> LSP.Diagnostic {
      LSP.Diagnostic(
        range: LSP.Range(start: .init(line: 0, character: 0), end: .init(line: 0, character: 0)),
        severity: .error, code: DiagnosticCode.configuration.rawValue, source: "outline", message: message,
        relatedInformation: [
          LSP.DiagnosticRelatedInformation(
            location: LSP.Location(uri: uri, range: mapper.range(first.range, in: source)),
            message: first.message)
        ])
    }

    /// Appends ``diagnostic(mapper:)`` as JSON text, at the start of `document` (the outline's text).
    func append(mapper: PositionMapper, document: SourceText, to json: inout JSONBytes) {
      DiagnosticsFeature.appendHead(
        range: TextRange(at: 0), in: document, severity: .error, code: .configuration, message: message,
        mapper: mapper, to: &json)
      json.raw(",\"relatedInformation\":[")
      DiagnosticsFeature.appendRelated(
        uri: uri, range: first.range, in: source, message: first.message, mapper: mapper, to: &json)
      json.raw("]}")
    }

    /// The configuration's path relative to the document's folder (`.outline.json`,
    /// `../.outline.json`), or as it is when the document has no path.
    static func name(of configuration: Configuration, from documentPath: String?) -> String {
      guard let documentPath else { return configuration.path }
      let documentFolder = URL(fileURLWithPath: documentPath).deletingLastPathComponent().standardizedFileURL
        .pathComponents
      let folder = URL(fileURLWithPath: configuration.folder).standardizedFileURL.pathComponents
      guard documentFolder.starts(with: folder) else { return configuration.path }
      let up = documentFolder.count - folder.count
      return String(repeating: "../", count: up) + Configuration.fileName
    }
  }
}
