import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineJSON

/// `textDocument/semanticTokens/full` and `/range`: element, attribute and
/// value tokens classified by the model (``SemanticTokens``), encoded as the
/// protocol's five numbers a token and written as JSON text.
struct SemanticTokensFeature {
  let mapper: PositionMapper

  /// The legend the server advertises: the token types and modifiers, in their order.
  static let legend = LSP.SemanticTokensLegend(
    tokenTypes: SemanticTokens.TokenType.allCases.map(\.name),
    tokenModifiers: SemanticTokens.TokenModifier.allCases.map(\.name))

  /// `SemanticTokens` for the whole document.
  func full(_ snapshot: Snapshot) -> LSPAny {
    tokens(snapshot, in: nil)
  }

  /// `SemanticTokens` for the tokens that overlap `params.range`.
  func range(_ snapshot: Snapshot, _ params: LSP.DocumentRangeParams) throws -> LSPAny {
    guard let range = mapper.textRange(params.range, in: snapshot.source) else {
      throw ResponseError.invalidParams("range is not a range")
    }
    return tokens(snapshot, in: range)
  }

  private func tokens(_ snapshot: Snapshot, in range: TextRange?) -> LSPAny {
    let analysis = snapshot.analysis
    var json = JSONBytes()
    json.raw("{\"data\":[")
    if !analysis.isJSONForm {
      // A range starts at the last item that starts before it (the tree's
      // start tags are places where no markup is open), not at the top.
      var resume: (offset: Int, rootName: TextRange)?
      if let range, let tree = analysis.tree, tree.items.count > 1 {
        // The root (item 0) starts before every range: search the items after it.
        let low =
          1 + Partition.point(tree.items.count - 1) { tree.items[$0 + 1].startTag.start <= range.start }
        if low > 1 { resume = (tree.items[low - 1].startTag.start, tree.items[0].nameRange) }
      }
      let tokens = SemanticTokens.tokens(
        in: snapshot.source, model: analysis.model, rootEntity: analysis.rootEntity, range: range,
        resume: resume)
      let data = SemanticTokens.encode(tokens, in: snapshot.source, unit: mapper.unit)
      for (index, number) in data.enumerated() {
        if index > 0 {
          json.raw(",")
          if index % 5 == 0 { json.checkpoint() }
        }
        json.int(Int(number))
      }
    }
    json.raw("]}")
    return LSPAny(json.value)
  }
}
