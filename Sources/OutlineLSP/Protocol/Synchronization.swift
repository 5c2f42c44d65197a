import OutlineJSON

extension LSP {
  struct DidOpenTextDocumentParams: Codable, Sendable {
    var textDocument: TextDocumentItem
  }

  /// One change: a range and its new text, or (no range) the whole new text.
  struct TextDocumentContentChangeEvent: Codable, Sendable {
    var range: Range?
    var text: DocumentText
  }

  /// A change as read from `didChange`: the event, or why it could not be read (a range that
  /// is not a range, no text); the server cannot apply such a change and says so.
  enum ContentChange: Decodable, Sendable {
    case event(TextDocumentContentChangeEvent)
    case unreadable(String)

    init(from decoder: Decoder) {
      do {
        self = .event(try TextDocumentContentChangeEvent(from: decoder))
      } catch let error as DecodingError {
        self = .unreadable(JSONValueCoding.describe(error))
      } catch {
        self = .unreadable("\(error)")
      }
    }
  }

  /// `didChange`'s params, read change by change: only a document identifier that does not decode
  /// makes the whole notification unreadable.
  struct DidChangeTextDocumentParams: Decodable, Sendable {
    var textDocument: VersionedTextDocumentIdentifier
    var contentChanges: [ContentChange]

    enum CodingKeys: String, CodingKey {
      case textDocument, contentChanges
    }

    init(textDocument: VersionedTextDocumentIdentifier, contentChanges: [ContentChange]) {
      self.textDocument = textDocument
      self.contentChanges = contentChanges
    }

    init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      textDocument = try container.decode(VersionedTextDocumentIdentifier.self, forKey: .textDocument)
      do {
        contentChanges =
          try container.decodeIfPresent([ContentChange].self, forKey: .contentChanges)
          ?? [.unreadable("contentChanges is missing")]
      } catch let error as DecodingError {
        contentChanges = [.unreadable(JSONValueCoding.describe(error))]
      }
    }
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
