import JSONRPC
import OutlineCore
import OutlineEditing

/// `textDocument/inlayHint`: each item's outline number (`1.3.2`) before
/// its start tag, and `#n` after the name of an item whose order its place
/// implies (``OutlineNumbers``); only for the items that start in the range.
struct InlayHintsFeature {
  let mapper: PositionMapper

  func hints(_ snapshot: Snapshot, _ params: LSP.DocumentRangeParams) throws -> [LSP.InlayHint] {
    guard let range = mapper.textRange(params.range, in: snapshot.source) else {
      throw ResponseError.invalidParams("range is not a range")
    }
    let analysis = snapshot.analysis
    guard let tree = analysis.tree, !analysis.isJSONForm else { return [] }
    let numbers = OutlineNumbers(tree: tree, model: analysis.model)
    return numbers.hints(in: range).map { hint in
      switch hint.kind {
      case .number:
        LSP.InlayHint(
          position: mapper.position(hint.offset, in: snapshot.source), label: hint.label, kind: nil,
          tooltip: "Outline number", paddingLeft: nil, paddingRight: true)
      case .impliedOrder:
        LSP.InlayHint(
          position: mapper.position(hint.offset, in: snapshot.source), label: hint.label, kind: .parameter,
          tooltip: "Order implied by position (ordered relationship)", paddingLeft: true, paddingRight: nil)
      }
    }
  }
}
