import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineWorkspace

/// The language server (SPEC §7): lifecycle, document sync and dispatch by
/// ``MethodTable`` (which also builds the advertised capabilities); each
/// feature lives in `Features/`, written against ``DocumentStore`` and
/// ``Snapshot`` so tests call it in process.
///
/// Messages are applied in arrival order on one serial queue, which owns all
/// state. Requests run beside each other (``ServerWorkers``) against an immutable
/// snapshot of their document, so a slow analysis never holds up other requests, and
/// their replies go back through the serial queue, which answers every
/// request exactly once (with -32800 when it was cancelled meanwhile).
public final class LanguageServer: @unchecked Sendable {
  let connection: Connection
  private let state = DispatchQueue(label: "outline.lsp.state")
  private let workers = ServerWorkers()
  private var initialized = false
  private var shuttingDown = false
  var mapper = PositionMapper(unit: .utf16)
  /// The open documents, models and configurations (touched on the state queue only).
  let store = DocumentStore()
  private(set) var client = LSP.ClientCapabilities()
  private var pending: [String: CancellationFlag] = [:]  // by request id
  private var nextRequestID = 1
  /// What to do with the client's replies to the server's requests, by id.
  private var awaiting: [String: (JSONValue?) -> Void] = [:]
  /// How long work runs before it shows progress (`initializationOptions.progressDelay`, in ms).
  private var progressDelay: TimeInterval = 0.2
  /// Server-created progress tokens that began, by title.
  private var progressTokens: [String: JSONValue] = [:]
  /// Whether the client watches model and configuration files for the server.
  private var watchersRegistered = false
  /// Otherwise, their stamps, compared on each request.
  private let stamps = DependencyStamps()
  /// The configurations with problems an open outline's analysis read, by URI, with the
  /// store's generation they were read in: their OC100 diagnostics are published for the
  /// `.outline.json` (from disk while it is not open) until a change of the files fixes them.
  private var shownConfigurations: [String: (generation: Int, configuration: Configuration)] = [:]
  /// The workspace folders' paths (from `initialize`, kept current by
  /// `workspace/didChangeWorkspaceFolders`): what `workspace/diagnostic`,
  /// model references and renames search.
  private(set) var workspaceFolders: [String] = []
  /// The outline files under a folder, as `outline-lint` finds them (nil: only open documents).
  private let findOutlines: OutlineSearch?
  private let log: (String) -> Void
  private let exit: (Int32) -> Void

  /// A server on `connection`; `log` receives what is not worth an answer;
  /// `exit` is called with the status when the client sends `exit` (the
  /// process exits by default; the fuzz target records it instead).
  /// `findOutlines` lists the outlines of a workspace folder for
  /// `workspace/diagnostic` (the command passes the search `outline-lint` does).
  public init(
    connection: Connection, findOutlines: OutlineSearch? = nil, log: @escaping (String) -> Void,
    exit: ((Int32) -> Void)? = nil
  ) {
    self.connection = connection
    self.findOutlines = findOutlines
    self.log = log
    self.exit = exit ?? terminateProcess
  }

  /// Serves until `exit` or end of input; returns the process exit status.
  public func run() -> Int32 {
    connection.run(
      handler: { message in state.async { self.handle(message) } },
      onBadFrame: { problem in self.log("ignored a malformed frame: \(problem)") })
    // At the end of input, requests already read still get their replies.
    waitUntilIdle()
    return state.sync { shuttingDown ? 0 : 1 }
  }

  /// Waits until every message read so far has been handled and every
  /// request and analysis it started has replied or published.
  public func waitUntilIdle() {
    state.sync {}
    workers.waitUntilIdle()
    state.sync {}
  }

  /// What features read besides their document.
  var featureContext: FeatureContext {
    FeatureContext(
      mapper: mapper, workspaceEdits: workspaceEdits,
      snippets: client.textDocument?.completion?.completionItem?.snippetSupport ?? false)
  }

  /// How every workspace edit is written for this client (``WorkspaceEdits``).
  var workspaceEdits: WorkspaceEdits { WorkspaceEdits(client: client) }

  // MARK: Dispatch

