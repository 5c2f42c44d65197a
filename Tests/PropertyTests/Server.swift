import Foundation
import OutlineJSON
import TestSupport

/// `outline lsp` over real pipes, as an editor starts it: the part of OutlineCommandsTests'
/// `LSPClient` the properties need (initialize, open a document, read its diagnostics).
final class Server: @unchecked Sendable {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let lock = NSCondition()
  private var received: [JSONValue] = []
  private var nextID = 0

  init() throws {
    process.executableURL = CLI.products.appendingPathComponent("outline")
    process.arguments = ["lsp"]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
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

  func send(_ message: JSONValue) {
    CLI.feed(Data(LSPFraming.frame(message)), to: input.fileHandleForWriting)
  }

  func notify(_ method: String, _ params: JSONValue) {
    send(["jsonrpc": "2.0", "method": .string(method), "params": params])
  }

  /// Sends a request and waits for its reply.
  @discardableResult
  func request(_ method: String, _ params: JSONValue) -> JSONValue? {
    lock.lock()
    nextID += 1
    let id = nextID
    lock.unlock()
    send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
    return wait { $0["id"] == .int(id) }
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

  /// Initializes with UTF-16 positions (the default of LSP).
  func initialize() {
    request("initialize", ["processId": .null, "rootUri": .null, "capabilities": [:]])
    notify("initialized", [:])
  }

  /// Opens `text` at `uri` and returns the diagnostics the server publishes for it.
  func diagnostics(opening uri: String, _ text: String) -> [JSONValue]? {
    notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "outline", "version": 1, "text": .string(text)]])
    let published = wait {
      $0["method"]?.stringValue == "textDocument/publishDiagnostics"
        && $0["params"]?["uri"]?.stringValue == uri
    }
    notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
    return published?["params"]?["diagnostics"]?.arrayValue
  }

  func close() {
    request("shutdown", .null)
    notify("exit", .null)
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  deinit {
    if process.isRunning { process.terminate() }
  }
}
