import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineJSON

/// `textDocument/selectionRange`: for each position, the ranges around it
/// from the value under the cursor out to the whole document
/// (``SelectionRanges``), at most ``ReplyLimits/selectionRanges`` of them: the
/// innermost, then the whole text. Written as JSON text, parents nested by counting
/// braces, so a chain as deep as the document costs no recursion.
struct SelectionRangeFeature {
  let mapper: PositionMapper

  /// `[SelectionRange]`.
  func ranges(_ snapshot: Snapshot, _ params: LSP.SelectionRangeParams) throws -> LSPAny {
    let source = snapshot.source
    var offsets: [Int] = []
    for position in params.positions {
      guard let offset = mapper.offset(position, in: source) else {
        throw ResponseError.invalidParams("a position is negative")
      }
      offsets.append(offset)
    }
    let tree = snapshot.markup
    var json = JSONBytes()
    json.raw("[")
    for (index, offset) in offsets.enumerated() {
      if index > 0 { json.raw(",") }
      var chain = SelectionRanges.ranges(at: offset, in: source, tree: tree)
      // A chain as deep as the document would nest its reply as deep: the innermost ranges and
      // the whole text (each still holds the one before it).
      if chain.count > ReplyLimits.selectionRanges {
        chain.replaceSubrange((ReplyLimits.selectionRanges - 1)..<(chain.count - 1), with: [])
      }
      for (depth, range) in chain.enumerated() {
        json.checkpoint()
        if depth > 0 { json.raw(",\"parent\":") }
        json.raw("{\"range\":")
        mapper.append(range, in: source, to: &json)
      }
      for _ in chain { json.raw("}") }
    }
    json.raw("]")
    return LSPAny(json.value)
  }
}
