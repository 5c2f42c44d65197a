import JSONRPC
import OutlineJSON

/// The routes of the editing features (selection and linked editing ranges,
/// highlights, inlay hints, code lenses, semantic tokens, range and on-type
/// formatting): entries of ``MethodTable``, kept in a file of their own.
extension MethodTable {
  static let editorRoutes: [Route] = [
    .document("textDocument/selectionRange", advertise: { $0.selectionRangeProvider = true }) {
      (context, snapshot, params: LSP.SelectionRangeParams) in
      try SelectionRangeFeature(mapper: context.mapper).ranges(snapshot, params)
    },
    .document("textDocument/linkedEditingRange", advertise: { $0.linkedEditingRangeProvider = true }) {
      (context, snapshot, params: LSP.TextDocumentPositionParams) in
      try LinkedEditingFeature(mapper: context.mapper).ranges(snapshot, params)
    },
    .document("textDocument/documentHighlight", advertise: { $0.documentHighlightProvider = true }) {
      (context, snapshot, params: LSP.TextDocumentPositionParams) in
      try DocumentHighlightFeature(mapper: context.mapper).highlights(snapshot, params)
    },
    .document(
      "textDocument/inlayHint",
      advertise: { $0.inlayHintProvider = LSP.InlayHintOptions(resolveProvider: false) }
    ) { (context, snapshot, params: LSP.DocumentRangeParams) in
      try InlayHintsFeature(mapper: context.mapper).hints(snapshot, params)
    },
    .document(
      "textDocument/codeLens", advertise: { $0.codeLensProvider = LSP.CodeLensOptions(resolveProvider: true) }
    ) { (context, snapshot, _: LSP.DocumentParams) in
      CodeLensFeature(mapper: context.mapper).lenses(snapshot)
    },
    .request(
      "codeLens/resolve", advertise: { $0.codeLensProvider = LSP.CodeLensOptions(resolveProvider: true) }
    ) { (server, lens: LSP.CodeLens) in
      guard let data = lens.data else {
        throw ResponseError.invalidParams("codeLens/resolve: data is missing")
      }
      guard let snapshot = server.store[data.uri] else {
        throw ResponseError.invalidParams("\(data.uri) is not open")
      }
      let mapper = server.featureContext.mapper
      return { _ in try CodeLensFeature(mapper: mapper).resolve(snapshot, lens) }
    },
    .document("textDocument/semanticTokens/full", advertise: advertiseSemanticTokens) {
      (context, snapshot, _: LSP.DocumentParams) in
      SemanticTokensFeature(mapper: context.mapper).full(snapshot)
    },
    .document("textDocument/semanticTokens/range", advertise: advertiseSemanticTokens) {
      (context, snapshot, params: LSP.DocumentRangeParams) in
      try SemanticTokensFeature(mapper: context.mapper).range(snapshot, params)
    },
    .document("textDocument/rangeFormatting", advertise: { $0.documentRangeFormattingProvider = true }) {
      (context, snapshot, params: LSP.DocumentRangeFormattingParams) in
      try RangeFormattingFeature(mapper: context.mapper).format(snapshot, params)
    },
    .document(
      "textDocument/onTypeFormatting",
      advertise: {
        $0.documentOnTypeFormattingProvider = LSP.DocumentOnTypeFormattingOptions(
          firstTriggerCharacter: ">", moreTriggerCharacter: nil)
      }
    ) { (context, snapshot, params: LSP.DocumentOnTypeFormattingParams) in
      try RangeFormattingFeature(mapper: context.mapper).formatOnType(snapshot, params)
    },
  ]

  /// Both semantic token methods advertise one provider: the legend, `full` and `range`.
  @Sendable private static func advertiseSemanticTokens(_ capabilities: inout LSP.ServerCapabilities) {
    capabilities.semanticTokensProvider = LSP.SemanticTokensOptions(
      legend: SemanticTokensFeature.legend, range: true, full: true)
  }
}
