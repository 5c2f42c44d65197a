import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import OutlineWorkspace

/// Push (`textDocument/publishDiagnostics`) and pull (`textDocument/diagnostic`)
/// diagnostics: the same engine, codes and ranges as `outline-lint`; for an open
/// `.outline.json`, its own problems (OC100) in the editor's text; for an open outline whose
/// configuration has problems, one more at its start pointing at them
/// (``ConfigurationDiagnostics/Pointer``).
struct DiagnosticsFeature {
  let mapper: PositionMapper

  /// The diagnostics, or `unchanged` when the client already has this snapshot's (`previousResultId`):
  /// `DocumentDiagnosticReport`'s members in its order, the items written by ``json(_:mapper:)``.
  func pull(_ snapshot: Snapshot, _ params: LSP.DocumentDiagnosticParams) -> LSPAny {
    if params.previousResultId == snapshot.resultId {
      return LSPAny(["kind": "unchanged", "resultId": .string(snapshot.resultId)])
    }
    return LSPAny(
      ["kind": "full", "resultId": .string(snapshot.resultId), "items": Self.json(snapshot, mapper: mapper)])
  }

  /// LSP's `DiagnosticSeverity` for a severity: the protocol's numbers live
  /// in that enum, not in `Severity`.
  static func lspSeverity(_ severity: Severity) -> LSP.DiagnosticSeverity {
    switch severity {
    case .error: .error
    case .warning: .warning
    case .information: .information
    case .hint: .hint
    }
  }

  /// The diagnostics as values, for tests: the server writes them with ``json(_:mapper:)``.
  static func render(_ snapshot: Snapshot, mapper: PositionMapper, open: Bool = true) -> [LSP.Diagnostic] {
    // A text the server is not sure of is the editor's no longer: nothing is said about it.
    guard snapshot.inSync else { return [] }
    if let configuration = snapshot.ownConfiguration {
      return ConfigurationDiagnostics.render(configuration, mapper: mapper)
    }
    guard snapshot.isOutlineDocument else { return [] }
    let analysis = snapshot.analysis
    let modelSource = analysis.model?.source
    let modelURI = modelURI(analysis)
    let pointer =
      open ? ConfigurationDiagnostics.Pointer(analysis.configuration, documentPath: snapshot.path) : nil
    return (pointer.map { [$0.diagnostic(mapper: mapper)] } ?? [])
      + BaselineHints.diagnostics(snapshot, analysis).map { diagnostic in
        let related = diagnostic.related.compactMap { related -> LSP.DiagnosticRelatedInformation? in
          let inModel = related.file != nil
          guard let source = inModel ? modelSource : snapshot.source,
            let uri = inModel ? modelURI : snapshot.uri
          else { return nil }
          return LSP.DiagnosticRelatedInformation(
            location: LSP.Location(uri: uri, range: mapper.range(related.range, in: source)),
            message: related.message)
        }
        return LSP.Diagnostic(
          range: mapper.range(diagnostic.range, in: snapshot.source),
          severity: lspSeverity(diagnostic.severity),
          code: diagnostic.code.rawValue, source: "outline", message: diagnostic.message,
          relatedInformation: diagnostic.related.isEmpty ? nil : related,
          tags: diagnostic.code == .orderNotDocumentOrder ? [] : nil)
      }
  }

  /// A `Diagnostic`'s members up to its message as JSON text, in the order `JSONValueCoding`
  /// writes them (`range`, `severity`, `code`, `source`, `message`), the object left open for
  /// what may follow.
  static func appendHead(
    range: TextRange, in source: SourceText, severity: Severity, code: DiagnosticCode, message: String,
    mapper: PositionMapper, to json: inout JSONBytes
  ) {
    json.raw("{\"range\":")
    mapper.append(range, in: source, to: &json)
    json.raw(",\"severity\":")
    json.int(lspSeverity(severity).rawValue)
    json.raw(",\"code\":")
    json.string(code.rawValue)
    json.raw(",\"source\":\"outline\",\"message\":")
    json.string(message)
  }

  /// One `DiagnosticRelatedInformation` as JSON text: `range` of `source` at `uri`, and its message.
  static func appendRelated(
    uri: String, range: TextRange, in source: SourceText, message: String, mapper: PositionMapper,
    to json: inout JSONBytes
  ) {
    json.raw("{\"location\":{\"uri\":")
    json.string(uri)
    json.raw(",\"range\":")
    mapper.append(range, in: source, to: &json)
    json.raw("},\"message\":")
    json.string(message)
    json.raw("}")
  }

  /// The model file's URI, for related locations in the model.
  private static func modelURI(_ analysis: DocumentCheck) -> String? {
    analysis.model.flatMap(ModelNavigationFeature.file(of:)).map { URL(fileURLWithPath: $0).absoluteString }
  }

  /// The JSON text of `render`'s diagnostics (`[Diagnostic]`), written
  /// straight into bytes: 200,000 diagnostics made some four million
  /// encoder nodes and values on the `Codable` path, and their memory grew
  /// the cost faster than the count (issue 19, item 4). The bytes are the
  /// ones `JSONValueCoding` writes for `render`'s values (a test holds them
  /// equal). Pushed and pulled diagnostics (document and workspace reports) are these; `open`
  /// is false for a closed file of a workspace report, which gets no pointer to its configuration
  /// (the configuration's own report says it once, as `outline-lint` does).
  static func json(_ snapshot: Snapshot, mapper: PositionMapper, open: Bool = true) -> JSONValue {
    // A text the server is not sure of is the editor's no longer: nothing is said about it.
    guard snapshot.inSync else { return [] }
    // The configuration open in the editor: its own problems, in the editor's text.
    if let configuration = snapshot.ownConfiguration {
      return ConfigurationDiagnostics.json(configuration, mapper: mapper)
    }
    // A model file open in the editor is not an outline: no outline problems.
    guard snapshot.isOutlineDocument else { return [] }
    let analysis = snapshot.analysis
    let source = snapshot.source
    let modelSource = analysis.model?.source
    let modelURI = modelURI(analysis)
    var json = JSONBytes()
    json.raw("[")
    let pointer =
      open ? ConfigurationDiagnostics.Pointer(analysis.configuration, documentPath: snapshot.path) : nil
    pointer?.append(mapper: mapper, document: source, to: &json)
    for (index, diagnostic) in BaselineHints.diagnostics(snapshot, analysis).enumerated() {
      if index > 0 || pointer != nil { json.raw(",") }
      json.checkpoint()
      Self.appendHead(
        range: diagnostic.range, in: source, severity: diagnostic.severity, code: diagnostic.code,
        message: diagnostic.message, mapper: mapper, to: &json)
      if !diagnostic.related.isEmpty {
        json.raw(",\"relatedInformation\":[")
        var first = true
        for related in diagnostic.related {
          let inModel = related.file != nil
          guard let relatedSource = inModel ? modelSource : source,
            let uri = inModel ? modelURI : snapshot.uri
          else { continue }
          if !first { json.raw(",") }
          first = false
          Self.appendRelated(
            uri: uri, range: related.range, in: relatedSource, message: related.message, mapper: mapper,
            to: &json)
        }
        json.raw("]")
      }
      if diagnostic.code == .orderNotDocumentOrder { json.raw(",\"tags\":[]") }
      json.raw("}")
    }
    json.raw("]")
    return json.value
  }
}
