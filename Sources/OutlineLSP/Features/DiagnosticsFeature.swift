import Foundation
import JSONRPC
import OutlineCore

/// Push (`textDocument/publishDiagnostics`) and pull (`textDocument/diagnostic`)
/// diagnostics: the same engine, codes and ranges as `outline-lint`.
struct DiagnosticsFeature {
  let mapper: PositionMapper

  /// The diagnostics, or `unchanged` when the client already has this snapshot's (`previousResultId`).
  func pull(_ snapshot: Snapshot, _ params: LSP.DocumentDiagnosticParams) -> LSP.DocumentDiagnosticReport {
    if params.previousResultId == snapshot.resultId {
      return LSP.DocumentDiagnosticReport(kind: .unchanged, resultId: snapshot.resultId)
    }
    return LSP.DocumentDiagnosticReport(
      kind: .full, resultId: snapshot.resultId, items: Self.render(snapshot, mapper: mapper))
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

  static func render(_ snapshot: Snapshot, mapper: PositionMapper) -> [LSP.Diagnostic] {
    let analysis = snapshot.analysis
    let modelSource = analysis.model?.source
    let modelURI = analysis.model.flatMap(ModelNavigationFeature.file(of:)).map {
      URL(fileURLWithPath: $0).absoluteString
    }
    return analysis.diagnostics.map { diagnostic in
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
}
