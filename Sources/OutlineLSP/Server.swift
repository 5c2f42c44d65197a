import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineWorkspace

/// The language server (SPEC §7): lifecycle, document sync and one dispatch
/// `switch`; each feature lives in `Features/`.
///
/// Messages are applied in arrival order on one serial queue, which owns all
/// state. Requests run on a concurrent queue against an immutable snapshot of
/// their document, so a slow analysis never holds up other requests, and
/// their replies go back through the serial queue, which answers every
/// request exactly once (with -32800 when it was cancelled meanwhile).
public final class LanguageServer: @unchecked Sendable {
  let connection: Connection
  private let state = DispatchQueue(label: "outline.lsp.state")
  private let workers = DispatchQueue(label: "outline.lsp.work", attributes: .concurrent)
  private var initialized = false
  private var shuttingDown = false
  var mapper = PositionMapper(unit: .utf16)
  private(set) var documents: [String: Snapshot] = [:]
  private var pending: [String: Bool] = [:]  // request id -> cancelled
  let configurations = ConfigurationFinder()
  let models = ModelCache()
  private let log: (String) -> Void
  private let exit: (Int32) -> Void

  /// A server on `connection`; `log` receives what is not worth an answer;
  /// `exit` is called with the status when the client sends `exit` (the
  /// process exits by default; the fuzz target records it instead).
  public init(
    connection: Connection, log: @escaping (String) -> Void,
    exit: ((Int32) -> Void)? = nil
  ) {
    self.connection = connection
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
    workers.sync(flags: .barrier) {}
    state.sync {}
  }

  // MARK: Dispatch

  private func handle(_ message: Message) {
    switch message {
    case .invalid(let error):
      connection.reply(to: .null, error: error)
    case .response:
      break
    case .notification(let method, let params):
      handleNotification(method, params)
    case .request(let id, let method, let params):
      handleRequest(id, method, params)
    }
  }

