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
      var buffer: [UInt8] = []
      while true {
        let data = handle.availableData
        if data.isEmpty { break }
        buffer += data
        while let (headerEnd, length) = Self.frame(buffer), buffer.count >= headerEnd + 4 + length {
          let body = Array(buffer[(headerEnd + 4)..<(headerEnd + 4 + length)])
          buffer.removeFirst(headerEnd + 4 + length)
          guard let message = try? JSONValue.parse(body, maximumDepth: 64) else { continue }
          lock.lock()
          received.append(message)
          lock.broadcast()
          lock.unlock()
        }
      }
    }
  }

  /// Where the header of the first frame in `buffer` ends and its body's length.
  private static func frame(_ buffer: [UInt8]) -> (Int, Int)? {
    let separator = Array("\r\n\r\n".utf8)
    guard buffer.count >= 4 else { return nil }
    for start in 0...(buffer.count - 4) where buffer[start..<start + 4].elementsEqual(separator) {
      let header = String(decoding: buffer[0..<start], as: UTF8.self)
      guard
        let field = header.split(separator: "\r\n").first(where: {
          $0.lowercased().hasPrefix("content-length:")
        }),
        let length = Int(field.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
      else { return nil }
      return (start, length)
    }
    return nil
  }

  func send(_ message: JSONValue) {
    let body = Array(message.serialized().utf8)
    CLI.feed(Data(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body), to: input.fileHandleForWriting)
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
