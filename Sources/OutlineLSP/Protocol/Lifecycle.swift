extension LSP {
  struct InitializeParams: Codable, Sendable {
    var processId: Int?
    var rootUri: String?
    var capabilities: ClientCapabilities
    var workspaceFolders: [WorkspaceFolder]?
    var initializationOptions: LSPAny?
  }

  struct WorkspaceFolder: Codable, Sendable, Equatable {
    var uri: String
    var name: String
  }

  /// What the server reads of the client's capabilities; the rest is ignored.
  struct ClientCapabilities: Codable, Sendable {
    struct General: Codable, Sendable {
      var positionEncodings: [String]?
    }
    struct DynamicRegistration: Codable, Sendable {
      var dynamicRegistration: Bool?
    }
    struct Refresh: Codable, Sendable {
      var refreshSupport: Bool?
    }
    struct Workspace: Codable, Sendable {
      var didChangeWatchedFiles: DynamicRegistration?
      var didChangeConfiguration: DynamicRegistration?
      var diagnostics: Refresh?
      var configuration: Bool?
      var workspaceFolders: Bool?
      var workspaceEdit: WorkspaceEdit?
    }
    struct WorkspaceEdit: Codable, Sendable {
      var documentChanges: Bool?
    }
    struct Window: Codable, Sendable {
      var workDoneProgress: Bool?
    }
    struct TextDocument: Codable, Sendable {
      var completion: Completion?
    }
    struct Completion: Codable, Sendable {
      var completionItem: CompletionItem?
    }
    struct CompletionItem: Codable, Sendable {
      var snippetSupport: Bool?
    }
    var general: General?
    var workspace: Workspace?
    var window: Window?
    var textDocument: TextDocument?
  }

  struct InitializeResult: Codable, Sendable {
    struct ServerInfo: Codable, Sendable {
      var name: String
      var version: String?
    }
    var capabilities: ServerCapabilities
    var serverInfo: ServerInfo?
  }

  enum TextDocumentSyncKind: Int, Codable, Sendable {
    case none = 0, full = 1, incremental = 2
  }

  struct SaveOptions: Codable, Sendable, Equatable {
    var includeText: Bool
  }

  struct TextDocumentSyncOptions: Codable, Sendable, Equatable {
    var openClose: Bool?
    var change: TextDocumentSyncKind?
    var save: SaveOptions?
  }

  struct DiagnosticOptions: Codable, Sendable, Equatable {
    var identifier: String?
    var interFileDependencies: Bool
    var workspaceDiagnostics: Bool
  }

  struct CodeActionOptions: Codable, Sendable, Equatable {
    var codeActionKinds: [CodeActionKind]
    var resolveProvider: Bool
  }

  struct CompletionOptions: Codable, Sendable, Equatable {
    var triggerCharacters: [String]
    var resolveProvider: Bool
  }

  struct RenameOptions: Codable, Sendable, Equatable {
    var prepareProvider: Bool
  }

  /// What the server advertises. Only the routes of ``MethodTable`` set
  /// these (each sets what it serves), so the two cannot disagree; add a
  /// field here when a new method needs a capability of its own.
  struct ServerCapabilities: Codable, Sendable, Equatable {
    var positionEncoding: String?
    var textDocumentSync: TextDocumentSyncOptions?
    var diagnosticProvider: DiagnosticOptions?
    var foldingRangeProvider: Bool?
    var documentSymbolProvider: Bool?
    var documentFormattingProvider: Bool?
    var codeActionProvider: CodeActionOptions?
    var hoverProvider: Bool?
    var completionProvider: CompletionOptions?
    var definitionProvider: Bool?
    var referencesProvider: Bool?
    var renameProvider: RenameOptions?
    var executeCommandProvider: ExecuteCommandOptions?
    var typeDefinitionProvider: Bool?
    var documentLinkProvider: DocumentLinkOptions?
    var selectionRangeProvider: Bool?
    var linkedEditingRangeProvider: Bool?
    var documentHighlightProvider: Bool?
    var inlayHintProvider: InlayHintOptions?
    var codeLensProvider: CodeLensOptions?
    var semanticTokensProvider: SemanticTokensOptions?
    var documentRangeFormattingProvider: Bool?
    var documentOnTypeFormattingProvider: DocumentOnTypeFormattingOptions?
    var workspace: WorkspaceServerCapabilities?
  }

  /// `workspace` in the server's capabilities: the folders it follows.
  struct WorkspaceServerCapabilities: Codable, Sendable, Equatable {
    var workspaceFolders: WorkspaceFoldersServerCapabilities?
  }

  struct WorkspaceFoldersServerCapabilities: Codable, Sendable, Equatable {
    var supported: Bool
    var changeNotifications: Bool
  }

  struct DocumentLinkOptions: Codable, Sendable, Equatable {
    var resolveProvider: Bool
  }

  struct CancelParams: Codable, Sendable {
    var id: LSPAny
  }
}

extension LSP {
  struct Registration: Codable, Sendable, Equatable {
    var id: String
    var method: String
    var registerOptions: LSPAny?
  }

  struct RegistrationParams: Codable, Sendable, Equatable {
    var registrations: [Registration]
  }

  struct FileSystemWatcher: Codable, Sendable, Equatable {
    var globPattern: String
  }

  struct DidChangeConfigurationRegistrationOptions: Codable, Sendable, Equatable {
    var section: String
  }

  struct DidChangeWatchedFilesRegistrationOptions: Codable, Sendable, Equatable {
    var watchers: [FileSystemWatcher]
  }
}
