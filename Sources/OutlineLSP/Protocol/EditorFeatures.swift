/// The protocol types of the editing features served from `OutlineEditing`
/// and `OutlineConvert` analyses: selection and linked editing ranges,
/// highlights, inlay hints, code lenses, semantic tokens and range and
/// on-type formatting.
extension LSP {
  // MARK: Capabilities

  struct CodeLensOptions: Codable, Sendable, Equatable {
    var resolveProvider: Bool
  }

  struct InlayHintOptions: Codable, Sendable, Equatable {
    var resolveProvider: Bool
  }

  struct SemanticTokensLegend: Codable, Sendable, Equatable {
    var tokenTypes: [String]
    var tokenModifiers: [String]
  }

  struct SemanticTokensOptions: Codable, Sendable, Equatable {
    var legend: SemanticTokensLegend
    var range: Bool
    var full: Bool
  }

  struct DocumentOnTypeFormattingOptions: Codable, Sendable, Equatable {
    var firstTriggerCharacter: String
    var moreTriggerCharacter: [String]?
  }

  // MARK: Requests and results

  struct SelectionRangeParams: TextDocumentParams, Codable {
    var textDocument: TextDocumentIdentifier
    var positions: [Position]
  }

  /// Written as JSON text by ``SelectionRangeFeature`` (a chain is as deep
  /// as the document); this type reads it back in tests.
  final class SelectionRange: Codable, Sendable {
    let range: Range
    let parent: SelectionRange?

    init(range: Range, parent: SelectionRange?) {
      self.range = range
      self.parent = parent
    }
  }

  struct LinkedEditingRanges: Codable, Sendable, Equatable {
    var ranges: [Range]
    var wordPattern: String?
  }

  enum DocumentHighlightKind: Int, Codable, Sendable {
    case text = 1, read = 2, write = 3
  }

  struct DocumentHighlight: Codable, Sendable, Equatable {
    var range: Range
    var kind: DocumentHighlightKind?
  }

  /// The params of a request about one range of a document.
  struct DocumentRangeParams: TextDocumentParams, Codable, Equatable {
    var textDocument: TextDocumentIdentifier
    var range: Range
  }

  enum InlayHintKind: Int, Codable, Sendable {
    case type = 1, parameter = 2
  }

  struct InlayHint: Codable, Sendable, Equatable {
    var position: Position
    var label: String
    var kind: InlayHintKind?
    var tooltip: String?
    var paddingLeft: Bool?
    var paddingRight: Bool?
  }

  /// A code lens; `data` finds its item again when the client resolves it.
  struct CodeLens: Codable, Sendable, Equatable {
    var range: Range
    var command: Command?
    var data: CodeLensData?
  }

  /// What ``CodeLensFeature`` needs to resolve a lens: the document, the
  /// version the lens was made for and the item's index in it.
  struct CodeLensData: Codable, Sendable, Equatable {
    var uri: String
    var version: Int
    var item: Int
  }

  /// The argument of `outline.delete` and of `outline.renumber` on a
  /// subtree: the item whose start tag begins at `position`.
  struct ItemCommandArgument: Codable, Sendable, Equatable {
    var uri: String
    var position: Position
  }

  /// Written as JSON text by ``SemanticTokensFeature`` (five numbers a
  /// token); this type reads it back in tests.
  struct SemanticTokens: Codable, Sendable, Equatable {
    var data: [UInt32]
  }

  struct DocumentRangeFormattingParams: TextDocumentParams, Codable {
    var textDocument: TextDocumentIdentifier
    var range: Range
    var options: FormattingOptions?
  }

  struct DocumentOnTypeFormattingParams: TextDocumentParams, Codable {
    var textDocument: TextDocumentIdentifier
    var position: Position
    var ch: String
    var options: FormattingOptions?
  }
}