  private func handle(_ message: Message) {
    switch message {
    case .invalid(let error, let id):
      connection.reply(to: id, error: error)
    case .response(let id, let result):
      awaiting.removeValue(forKey: key(id))?(result)
    case .notification(let method, let params):
      handleNotification(method, params)
    case .request(let id, let method, let params):
      handleRequest(id, method, params)
    }
  }

  private func handleNotification(_ method: String, _ params: JSONValue) {
    guard let route = MethodTable.byMethod[method] else { return }  // unknown notifications are ignored
    if case .baseProtocol = route.advertisement {
    } else if !initialized {
      return  // notifications before initialize are dropped
    }
    switch route.handler {
    case .lifecycle where method == "exit":
      // Requests already read still get their replies, then the process ends.
      let status: Int32 = shuttingDown ? 0 : 1
      afterWorkInFlight { self.exit(status) }
    case .notification(let body):
      do { try body(self, params) } catch { log(prefixed(describe(error), method)) }
    case .lifecycle, .request:
      break  // a request sent as a notification gets no reply
    }
  }

  private func handleRequest(_ id: JSONValue, _ method: String, _ params: JSONValue) {
    if method == "initialize" {
      guard !initialized else {
        return connection.reply(
          to: id,
          error: ResponseError(code: ErrorCode.invalidRequest, message: "initialize was already called"))
      }
      initialized = true
      return connection.reply(to: id, result: initializeResult(params))
    }
    guard initialized else {
      return connection.reply(
        to: id,
        error: ResponseError(code: ErrorCode.serverNotInitialized, message: "The server is not initialized"))
    }
    if shuttingDown && method != "shutdown" {
      return connection.reply(
        to: id, error: ResponseError(code: ErrorCode.invalidRequest, message: "The server is shutting down"))
    }
    if method == "shutdown" {
      shuttingDown = true
      // Replied once every request before it has replied.
      return afterWorkInFlight { self.connection.reply(to: id, result: .null) }
    }
    guard let route = MethodTable.byMethod[method], case .request(let prepare) = route.handler else {
      return connection.reply(
        to: id,
        error: ResponseError(
          code: ErrorCode.methodNotFound, message: "Unknown method \(Excerpt.quoted(method))"))
    }
    checkFilesOnDisk()
    // A document whose text the server lost: its answers would be about another text (pulled
    // diagnostics, which are empty for it, excepted).
    if method != "textDocument/diagnostic", let uri = params["textDocument"]?["uri"]?.stringValue,
      let snapshot = store[uri], !snapshot.inSync
    {
      return connection.reply(to: id, error: Self.lostText(uri))
    }
    let work: @Sendable (RequestContext) throws -> JSONValue
    do {
      work = try prepare(self, params)
    } catch {
      return connection.reply(to: id, error: responseError(error, method))
    }
    // The document a request's edits are for, and its version now: edits made for a version
    // the editor has since changed would land in the wrong places (checked before the reply).
    let editedDocument =
      MethodTable.editingMethods.contains(method)
      ? params["textDocument"]?["uri"]?.stringValue.flatMap { uri in store[uri].map { (uri, $0.version) } }
      : nil
    let requestKey = key(id)
    let cancellation = CancellationFlag()
    pending[requestKey] = cancellation
    let connection = self.connection
    let context = RequestContext(
      cancellation: cancellation, progressDelay: progressDelay, notify: { connection.notify($0, $1) })
    // A request that runs over 200 ms reports on the client's token (work that
    // reports its own steps, as workspace/diagnostic does, reads the token itself).
    let progress = params["workDoneToken"].flatMap { token -> DelayedProgress? in
      guard method != "workspace/diagnostic" else { return nil }
      return DelayedProgress(
        title: method, delay: progressDelay,
        send: DelayedProgress.sender(token: LSPAny(token), notify: { connection.notify($0, $1) }))
    }
    workers.async {
      let outcome: Result<JSONValue, ResponseError>
      do {
        outcome = .success(try work(context))
      } catch {
        outcome = .failure(self.responseError(error, method))
      }
      progress?.finish()
      self.state.async {
        self.pending[requestKey] = nil
        if cancellation.isCancelled {
          self.connection.reply(
            to: id,
            error: ResponseError(code: ErrorCode.requestCancelled, message: "The request was cancelled"))
          return
        }
        if case .success = outcome, let (uri, version) = editedDocument, self.store[uri]?.version != version {
          self.connection.reply(
            to: id,
            error: ResponseError(
              code: ErrorCode.contentModified,
              message: "The document changed while \(method) ran: its edits are for version \(version)"))
          return
        }
        switch outcome {
        case .success(let result): self.connection.reply(to: id, result: result)
        case .failure(let error): self.connection.reply(to: id, error: error)
        }
        self.learnFilesRead()
      }
    }
  }

