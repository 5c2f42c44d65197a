import JSONRPC
import OutlineJSON

/// What a feature reads besides its document and params.
struct FeatureContext: Sendable {
  /// Positions in the negotiated encoding.
  let mapper: PositionMapper
  /// How workspace edits are written for the client.
  let workspaceEdits: WorkspaceEdits
  /// Whether the client takes snippets in completions.
  var snippets = false
}

/// One method the server serves, what it advertises for it, and how it runs.
struct Route: Sendable {
  enum Handler: Sendable {
    /// `initialize`, `shutdown` and `exit`: the server's lifecycle code answers them.
    case lifecycle
    /// A notification, applied on the state queue in arrival order.
    case notification(@Sendable (LanguageServer, JSONValue) throws -> Void)
    /// A request: the closure runs on the state queue (decoding, finding the
    /// document) and returns the work a worker thread runs for the reply.
    case request(
      @Sendable (LanguageServer, JSONValue) throws -> @Sendable (RequestContext) throws -> JSONValue)
  }

  /// How the client learns that the server serves a method.
  enum Advertisement: Sendable {
    /// The base protocol (lifecycle, `$/` notifications): every server serves it.
    case baseProtocol
    /// Sets what the method advertises in the `initialize` result.
    case capability(@Sendable (inout LSP.ServerCapabilities) -> Void)
    /// Registered with `client/registerCapability` after `initialized`, when
    /// the client supports dynamic registration of `method` (nil: it does not).
    case registration(@Sendable (LSP.ClientCapabilities) -> LSP.Registration?)
  }

  /// The method name, as on the wire.
  let method: String
  let advertisement: Advertisement
  let handler: Handler

  init(method: String, advertise: Advertisement, handler: Handler) {
    self.method = method
    self.advertisement = advertise
    self.handler = handler
  }

  /// Sets what this route advertises in `capabilities`.
  func advertise(in capabilities: inout LSP.ServerCapabilities) {
    if case .capability(let set) = advertisement { set(&capabilities) }
  }

  var isRequest: Bool {
    switch handler {
    case .lifecycle: method != "exit"
    case .notification: false
    case .request: true
    }
  }

  /// A request about one open document, answered from its snapshot on a worker thread.
  static func document<
    Params: LSP.TextDocumentParams & SendableMetatype, Result: Encodable & SendableMetatype
  >(
    _ method: String, advertise: @escaping @Sendable (inout LSP.ServerCapabilities) -> Void,
    _ body: @escaping @Sendable (FeatureContext, Snapshot, Params) throws -> Result
  ) -> Route {
    Route(
      method: method, advertise: .capability(advertise),
      handler: .request { server, json in
        guard json.isObject else { throw ResponseError.invalidParams("\(method) needs textDocument.uri") }
        let params = try JSONValueCoding.params(Params.self, from: json, method: method)
        let uri = params.textDocument.uri
        guard let snapshot = server.store[uri] else {
          throw ResponseError.invalidParams("\(uri) is not open")
        }
        let context = server.featureContext
        return { _ in try JSONValueCoding.encode(body(context, snapshot, params)) }
      })
  }

  /// A request that is not about one document: `prepare` runs on the state
  /// queue and returns the work, which may report progress and is cancellable.
  static func request<Params: Decodable & SendableMetatype, Result: Encodable & SendableMetatype>(
    _ method: String, advertise: @escaping @Sendable (inout LSP.ServerCapabilities) -> Void,
    _ prepare:
      @escaping @Sendable (LanguageServer, Params) throws -> @Sendable (RequestContext) throws -> Result
  ) -> Route {
    Route(
      method: method, advertise: .capability(advertise),
      handler: .request { server, json in
        let work = try prepare(server, try JSONValueCoding.params(Params.self, from: json, method: method))
        return { context in try JSONValueCoding.encode(work(context)) }
      })
  }

  /// A notification with typed params; params that do not decode are logged and dropped.
  static func notification<Params: Decodable & SendableMetatype>(
    _ method: String, advertise: Advertisement,
    _ body: @escaping @Sendable (LanguageServer, Params) -> Void
  ) -> Route {
    Route(
      method: method, advertise: advertise,
      handler: .notification { server, json in
        body(server, try JSONValueCoding.params(Params.self, from: json, method: method))
      })
  }
}

/// The one table of methods: the server dispatches by it and builds its
/// advertised capabilities from it, so no method is served unadvertised or
/// advertised unserved. Adding a method is one entry here (plus its
/// params/result types in `Protocol/` and its feature in `Features/`).
enum MethodTable {
  /// Every route: those below and the editing features' (``editorRoutes``, in `EditorRoutes.swift`).
  static let routes: [Route] = coreRoutes + editorRoutes

