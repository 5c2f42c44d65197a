import JSONRPC
import OutlineEditing

/// `textDocument/linkedEditingRange`: on an element's start or end tag
/// name, both names, so typing in one renames the other (``LinkedTagNames``).
struct LinkedEditingFeature {
  let mapper: PositionMapper

  func ranges(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws -> LSP
    .LinkedEditingRanges?
  {
    guard let offset = mapper.offset(params.position, in: snapshot.source) else {
      throw ResponseError.invalidParams("position is negative")
    }
    guard let ranges = LinkedTagNames.ranges(at: offset, in: snapshot.markup) else { return nil }
    return LSP.LinkedEditingRanges(
      ranges: ranges.map { mapper.range($0, in: snapshot.source) }, wordPattern: LinkedTagNames.wordPattern)
  }
}