  /// The reply for a failure: a protocol error as it is; anything else, from
  /// inside one feature, is an error reply, never a dead server.
  private nonisolated func responseError(_ error: Error, _ method: String) -> ResponseError {
    if let error = error as? ResponseError { return error }
    if error is RequestCancelled {
      return ResponseError(code: ErrorCode.requestCancelled, message: "The request was cancelled")
    }
    let text = describe(error)
    let named = text.hasPrefix(method + ":") || text.hasPrefix(method + " ")
    return ResponseError(
      code: ErrorCode.requestFailed, message: named ? text : "\(method) failed: \(text)")
  }

  private func key(_ id: JSONValue) -> String { id.serialized() }

  /// `$/cancelRequest`: the request, if still running, is answered with -32800.
  func cancel(_ id: JSONValue) {
    pending[key(id)]?.cancel()
  }

  /// Runs `body` on the state queue once every worker started has
  /// finished and handed its reply or diagnostics to the state queue.
  private func afterWorkInFlight(_ body: @escaping @Sendable () -> Void) {
    workers.whenIdle(on: state, body)
  }

  /// Sends a request to the client; `onReply` gets its result (nil for an error), on the state queue.
  func sendRequest<Params: Encodable>(
    _ method: String, _ params: Params, onReply: ((JSONValue?) -> Void)? = nil
  ) {
    guard let value = try? JSONValueCoding.encode(params) else { return }
    if let onReply { awaiting[key(.int(nextRequestID))] = onReply }
    connection.request(id: nextRequestID, method, value)
    nextRequestID += 1
  }

  /// Asks the client to apply `edit` (`workspace/applyEdit`), from any thread.
  func applyEdit(_ edit: LSP.WorkspaceEdit, label: String) {
    state.async {
      self.sendRequest("workspace/applyEdit", LSP.ApplyWorkspaceEditParams(label: label, edit: edit))
    }
  }

  /// Sends a notification to the client.
  func sendNotification<Params: Encodable>(_ method: String, _ params: Params) {
    guard let value = try? JSONValueCoding.encode(params) else { return }
    connection.notify(method, value)
  }

  // MARK: Lifecycle

  private func initializeResult(_ params: JSONValue) -> JSONValue {
    // Lenient: a client whose capabilities do not decode is served with none.
    let initialize = try? JSONValueCoding.decode(LSP.InitializeParams.self, from: params)
    client = initialize?.capabilities ?? LSP.ClientCapabilities()
    workspaceFolders = (initialize?.workspaceFolders?.map(\.uri) ?? initialize?.rootUri.map { [$0] } ?? [])
      .compactMap(Snapshot.path(of:))
    if let milliseconds = initialize?.initializationOptions?.value["progressDelay"]?.intValue,
      milliseconds >= 0
    {
      progressDelay = TimeInterval(milliseconds) / 1000
    }
    let offered = client.general?.positionEncodings ?? []
    mapper = PositionMapper(unit: offered.contains("utf-8") ? .utf8 : .utf16)
    let result = LSP.InitializeResult(
      capabilities: MethodTable.capabilities(positionEncoding: mapper.unit == .utf8 ? "utf-8" : "utf-16"),
      serverInfo: .init(name: "outline", version: ToolVersion.current))
    return (try? JSONValueCoding.encode(result)) ?? .null
  }

  /// `initialized`: registers what the client registers dynamically.
  func didInitialize() {
    let registrations = MethodTable.routes.compactMap { route -> LSP.Registration? in
      guard case .registration(let register) = route.advertisement else { return nil }
      return register(client)
    }
    if !registrations.isEmpty {
      sendRequest("client/registerCapability", LSP.RegistrationParams(registrations: registrations))
    }
    watchersRegistered = registrations.contains { $0.method == "workspace/didChangeWatchedFiles" }
    requestSettings()
  }

  // MARK: Settings

