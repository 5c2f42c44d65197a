import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON

/// Push (`textDocument/publishDiagnostics`) and pull (`textDocument/diagnostic`)
/// diagnostics: the same engine, codes and ranges as `outline-lint`.
struct DiagnosticsFeature {
  let mapper: PositionMapper

  func pull(_ snapshot: Snapshot, _ params: JSONValue) throws -> JSONValue {
    ["kind": "full", "items": Self.render(snapshot, mapper: mapper)]
  }

  /// LSP's `DiagnosticSeverity` for a severity: the protocol's numbers live
  /// here, not in `Severity`.
  static func lspSeverity(_ severity: Severity) -> Int {
    switch severity {
    case .error: 1
    case .warning: 2
    case .information: 3
    case .hint: 4
    }
  }

  static func render(_ snapshot: Snapshot, mapper: PositionMapper) -> JSONValue {
    let analysis = snapshot.analysis
    let modelSource = analysis.model?.source
    let modelURI = analysis.model?.path.map { URL(fileURLWithPath: $0).absoluteString }
    return .array(
      analysis.diagnostics.map { diagnostic in
        var value: [(String, JSONValue)] = [
          ("range", mapper.range(diagnostic.range, in: snapshot.source)),
          ("severity", .int(Self.lspSeverity(diagnostic.severity))),
          ("code", .string(diagnostic.code.rawValue)),
          ("source", "outline"),
          ("message", .string(diagnostic.message)),
        ]
        if !diagnostic.related.isEmpty {
          value.append(
            (
              "relatedInformation",
              .array(
                diagnostic.related.compactMap { related in
                  let inModel = related.file != nil
                  guard let source = inModel ? modelSource : snapshot.source,
                    let uri = inModel ? modelURI : snapshot.uri
                  else { return nil }
                  return [
                    "location": ["uri": .string(uri), "range": mapper.range(related.range, in: source)],
                    "message": .string(related.message),
                  ]
                })
            ))
        }
        if diagnostic.code == .orderNotDocumentOrder { value.append(("tags", [])) }
        return .object(value)
      })
  }
}
