extension LSP {
  // MARK: Diagnostics

  enum DiagnosticSeverity: Int, Codable, Sendable {
    case error = 1, warning = 2, information = 3, hint = 4
  }

  enum DiagnosticTag: Int, Codable, Sendable {
    case unnecessary = 1, deprecated = 2
  }

  struct DiagnosticRelatedInformation: Codable, Sendable, Equatable {
    var location: Location
    var message: String
  }

  struct Diagnostic: Codable, Sendable, Equatable {
    var range: Range
    var severity: DiagnosticSeverity?
    /// Always a string here (`OL401`); LSP allows numbers, which this server never sends.
    var code: String?
    var source: String?
    var message: String
    var relatedInformation: [DiagnosticRelatedInformation]?
    var tags: [DiagnosticTag]?
  }

  struct PublishDiagnosticsParams: Codable, Sendable, Equatable {
    var uri: String
    var version: Int?
    var diagnostics: [Diagnostic]
  }

  struct DocumentDiagnosticParams: TextDocumentParams, Codable {
    var textDocument: TextDocumentIdentifier
    var identifier: String?
    var previousResultId: String?
  }

  enum DocumentDiagnosticReportKind: String, Codable, Sendable {
    case full, unchanged
  }

  /// A full report (`items`) or, when `previousResultId` still holds, an unchanged one.
  struct DocumentDiagnosticReport: Codable, Sendable, Equatable {
    var kind: DocumentDiagnosticReportKind
    var resultId: String?
    var items: [Diagnostic]?
  }

  // MARK: Structure

  enum SymbolKind: Int, Codable, Sendable {
    case file = 1, module, namespace, package, `class`, method, property, field, constructor, `enum`,
      interface, function, variable, constant, string, number, boolean, array, object, key, null,
      enumMember, `struct`, event, `operator`, typeParameter
  }

  /// Written as JSON text by ``SymbolsFeature`` (a million items); this type reads it back in tests.
  struct DocumentSymbol: Codable, Sendable, Equatable {
    var name: String
    var detail: String?
    var kind: SymbolKind
    var range: Range
    var selectionRange: Range
    var children: [DocumentSymbol]?
  }

  enum FoldingRangeKind: String, Codable, Sendable {
    case comment, imports, region
  }

  /// Written as JSON text by ``FoldingFeature``; this type reads it back in tests.
  struct FoldingRange: Codable, Sendable, Equatable {
    var startLine: Int
    var endLine: Int
    var kind: FoldingRangeKind?
    var collapsedText: String?
  }

  // MARK: Editing

  struct FormattingOptions: Codable, Sendable {
    var tabSize: Int?
    var insertSpaces: Bool?
  }

  struct DocumentFormattingParams: TextDocumentParams, Codable {
    var textDocument: TextDocumentIdentifier
    var options: FormattingOptions?
  }

  /// A code action kind; an open set of dotted names, so a string, not an enum.
  struct CodeActionKind: RawRepresentable, Codable, Sendable, Hashable {
    var rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }

    static let quickFix = CodeActionKind(rawValue: "quickfix")
    static let refactorRewrite = CodeActionKind(rawValue: "refactor.rewrite")
    static let sourceFixAll = CodeActionKind(rawValue: "source.fixAll")

    /// Whether a client asking for `kind` wants this one (`refactor` covers `refactor.rewrite`).
    func isCovered(by kind: CodeActionKind) -> Bool {
      rawValue == kind.rawValue || rawValue.hasPrefix(kind.rawValue + ".")
    }
  }

  struct CodeActionContext: Codable, Sendable {
    var diagnostics: [Diagnostic]
    var only: [CodeActionKind]?
  }

  struct CodeActionParams: TextDocumentParams, Codable {
    var textDocument: TextDocumentIdentifier
    var range: Range
    var context: CodeActionContext
  }

  struct CodeActionDisabled: Codable, Sendable, Equatable {
    var reason: String
  }

  struct CodeAction: Codable, Sendable, Equatable {
    var title: String
    var kind: CodeActionKind?
    var diagnostics: [Diagnostic]?
    var isPreferred: Bool?
    var disabled: CodeActionDisabled?
    var edit: WorkspaceEdit?
    var command: Command?
  }

  // MARK: Hover and completion

  struct Hover: Codable, Sendable, Equatable {
    var contents: MarkupContent
    var range: Range?
  }

  enum CompletionItemKind: Int, Codable, Sendable {
    case text = 1, method, function, constructor, field, variable, `class`, interface, module, property,
      unit, value, `enum`, keyword, snippet, color, file, reference, folder, enumMember, constant,
      `struct`, event, `operator`, typeParameter
  }

  enum InsertTextFormat: Int, Codable, Sendable {
    case plainText = 1, snippet = 2
  }

  struct CompletionItem: Codable, Sendable, Equatable {
    var label: String
    var kind: CompletionItemKind?
    var detail: String?
    var insertText: String?
    var insertTextFormat: InsertTextFormat?
    var filterText: String?
    var textEdit: TextEdit?
  }

  struct CompletionList: Codable, Sendable, Equatable {
    var isIncomplete: Bool
    var items: [CompletionItem]
  }

  // MARK: Navigation

  struct ReferenceContext: Codable, Sendable {
    var includeDeclaration: Bool
  }

  struct ReferenceParams: TextDocumentParams, Codable {
    var textDocument: TextDocumentIdentifier
    var position: Position
    var context: ReferenceContext?
  }

  struct PrepareRenameResult: Codable, Sendable, Equatable {
    var range: Range
    var placeholder: String
  }

  struct RenameParams: TextDocumentParams, Codable {
    var textDocument: TextDocumentIdentifier
    var position: Position
    var newName: String
  }
}

extension LSP {
  struct DocumentLink: Codable, Sendable, Equatable {
    var range: Range
    var target: String?
    var tooltip: String?
  }
}