  private func handleNotification(_ method: String, _ params: JSONValue) {
    switch method {
    case "exit":
      // Requests already read still get their replies, then the process ends.
      let status: Int32 = shuttingDown ? 0 : 1
      afterWorkInFlight { self.exit(status) }
    case "initialized":
      break
    case "$/cancelRequest":
      if let id = params["id"], pending[key(id)] != nil { pending[key(id)] = true }
    case _ where !initialized:
      break  // notifications before initialize are dropped
    case "textDocument/didOpen":
      guard let item = params["textDocument"], let uri = item["uri"]?.stringValue,
        let text = item["text"]?.utf8Value
      else { return log("didOpen without textDocument") }
      documents[uri] = Snapshot(
        uri: uri, version: item["version"]?.intValue ?? 0, source: SourceText(bytes: text),
        analyze: analyzer())
      publishDiagnostics(uri)
    case "textDocument/didChange":
      guard let uri = params["textDocument"]?["uri"]?.stringValue, let document = documents[uri],
        let changes = params["contentChanges"]?.arrayValue
      else { return log("didChange for a document that is not open") }
      guard let source = ContentChanges.apply(changes, to: document.source, mapper: mapper) else {
        return log("didChange with a change that is not a text change; ignored")
      }
      let version = params["textDocument"]?["version"]?.intValue ?? document.version + 1
      documents[uri] = document.replacing(version: version, source: source)
      publishDiagnostics(uri)
    case "textDocument/didClose":
      if let uri = params["textDocument"]?["uri"]?.stringValue {
        documents[uri] = nil
        connection.notify("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []])
      }
    case "textDocument/didSave":
      if let uri = params["textDocument"]?["uri"]?.stringValue,
        documents[uri] == nil || !uri.hasSuffix(".outline")
      {
        dependenciesChanged()
      }
    case "workspace/didChangeWatchedFiles":
      dependenciesChanged()
    default:
      break  // unknown notifications are ignored
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
    let mapper = self.mapper
    let feature: (@Sendable (Snapshot, JSONValue) throws -> JSONValue)?
    switch method {
    case "shutdown":
      shuttingDown = true
      // Replied once every request before it has replied.
      return afterWorkInFlight { self.connection.reply(to: id, result: .null) }
    case "textDocument/diagnostic": feature = { try DiagnosticsFeature(mapper: mapper).pull($0, $1) }
    case "textDocument/foldingRange": feature = { try FoldingFeature(mapper: mapper).ranges($0, $1) }
    case "textDocument/documentSymbol": feature = { try SymbolsFeature(mapper: mapper).symbols($0, $1) }
    case "textDocument/formatting": feature = { try FormattingFeature(mapper: mapper).format($0, $1) }
    case "textDocument/codeAction": feature = { try CodeActionsFeature(mapper: mapper).actions($0, $1) }
    case "textDocument/hover": feature = { try HoverFeature(mapper: mapper).hover($0, $1) }
    case "textDocument/completion": feature = { try CompletionFeature(mapper: mapper).complete($0, $1) }
    case "textDocument/definition": feature = { try NavigationFeature(mapper: mapper).definition($0, $1) }
    case "textDocument/references": feature = { try NavigationFeature(mapper: mapper).references($0, $1) }
    case "textDocument/prepareRename":
      feature = { try NavigationFeature(mapper: mapper).prepareRename($0, $1) }
    case "textDocument/rename": feature = { try NavigationFeature(mapper: mapper).rename($0, $1) }
    default:
      feature = nil
    }
    guard let feature else {
      return connection.reply(
        to: id, error: ResponseError(code: ErrorCode.methodNotFound, message: "Unknown method '\(method)'"))
    }
    guard params.isObject, let uri = params["textDocument"]?["uri"]?.stringValue else {
      return connection.reply(to: id, error: .invalidParams("\(method) needs textDocument.uri"))
    }
    guard let snapshot = documents[uri] else {
      return connection.reply(to: id, error: .invalidParams("\(uri) is not open"))
    }
    let requestKey = key(id)
    pending[requestKey] = false
    workers.async {
      let outcome: Result<JSONValue, ResponseError>
      do {
        outcome = .success(try feature(snapshot, params))
      } catch let error as ResponseError {
        outcome = .failure(error)
      } catch {
        // A failure inside one feature is an error reply, never a dead server.
        outcome = .failure(
          ResponseError(code: ErrorCode.requestFailed, message: "\(method) failed: \(error)"))
      }
      self.state.async {
        let cancelled = self.pending.removeValue(forKey: requestKey) ?? false
        if cancelled {
          self.connection.reply(
            to: id,
            error: ResponseError(code: ErrorCode.requestCancelled, message: "The request was cancelled"))
          return
        }
        switch outcome {
        case .success(let result): self.connection.reply(to: id, result: result)
        case .failure(let error): self.connection.reply(to: id, error: error)
        }
      }
    }
  }

  private func key(_ id: JSONValue) -> String { id.serialized() }

  /// Runs `body` on the state queue once every worker started so far has
  /// finished and handed its reply or diagnostics to the state queue.
  private func afterWorkInFlight(_ body: @escaping @Sendable () -> Void) {
    workers.async(flags: .barrier) { self.state.async(execute: body) }
  }

  // MARK: Lifecycle

  private func initializeResult(_ params: JSONValue) -> JSONValue {
    let offered =
      params["capabilities"]?["general"]?["positionEncodings"]?.arrayValue?.compactMap(\.stringValue) ?? []
    mapper = PositionMapper(unit: offered.contains("utf-8") ? .utf8 : .utf16)
    return [
      "capabilities": [
        "positionEncoding": .string(mapper.unit == .utf8 ? "utf-8" : "utf-16"),
        "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
        "diagnosticProvider": ["interFileDependencies": true, "workspaceDiagnostics": false],
        "foldingRangeProvider": true,
        "documentSymbolProvider": true,
        "documentFormattingProvider": true,
        "codeActionProvider": [
          "codeActionKinds": ["quickfix", "source.fixAll", "refactor.rewrite"], "resolveProvider": false,
        ],
        "hoverProvider": true,
        "completionProvider": ["triggerCharacters": ["<", " ", "\""], "resolveProvider": false],
        "definitionProvider": true,
        "referencesProvider": true,
        "renameProvider": ["prepareProvider": true],
      ],
      "serverInfo": ["name": "outline", "version": .string(ToolVersion.current)],
    ]
  }

  // MARK: Analysis and diagnostics

  private func analyzer() -> @Sendable (SourceText, String?) -> DocumentCheck {
    let configurations = self.configurations
    let models = self.models
    return { source, path in
      if let path, DocumentCheck.isJSONForm(path) {
        return DocumentCheck.runJSON(
          ByteBuffer(copying: source.bytes), path: path, modelOverride: nil, configurations: configurations,
          models: models)
      }
      return DocumentCheck.run(
        source, path: path, modelOverride: nil, configurations: configurations, models: models,
        buildTree: true)
    }
  }

  /// Analyzes the current version off the state queue and publishes, unless a newer version arrived.
  private func publishDiagnostics(_ uri: String) {
    guard let snapshot = documents[uri] else { return }
    let mapper = self.mapper
    workers.async {
      // Skip work for a version that is already stale.
      let current = self.state.sync { self.documents[uri]?.version }
      guard current == snapshot.version else { return }
      let diagnostics = DiagnosticsFeature.render(snapshot, mapper: mapper)
      self.state.async {
        guard self.documents[uri]?.version == snapshot.version else { return }
        self.connection.notify(
          "textDocument/publishDiagnostics",
          ["uri": .string(uri), "version": .int(snapshot.version), "diagnostics": diagnostics])
      }
    }
  }

  /// A model or configuration changed: forget cached ones and re-validate every open document.
  private func dependenciesChanged() {
    models.invalidate()
    configurations.invalidate()
    for (uri, snapshot) in documents {
      documents[uri] = snapshot.replacing(version: snapshot.version, source: snapshot.source)
      publishDiagnostics(uri)
    }
  }
}

/// Ends the process with `status` (the default response to the `exit` notification).
private func terminateProcess(_ status: Int32) {
  exit(status)
}
