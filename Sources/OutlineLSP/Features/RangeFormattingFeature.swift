import JSONRPC
import OutlineConvert
import OutlineCore

/// `textDocument/rangeFormatting` and `textDocument/onTypeFormatting`
/// (after `>`): the canonical layout of `outline fmt` on the lines of the
/// range, or on the tag just closed (``RangeFormatting``). Nothing for a
/// document in the JSON form.
struct RangeFormattingFeature {
  let mapper: PositionMapper

  func format(_ snapshot: Snapshot, _ params: LSP.DocumentRangeFormattingParams) throws -> [LSP.TextEdit] {
    guard let range = mapper.textRange(params.range, in: snapshot.source) else {
      throw ResponseError.invalidParams("range is not a range")
    }
    let analysis = snapshot.analysis
    guard !analysis.isJSONForm else { return [] }
    return RangeFormatting.edits(
      formatting: range, in: snapshot.source, model: analysis.model, tree: analysis.tree,
      editingRoot: snapshot.rootRecording
    )
    .map {
      mapper.edit($0, in: snapshot.source)
    }
  }

  func formatOnType(_ snapshot: Snapshot, _ params: LSP.DocumentOnTypeFormattingParams) throws -> [LSP
    .TextEdit]
  {
    guard let offset = mapper.offset(params.position, in: snapshot.source) else {
      throw ResponseError.invalidParams("position is negative")
    }
    let analysis = snapshot.analysis
    guard params.ch == ">", !analysis.isJSONForm else { return [] }
    return RangeFormatting.edits(
      typedAt: offset, in: snapshot.source, model: analysis.model, tree: analysis.tree
    )
    .map {
      mapper.edit($0, in: snapshot.source)
    }
  }
}