  /// Asks the client for section `outline` (`workspace/configuration`), when it answers such requests.
  private func requestSettings() {
    guard client.workspace?.configuration == true else { return }
    sendRequest(
      "workspace/configuration", LSP.ConfigurationParams(items: [LSP.ConfigurationItem(section: "outline")])
    ) { result in
      self.useSettings(EditorSettings(result?.arrayValue?.first))
    }
  }

  /// `workspace/didChangeConfiguration`: settings pushed with it are used;
  /// without them, they are asked for.
  func configurationChanged(_ params: LSP.DidChangeConfigurationParams) {
    if let section = params.settings?.value["outline"] {
      useSettings(EditorSettings(section))
    } else {
      requestSettings()
    }
  }

  private func useSettings(_ settings: EditorSettings) {
    for problem in settings.problems { log("settings: \(problem)") }
    guard settings != store.settings else { return }
    store.settings = settings
    dependenciesChanged()
  }

  /// `workspace/didChangeWorkspaceFolders`: the removed folders are dropped,
  /// the added ones appended (once each); pull clients are asked to refresh,
  /// since the workspace's report changed.
  func workspaceFoldersChanged(_ params: LSP.DidChangeWorkspaceFoldersParams) {
    let folders = Self.folders(workspaceFolders, after: params.event)
    guard folders != workspaceFolders else { return }
    workspaceFolders = folders
    refreshPulledDiagnostics()
  }

  /// The folders' paths after `event`: the removed ones dropped, the added ones appended once each.
  static func folders(_ current: [String], after event: LSP.WorkspaceFoldersChangeEvent) -> [String] {
    let removed = Set(event.removed.compactMap { Snapshot.path(of: $0.uri) })
    var folders = current.filter { !removed.contains($0) }
    for path in event.added.compactMap({ Snapshot.path(of: $0.uri) }) where !folders.contains(path) {
      folders.append(path)
    }
    return folders
  }

  /// `workspace/diagnostic` over this server's folders and open documents, as they are now.
  func workspaceDiagnostics() -> WorkspaceDiagnosticsFeature {
    WorkspaceDiagnosticsFeature(
      mapper: mapper, folders: workspaceFolders, open: Array(store.documents.values), store: store,
      generation: store.generation, findOutlines: findOutlines)
  }

  /// References from a model file over this server's folders and open documents.
  func modelReferences() -> ModelReferences {
    ModelReferences(
      mapper: mapper, folders: workspaceFolders, open: Array(store.documents.values), store: store,
      findOutlines: findOutlines)
  }

  // MARK: Synchronization

  func didOpen(_ params: LSP.DidOpenTextDocumentParams) {
    let item = params.textDocument
    store.open(uri: item.uri, version: item.version ?? 0, text: item.text.bytes)
    publishDiagnostics(item.uri)
  }

  /// `didChange`: every change that can be read is applied (a reversed range as the range
  /// between its positions, noted in the client's log); one that cannot be read leaves the server
  /// without the editor's text, which the user is told: its diagnostics are withdrawn and requests
  /// about it refused until a change gives the whole text (or it is opened again).
  func didChange(_ params: LSP.DidChangeTextDocumentParams) {
    let uri = params.textDocument.uri
    // Only the flag is read: a reference to the snapshot held across the change would keep the
    // store from editing its text in place (it would copy the whole text each keystroke).
    guard let wasInSync = store[uri]?.inSync else { return log("didChange for a document that is not open") }
    guard
      let outcome = store.change(
        uri: uri, version: params.textDocument.version, read: params.contentChanges, mapper: mapper)
    else { return }
    let name = URL(string: uri)?.lastPathComponent ?? uri
    let version = outcome.snapshot.version
    if outcome.reversedRanges > 0 {
      sendMessage(
        "window/logMessage", .warning,
        "\(name) version \(version): \(outcome.reversedRanges) change(s) with a range ending before its start, "
          + "applied as the range between the two positions")
    }
    if let lost = outcome.lost {
      log(
        "didChange of \(uri) version \(version) could not be applied (\(lost)); the document is out of sync")
      sendMessage(
        "window/showMessage", .warning,
        "outline lost the text of \(name) at version \(version): a change could not be applied (\(lost)). "
          + "Its diagnostics are withdrawn and requests about it refused until it is closed and opened again."
      )
    } else if outcome.snapshot.inSync && !wasInSync {
      sendMessage("window/logMessage", .info, "\(name) version \(version): the whole text came; back in sync")
    }
    publishDiagnostics(uri)
  }