  static let coreRoutes: [Route] = [
    // Lifecycle and the base protocol: advertised by nothing.
    Route(method: "initialize", advertise: .baseProtocol, handler: .lifecycle),
    Route(method: "shutdown", advertise: .baseProtocol, handler: .lifecycle),
    Route(method: "exit", advertise: .baseProtocol, handler: .lifecycle),
    .notification("initialized", advertise: .baseProtocol) { (server, _: LSPAny) in server.didInitialize() },
    .notification("$/cancelRequest", advertise: .baseProtocol) { (server, params: LSP.CancelParams) in
      server.cancel(params.id.value)
    },
    .notification("$/setTrace", advertise: .baseProtocol) { (_: LanguageServer, _: LSPAny) in },

    // Document synchronization.
    .notification("textDocument/didOpen", advertise: .capability { $0.sync.openClose = true }) {
      (server, params: LSP.DidOpenTextDocumentParams) in server.didOpen(params)
    },
    .notification("textDocument/didChange", advertise: .capability { $0.sync.change = .incremental }) {
      (server, params: LSP.DidChangeTextDocumentParams) in server.didChange(params)
    },
    .notification("textDocument/didClose", advertise: .capability { $0.sync.openClose = true }) {
      (server, params: LSP.DidCloseTextDocumentParams) in server.didClose(params)
    },
    .notification(
      "textDocument/didSave", advertise: .capability { $0.sync.save = LSP.SaveOptions(includeText: false) }
    ) {
      (server, params: LSP.DidSaveTextDocumentParams) in server.didSave(params)
    },
    .notification("workspace/didChangeConfiguration", advertise: .registration(EditorSettings.registration)) {
      (server, params: LSP.DidChangeConfigurationParams) in server.configurationChanged(params)
    },
    .notification("workspace/didChangeWatchedFiles", advertise: .registration(WatchedFiles.registration)) {
      (server, params: LSP.DidChangeWatchedFilesParams) in server.watchedFilesChanged(params)
    },
    .notification(
      "workspace/didChangeWorkspaceFolders",
      advertise: .capability {
        $0.workspace = LSP.WorkspaceServerCapabilities(
          workspaceFolders: LSP.WorkspaceFoldersServerCapabilities(supported: true, changeNotifications: true)
        )
      }
    ) { (server, params: LSP.DidChangeWorkspaceFoldersParams) in server.workspaceFoldersChanged(params) },

    // Language features.
    .document(
      "textDocument/diagnostic",
      advertise: {
        $0.diagnosticProvider = LSP.DiagnosticOptions(
          interFileDependencies: true,
          workspaceDiagnostics: $0.diagnosticProvider?.workspaceDiagnostics ?? false)
      }
    ) { context, snapshot, params in DiagnosticsFeature(mapper: context.mapper).pull(snapshot, params) },
    .request(
      "workspace/diagnostic",
      advertise: {
        $0.diagnosticProvider = LSP.DiagnosticOptions(interFileDependencies: true, workspaceDiagnostics: true)
      }
    ) { (server, params: LSP.WorkspaceDiagnosticParams) in
      let feature = server.workspaceDiagnostics()
      return { context in try feature.run(params, context: context) }
    },
    .document("textDocument/foldingRange", advertise: { $0.foldingRangeProvider = true }) {
      (context, snapshot, _: LSP.DocumentParams) in FoldingFeature(mapper: context.mapper).ranges(snapshot)
    },
    .request("textDocument/documentSymbol", advertise: { $0.documentSymbolProvider = true }) {
      (server, params: LSP.DocumentSymbolParams) in
      guard let snapshot = server.store[params.textDocument.uri] else {
        throw ResponseError.invalidParams("\(params.textDocument.uri) is not open")
      }
      let feature = SymbolsFeature(mapper: server.featureContext.mapper)
      return { context in
        try feature.symbols(snapshot, streamingOn: params.partialResultToken, context: context)
      }
    },
    .document("textDocument/formatting", advertise: { $0.documentFormattingProvider = true }) {
      (context, snapshot, _: LSP.DocumentFormattingParams) in
      FormattingFeature(mapper: context.mapper).format(snapshot)
    },
    .document(
      "textDocument/codeAction",
      advertise: {
        $0.codeActionProvider = LSP.CodeActionOptions(
          codeActionKinds: [.quickFix, .sourceFixAll, .refactorRewrite], resolveProvider: false)
      }
    ) { context, snapshot, params in
      try CodeActionsFeature(mapper: context.mapper, workspaceEdits: context.workspaceEdits).actions(
        snapshot, params)
    },
    .document("textDocument/hover", advertise: { $0.hoverProvider = true }) {
      (context, snapshot, params: LSP.TextDocumentPositionParams) in
      try HoverFeature(mapper: context.mapper).hover(snapshot, params)
    },
    .document(
      "textDocument/completion",
      advertise: {
        $0.completionProvider = LSP.CompletionOptions(
          triggerCharacters: ["<", "/", " ", "\""], resolveProvider: false)
      }
    ) { (context, snapshot, params: LSP.TextDocumentPositionParams) in
      try CompletionFeature(mapper: context.mapper, snippets: context.snippets).complete(snapshot, params)
    },
    .document("textDocument/definition", advertise: { $0.definitionProvider = true }) {
      (context, snapshot, params: LSP.TextDocumentPositionParams) in
      try NavigationFeature(mapper: context.mapper).definition(snapshot, params)
    },
    .request("textDocument/references", advertise: { $0.referencesProvider = true }) {
      (server, params: LSP.ReferenceParams) in
      // In an outline: an id's references. In a model file: the uses of what it declares.
      let uri = params.textDocument.uri
      if let snapshot = server.store[uri], !(snapshot.path.map(ModelReferences.isModelFile) ?? false) {
        let mapper = server.mapper
        return { _ in try NavigationFeature(mapper: mapper).references(snapshot, params) }
      }
      guard let path = Snapshot.path(of: uri), ModelReferences.isModelFile(path) else {
        throw ResponseError.invalidParams("\(uri) is not open")
      }
      try server.requireDocumentsInSync()
      let references = server.modelReferences()
      return { context in
        try references.references(
          path: path, position: params.position,
          includeDeclaration: params.context?.includeDeclaration ?? true,
          context: context)
      }
    },
    .document("textDocument/typeDefinition", advertise: { $0.typeDefinitionProvider = true }) {
      (context, snapshot, params: LSP.TextDocumentPositionParams) in
      try ModelNavigationFeature(mapper: context.mapper).typeDefinition(snapshot, params)
    },
    .document(
      "textDocument/documentLink",
      advertise: { $0.documentLinkProvider = LSP.DocumentLinkOptions(resolveProvider: false) }
    ) {
      (context, snapshot, _: LSP.DocumentParams) in
      ModelNavigationFeature(mapper: context.mapper).links(snapshot)
    },
    // Ids in their document; attribute and relationship names in the model and every outline using it.
    .request(
      "textDocument/prepareRename",
      advertise: { $0.renameProvider = LSP.RenameOptions(prepareProvider: true) }
    ) { (server, params: LSP.TextDocumentPositionParams) in
      try server.requireDocumentsInSync()
      let feature = server.renames()
      return { _ in try feature.prepare(uri: params.textDocument.uri, position: params.position) }
    },
    .request(
      "textDocument/rename",
      advertise: {
        $0.renameProvider = LSP.RenameOptions(prepareProvider: $0.renameProvider?.prepareProvider ?? false)
      }
    ) { (server, params: LSP.RenameParams) in
      try server.requireDocumentsInSync()
      let feature = server.renames()
      return { context in try feature.rename(params, context: context) }
    },
    .request(
      "workspace/executeCommand",
      advertise: { $0.executeCommandProvider = LSP.ExecuteCommandOptions(commands: CommandsFeature.all) }
    ) { (server, params: LSP.ExecuteCommandParams) in
      let work = try CommandsFeature(
        mapper: server.mapper, workspaceEdits: server.workspaceEdits, store: server.store
      ).prepare(params)
      return { _ in
        let outcome = try work()
        if let edit = outcome.edit { server.applyEdit(edit, label: params.command) }
        return outcome.result
      }
    },
  ]

  /// The requests whose result is edits of the document they name (`textDocument.uri`), as
  /// `TextEdit`s no version goes with: answered with ContentModified (-32801) instead when the
  /// document changed or closed while they ran.
  static let editingMethods: Set<String> = [
    "textDocument/formatting", "textDocument/rangeFormatting", "textDocument/onTypeFormatting",
    "textDocument/rename",
  ]

  /// The routes by method name.
  static let byMethod: [String: Route] = Dictionary(uniqueKeysWithValues: routes.map { ($0.method, $0) })

  /// The capabilities `routes` advertise, with the negotiated position encoding.
  static func capabilities(of routes: [Route] = routes, positionEncoding: String?) -> LSP.ServerCapabilities {
    var capabilities = LSP.ServerCapabilities()
    capabilities.positionEncoding = positionEncoding
    for route in routes { route.advertise(in: &capabilities) }
    return capabilities
  }
}

extension LSP.ServerCapabilities {
  /// The sync options, created on first use by the routes that set them.
  var sync: LSP.TextDocumentSyncOptions {
    get { textDocumentSync ?? LSP.TextDocumentSyncOptions() }
    set { textDocumentSync = newValue }
  }
}
