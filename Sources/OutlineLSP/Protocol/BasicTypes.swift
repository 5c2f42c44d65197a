/// The Language Server Protocol's types (3.17), as plain `Codable` values
/// read and written through ``JSONValueCoding``. Names are the
/// specification's; kinds are enums, never numbers.
enum LSP {}

extension LSP {
  /// A place in a document: 0-based line, column in the negotiated encoding.
  struct Position: Codable, Sendable, Equatable, Hashable {
    var line: Int
    var character: Int
  }

  /// `Range`: from `start` up to (not including) `end`.
  struct Range: Codable, Sendable, Equatable, Hashable {
    var start: Position
    var end: Position
  }

  struct Location: Codable, Sendable, Equatable {
    var uri: String
    var range: Range
  }

  struct TextDocumentIdentifier: Codable, Sendable, Equatable {
    var uri: String
  }

  struct VersionedTextDocumentIdentifier: Codable, Sendable, Equatable {
    var uri: String
    /// Optional here because some clients leave it out; the server then counts on.
    var version: Int?
  }

  /// A document and its version, `null` for a file that is not open: the member is required
  /// (LSP 3.17), and clients such as vscode-languageclient reject an edit whose identifier
  /// leaves it out.
  struct OptionalVersionedTextDocumentIdentifier: Codable, Sendable, Equatable {
    var uri: String
    var version: Int?

    init(uri: String, version: Int?) {
      self.uri = uri
      self.version = version
    }

    private enum CodingKeys: String, CodingKey { case uri, version }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(uri, forKey: .uri)
      try container.encode(version, forKey: .version)
    }
  }

  struct TextDocumentItem: Codable, Sendable, Equatable {
    var uri: String
    var languageId: String?
    var version: Int?
    var text: DocumentText
  }

  struct TextEdit: Codable, Sendable, Equatable {
    var range: Range
    var newText: String
  }

  struct TextDocumentEdit: Codable, Sendable, Equatable {
    var textDocument: OptionalVersionedTextDocumentIdentifier
    var edits: [TextEdit]
  }

  /// Edits of documents: one of the two forms, as ``WorkspaceEdits`` chooses for the client.
  struct WorkspaceEdit: Codable, Sendable, Equatable {
    /// Edits bound to the document versions they were computed for.
    var documentChanges: [TextDocumentEdit]? = nil
    /// Edits by URI, for a client that does not take `documentChanges`.
    var changes: [String: [TextEdit]]? = nil

    /// Whether it changes nothing.
    var isEmpty: Bool {
      (documentChanges ?? []).allSatisfy(\.edits.isEmpty) && (changes ?? [:]).values.allSatisfy(\.isEmpty)
    }
  }

  enum MarkupKind: String, Codable, Sendable {
    case plaintext, markdown
  }

  struct MarkupContent: Codable, Sendable, Equatable {
    var kind: MarkupKind
    var value: String
  }

  struct Command: Codable, Sendable, Equatable {
    var title: String
    var command: String
    var arguments: [LSPAny]?
  }

  /// The params of every request about one document: the router finds the document by them.
  protocol TextDocumentParams: Decodable, Sendable {
    var textDocument: TextDocumentIdentifier { get }
  }

  /// `TextDocumentPositionParams`: a document and a position in it.
  struct TextDocumentPositionParams: TextDocumentParams, Codable, Equatable {
    var textDocument: TextDocumentIdentifier
    var position: Position
  }

  /// The params of a request that names only its document.
  struct DocumentParams: TextDocumentParams, Codable, Equatable {
    var textDocument: TextDocumentIdentifier
  }

  /// `textDocument/documentSymbol`'s params: a document, and the token its
  /// result may be streamed on as partial results.
  struct DocumentSymbolParams: TextDocumentParams, Codable, Equatable {
    var textDocument: TextDocumentIdentifier
    var partialResultToken: LSPAny?
  }
}