  /// The error for a request about a document whose text the server lost.
  static func lostText(_ uri: String) -> ResponseError {
    ResponseError(
      code: ErrorCode.contentModified,
      message: "The server lost the text of \(uri) (a change could not be applied): close and open it again")
  }

  /// Refuses work over every open document (renames, references from a model) while the server
  /// lost the text of one: its edits or locations would be for another text.
  func requireDocumentsInSync() throws {
    if let lost = store.documents.values.first(where: { !$0.inSync }) { throw Self.lostText(lost.uri) }
  }

  /// Sends `window/showMessage` or `window/logMessage`.
  private func sendMessage(_ method: String, _ type: LSP.MessageType, _ message: String) {
    sendNotification(method, LSP.MessageParams(type: type, message: message))
  }

  func didClose(_ params: LSP.DidCloseTextDocumentParams) {
    let uri = params.textDocument.uri
    store.close(uri: uri)
    // A configuration with problems an outline reads: its problems as it is on disk, else none.
    publishOnDisk(uri, shownConfigurations[uri]?.configuration)
  }

  func didSave(_ params: LSP.DidSaveTextDocumentParams) {
    let uri = params.textDocument.uri
    if store[uri] == nil || !uri.hasSuffix(".outline") { dependenciesChanged() }
  }

  func watchedFilesChanged(_ params: LSP.DidChangeWatchedFilesParams) {
    if params.changes.contains(where: { WatchedFiles.affectsAnalysis($0.uri) }) {
      dependenciesChanged()
    } else if params.changes.contains(where: { WatchedFiles.isOutline($0.uri) }) {
      refreshPulledDiagnostics()  // a closed outline changed: the workspace's report did
    }
  }

  /// Without watchers: a model or configuration file an analysis read changed on disk since.
  private func checkFilesOnDisk() {
    if !watchersRegistered && stamps.changed() { dependenciesChanged() }
  }

  /// Without watchers: remembers the stamps of files analyses read for the first time.
  private func learnFilesRead() {
    guard !watchersRegistered else { return }
    stamps.learn(DependencyStamps.paths(models: store.models, configurations: store.configurations))
  }

  // MARK: Analysis and diagnostics

  /// Analyzes the current version off the state queue and publishes, unless a newer version arrived.
  private func publishDiagnostics(_ uri: String) {
    guard let snapshot = store[uri] else { return }
    let mapper = self.mapper
    let reportsProgress = client.window?.workDoneProgress == true
    let delay = progressDelay
    // The snapshot is held weakly, and strongly only while it is rendered:
    // the next change finds the published version unshared and edits its
    // text and tree in place (a reference left here, on a thread the machine
    // has not run again yet, would have it copy them).
    workers.async { [weak snapshot] in
      let rendered: (serial: Int, version: Int, diagnostics: JSONValue, configuration: Configuration?)? = {
        // Skip work for a version that is already stale.
        guard let snapshot, self.state.sync(execute: { self.store[uri] === snapshot }) else { return nil }
        // An analysis over 200 ms shows progress, on a token the server creates.
        let progress =
          reportsProgress
          ? self.serverProgress(delay: delay, "Checking \(URL(string: uri)?.lastPathComponent ?? uri)") : nil
        // Written as JSON text here, off the state queue: a document with
        // 200,000 problems is 75 MB of it.
        let diagnostics = DiagnosticsFeature.json(snapshot, mapper: mapper)
        progress?.finish()
        // The configuration the analysis read (made already, for the diagnostics).
        let configuration =
          snapshot.isOutlineDocument && snapshot.inSync ? snapshot.analysis.configuration : nil
        return (snapshot.serial, snapshot.version, diagnostics, configuration)
      }()
      guard let rendered else { return }
      self.state.async {
        self.learnFilesRead()
        guard self.store[uri]?.serial == rendered.serial else { return }
        // `PublishDiagnosticsParams`' members, in its order.
        self.connection.notify(
          "textDocument/publishDiagnostics",
          ["uri": .string(uri), "version": .int(rendered.version), "diagnostics": rendered.diagnostics])
        self.showConfiguration(rendered.configuration)
      }
    }
  }

