import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// A test client that starts `outline lsp` and speaks JSON-RPC to it over real pipes.
final class LSPClient: @unchecked Sendable {
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  private let lock = NSCondition()
  private var received: [JSONValue] = []
  private var nextID = 100

  init() throws {
    process.executableURL = CLI.products.appendingPathComponent("outline")
    process.arguments = ["lsp"]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let handle = output.fileHandleForReading
    Thread.detachNewThread { [self] in
      var reader = LSPFraming.Reader()
      while case let data = handle.availableData, !data.isEmpty {
        reader.append(data)
        while let message = reader.next() {
          lock.lock()
          received.append(message)
          lock.broadcast()
          lock.unlock()
        }
      }
    }
  }

  func sendRaw(_ bytes: [UInt8]) {
    CLI.feed(Data(bytes), to: input.fileHandleForWriting)
  }

  func send(_ message: JSONValue) {
    sendRaw(LSPFraming.frame(message))
  }

  func notify(_ method: String, _ params: JSONValue) {
    send(["jsonrpc": "2.0", "method": .string(method), "params": params])
  }

  /// Sends a request and waits for its reply.
  @discardableResult
  func request(_ method: String, _ params: JSONValue = [:], timeout: TimeInterval = 60) -> JSONValue? {
    let id = nextRequestID()
    send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
    return wait(timeout: timeout) { $0["id"] == .int(id) }
  }

  func nextRequestID() -> Int {
    lock.lock()
    defer { lock.unlock() }
    nextID += 1
    return nextID
  }

  /// Waits for (and removes) the first message matching `predicate`.
  func wait(timeout: TimeInterval = 60, _ predicate: (JSONValue) -> Bool) -> JSONValue? {
    let deadline = Date().addingTimeInterval(timeout)
    lock.lock()
    defer { lock.unlock() }
    while true {
      if let index = received.firstIndex(where: predicate) { return received.remove(at: index) }
      if !lock.wait(until: deadline) { return nil }
    }
  }

  /// The next diagnostics published for `uri` (optionally for `version`).
  func diagnostics(_ uri: String, version: Int? = nil) -> JSONValue? {
    wait {
      $0["method"]?.stringValue == "textDocument/publishDiagnostics"
        && $0["params"]?["uri"]?.stringValue == uri
        && (version == nil || $0["params"]?["version"]?.intValue == version)
    }?["params"]
  }

  /// Initializes with the position `encodings` offered and, when given, `workspace.workspaceEdit.documentChanges`.
  func initialize(encodings: [String] = [], documentChanges: Bool? = nil) -> JSONValue? {
    var capabilities: JSONValue = ["general": ["positionEncodings": .array(encodings.map { .string($0) })]]
    if let documentChanges {
      capabilities = [
        "general": capabilities["general"]!,
        "workspace": ["workspaceEdit": ["documentChanges": .bool(documentChanges)]],
      ]
    }
    let result = request(
      "initialize", ["processId": .null, "rootUri": .null, "capabilities": capabilities])
    notify("initialized", [:])
    return result
  }

  func open(_ uri: String, _ text: String, version: Int = 1) {
    notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": .string(uri), "languageId": "outline", "version": .int(version), "text": .string(text),
        ]
      ])
  }

  /// The code actions offered at `line`:`character` of `uri`, given `diagnostics`.
  func codeActions(_ uri: String, line: Int, character: Int, diagnostics: JSONValue = []) -> [JSONValue] {
    let position: JSONValue = ["line": .int(line), "character": .int(character)]
    return request(
      "textDocument/codeAction",
      [
        "textDocument": ["uri": .string(uri)], "range": ["start": position, "end": position],
        "context": ["diagnostics": diagnostics],
      ])?["result"]?.arrayValue ?? []
  }

  /// A started and initialized server with `text` open at `uri`, its first diagnostics read.
  /// A server initialized with the workspace `root` (none when nil) and the client
  /// `capabilities`, and told `initialized`.
  static func initialized(root: URL?, capabilities: JSONValue = [:]) throws -> LSPClient {
    let client = try LSPClient()
    _ = client.request(
      "initialize",
      [
        "processId": .null, "rootUri": root.map { .string($0.absoluteString) } ?? .null,
        "capabilities": capabilities,
      ], timeout: 30)
    client.notify("initialized", [:])
    return client
  }

  static func withOpenDocument(_ uri: String, _ text: String) throws -> LSPClient {
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, text)
    _ = client.diagnostics(uri, version: 1)
    return client
  }

  func close() -> Int32 {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit {
    if process.isRunning { process.terminate() }
  }
}
