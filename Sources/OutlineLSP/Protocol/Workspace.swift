extension LSP {
  struct PreviousResultId: Codable, Sendable, Equatable {
    var uri: String
    var value: String
  }

  struct WorkspaceDiagnosticParams: Codable, Sendable {
    var identifier: String?
    var previousResultIds: [PreviousResultId]
    var workDoneToken: LSPAny?
    var partialResultToken: LSPAny?
  }

  /// One document's report in a workspace report: full or unchanged, with
  /// its version when it is open (`null`, written, when it is not).
  struct WorkspaceDocumentDiagnosticReport: Codable, Sendable, Equatable {
    var kind: DocumentDiagnosticReportKind
    var resultId: String?
    var uri: String
    var version: Int?
    var items: [Diagnostic]?

    init(
      kind: DocumentDiagnosticReportKind, resultId: String?, uri: String, version: Int?, items: [Diagnostic]?
    ) {
      self.kind = kind
      self.resultId = resultId
      self.uri = uri
      self.version = version
      self.items = items
    }

    enum CodingKeys: String, CodingKey {
      case kind, resultId, uri, version, items
    }

    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(kind, forKey: .kind)
      try container.encodeIfPresent(resultId, forKey: .resultId)
      try container.encode(uri, forKey: .uri)
      try container.encode(version, forKey: .version)  // null for a closed file
      try container.encodeIfPresent(items, forKey: .items)
    }
  }

  /// The workspace report, or (as the value of a `$/progress`) a part of it.
  struct WorkspaceDiagnosticReport: Codable, Sendable, Equatable {
    var items: [WorkspaceDocumentDiagnosticReport]
  }

  /// `$/progress`: a work-done progress or a partial result.
  struct ProgressParams<Value: Codable & Sendable>: Codable, Sendable {
    var token: LSPAny
    var value: Value
  }

  enum WorkDoneProgressKind: String, Codable, Sendable {
    case begin, report, end
  }

  /// `WorkDoneProgressBegin`, `Report` and `End` in one type (the kind says which).
  struct WorkDoneProgress: Codable, Sendable, Equatable {
    var kind: WorkDoneProgressKind
    var title: String?
    var cancellable: Bool?
    var message: String?
    var percentage: Int?
  }

  struct WorkDoneProgressCreateParams: Codable, Sendable {
    var token: LSPAny
  }
}

extension LSP {
  struct ConfigurationItem: Codable, Sendable, Equatable {
    var scopeUri: String?
    var section: String?
  }

  struct ConfigurationParams: Codable, Sendable, Equatable {
    var items: [ConfigurationItem]
  }

  /// `workspace/didChangeWorkspaceFolders`.
  struct DidChangeWorkspaceFoldersParams: Codable, Sendable {
    var event: WorkspaceFoldersChangeEvent
  }

  struct WorkspaceFoldersChangeEvent: Codable, Sendable {
    var added: [WorkspaceFolder]
    var removed: [WorkspaceFolder]
  }

  struct DidChangeConfigurationParams: Codable, Sendable {
    var settings: LSPAny?
  }

  struct ExecuteCommandOptions: Codable, Sendable, Equatable {
    var commands: [String]
  }

  struct ExecuteCommandParams: Codable, Sendable {
    var command: String
    var arguments: [LSPAny]?
  }

  struct ApplyWorkspaceEditParams: Codable, Sendable, Equatable {
    var label: String?
    var edit: WorkspaceEdit
  }

  /// The result of `outline.convert`: the other form of the document, and where it would go.
  struct ConvertResult: Codable, Sendable, Equatable {
    var uri: String
    var text: String
  }
}