  /// Publishes the problems of `configuration`, which an open outline's analysis read, for the
  /// `.outline.json` itself, once per generation of the store, unless the editor has it open (its
  /// own diagnostics then come from its text).
  private func showConfiguration(_ configuration: Configuration?) {
    guard let configuration, !configuration.diagnostics.isEmpty else { return }
    let uri = ConfigurationDiagnostics.uri(of: configuration)
    guard shownConfigurations[uri]?.generation != store.generation else { return }
    shownConfigurations[uri] = (store.generation, configuration)
    publishOnDisk(uri, configuration)
  }

  /// Publishes, for the configuration file at `uri` while the editor does not have it open, the
  /// problems of `configuration` as it is on disk, or none (an open one's come from its text).
  private func publishOnDisk(_ uri: String, _ configuration: Configuration?) {
    guard store[uri] == nil else { return }
    connection.notify(
      "textDocument/publishDiagnostics",
      [
        "uri": .string(uri),
        "diagnostics": configuration.map { ConfigurationDiagnostics.json($0, mapper: mapper) } ?? [],
      ])
  }

  /// After the files changed: each configuration shown is read again, and its problems are
  /// published anew, or an empty list once it has none (or is gone).
  private func refreshShownConfigurations() {
    for (uri, shown) in shownConfigurations {
      let now = store.configurations.configuration(for: shown.configuration.folder + "/-")
      if let now, now.path == shown.configuration.path, !now.diagnostics.isEmpty {
        shownConfigurations[uri] = (store.generation, now)
        publishOnDisk(uri, now)
      } else {
        shownConfigurations[uri] = nil
        publishOnDisk(uri, nil)
      }
    }
  }

  /// Progress on a token the server creates (`window/workDoneProgress/create`)
  /// once the work has run 200 ms, used once the client accepted it.
  private nonisolated func serverProgress(delay: TimeInterval, _ title: String) -> DelayedProgress {
    let connection = self.connection
    let id = UUID().uuidString
    return DelayedProgress(title: title, delay: delay) { value in
      self.state.async {
        if value.kind == .begin {
          let token = JSONValue.string("outline-progress-\(id)")
          self.progressTokens[id] = .null  // asked for
          self.sendRequest(
            "window/workDoneProgress/create", LSP.WorkDoneProgressCreateParams(token: LSPAny(token))
          ) {
            reply in
            // Refused, or the work ended before the client answered: nothing to show.
            guard reply != nil, self.progressTokens[id] == .null else {
              self.progressTokens[id] = nil
              return
            }
            self.progressTokens[id] = token
            DelayedProgress.sender(token: LSPAny(token), notify: { connection.notify($0, $1) })(value)
          }
        } else if let token = self.progressTokens.removeValue(forKey: id), token != .null {
          DelayedProgress.sender(token: LSPAny(token), notify: { connection.notify($0, $1) })(value)
        }
      }
    }
  }

  /// A model or configuration changed: forget cached ones, re-validate
  /// every open document and publish, and ask a pull client to pull again.
  private func dependenciesChanged() {
    store.dependenciesChanged()
    refreshShownConfigurations()
    for uri in store.documents.keys { publishDiagnostics(uri) }
    refreshPulledDiagnostics()
  }

  /// Asks a pull client to pull document and workspace diagnostics again.
  private func refreshPulledDiagnostics() {
    guard client.workspace?.diagnostics?.refreshSupport == true else { return }
    connection.send(["jsonrpc": "2.0", "id": .int(nextRequestID), "method": "workspace/diagnostic/refresh"])
    nextRequestID += 1
  }
}

/// One line for an error thrown inside the server.
/// `text` (a message about `method`) after `method: `, unless it names the method already
/// (`$/cancelRequest: id is missing`, made by the params' decoding, is not prefixed twice).
private func prefixed(_ text: String, _ method: String) -> String {
  text.hasPrefix(method + ":") || text.hasPrefix(method + " ") ? text : "\(method): \(text)"
}

private func describe(_ error: Error) -> String {
  if let error = error as? ResponseError { return error.message }
  if let error = error as? DecodingError { return JSONValueCoding.describe(error) }
  return "\(error)"
}

/// Ends the process with `status` (the default response to the `exit` notification).
private func terminateProcess(_ status: Int32) {
  exit(status)
}
