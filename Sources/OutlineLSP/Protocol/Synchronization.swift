extension LSP {
  struct DidOpenTextDocumentParams: Codable, Sendable {
    var textDocument: TextDocumentItem
  }

  /// One change: a range and its new text, or (no range) the whole new text.
  struct TextDocumentContentChangeEvent: Codable, Sendable {
    var range: Range?
    var text: DocumentText
  }

  struct DidChangeTextDocumentParams: Codable, Sendable {
    var textDocument: VersionedTextDocumentIdentifier
    var contentChanges: [TextDocumentContentChangeEvent]
  }

  struct DidCloseTextDocumentParams: Codable, Sendable {
    var textDocument: TextDocumentIdentifier
  }

  struct DidSaveTextDocumentParams: Codable, Sendable {
    var textDocument: TextDocumentIdentifier
  }

  enum FileChangeType: Int, Codable, Sendable {
    case created = 1, changed = 2, deleted = 3
  }

  struct FileEvent: Codable, Sendable, Equatable {
    var uri: String
    var type: FileChangeType
  }

  struct DidChangeWatchedFilesParams: Codable, Sendable {
    var changes: [FileEvent]
  }
}
