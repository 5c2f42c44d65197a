import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import TestSupport

@testable import OutlineLSP

/// A client of a `LanguageServer` running in this process, over two pipes: the server's
/// dispatch, state and features as the binary runs them, without starting a process (the
/// same calls as OutlineCommandsTests' `LSPClient`, which starts `outline lsp`).
/// Framing, lifecycle and real editors are tested against the binary in OutlineCommandsTests.
final class ServerClient: @unchecked Sendable {
  private let input = Pipe()
  private let output = Pipe()
  private let inbox = Inbox()
  private var nextID = 100
  private let server: LanguageServer

  /// A server whose `workspace/diagnostic` finds a folder's outlines with `findOutlines`
  /// (by default every `.outline` file under it).
  init(findOutlines: OutlineSearch? = ServerClient.outlines) throws {
    let inbox = self.inbox
    let server = LanguageServer(
      connection: Connection(
        input: input.fileHandleForReading.fileDescriptor, output: output.fileHandleForWriting.fileDescriptor),
      findOutlines: findOutlines, log: { inbox.log($0) }, exit: { _ in })
    self.server = server
    let writer = output.fileHandleForWriting
    Thread.detachNewThread {
      let status = server.run()
      try? writer.close()
      inbox.finish(status)
    }
    let handle = output.fileHandleForReading
    Thread.detachNewThread {
      var buffer: [UInt8] = []
      while true {
        let data = handle.availableData
        if data.isEmpty { break }
        buffer += data
        while let headerEnd = Self.find(Array("\r\n\r\n".utf8), in: buffer) {
          let header = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
          guard
            let length = header.split(separator: ":").last.flatMap({
              Int($0.trimmingCharacters(in: .whitespaces))
            }),
            buffer.count >= headerEnd + 4 + length
          else { break }
          let body = Array(buffer[(headerEnd + 4)..<(headerEnd + 4 + length)])
          buffer.removeFirst(headerEnd + 4 + length)
          // Deep replies (symbols of a deep chain) stay text: a deep value
          // would be released recursively.
          var message: JSONValue
          if let parsed = try? JSONValue.parse(body, maximumDepth: 64) {
            message = parsed
          } else {
            let text = String(decoding: body, as: UTF8.self)
            let id = text.range(of: "\"id\":").map { text[$0.upperBound...].prefix { $0.isNumber } }.flatMap {
              Int($0)
            }
            message = ["id": id.map { .int($0) } ?? .null, "raw": .string(text)]
          }
          inbox.receive(message)
        }
      }
    }
  }

  /// The server's log lines so far (standard error in the binary).
  var log: [String] { inbox.logged }

  /// Every `.outline` file under `folder` (the configurations' excludes not applied).
  static let outlines: OutlineSearch = { folder, _ in
    let root = URL(fileURLWithPath: folder)
    let files =
      FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
      .compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".outline") } ?? []
    return files.sorted()
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<start + needle.count].elementsEqual(needle) {
      return start
    }
    return nil
  }

  func sendRaw(_ bytes: [UInt8]) {
    input.fileHandleForWriting.write(Data(bytes))
  }

  func send(_ message: JSONValue) {
    let body = Array(message.serialized().utf8)
    sendRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
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
    inbox.lock.lock()
    defer { inbox.lock.unlock() }
    nextID += 1
    return nextID
  }

  /// Waits for (and removes) the first message matching `predicate`.
  func wait(timeout: TimeInterval = 60, _ predicate: (JSONValue) -> Bool) -> JSONValue? {
    inbox.wait(timeout: timeout, predicate)
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
  @discardableResult
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

  /// A server initialized with the workspace `root` (none when nil) and the client
  /// `capabilities`, and told `initialized`.
  static func initialized(root: URL?, capabilities: JSONValue = [:]) throws -> ServerClient {
    let client = try ServerClient()
    _ = client.request(
      "initialize",
      [
        "processId": .null, "rootUri": root.map { .string($0.absoluteString) } ?? .null,
        "capabilities": capabilities,
      ], timeout: 30)
    client.notify("initialized", [:])
    return client
  }

  /// A started and initialized server with `text` open at `uri`, its first diagnostics read.
  static func withOpenDocument(_ uri: String, _ text: String) throws -> ServerClient {
    let client = try ServerClient()
    _ = client.initialize()
    client.open(uri, text)
    _ = client.diagnostics(uri, version: 1)
    return client
  }

  /// Ends the input and waits for the server to finish: 0 after `shutdown`, 1 otherwise.
  @discardableResult
  func close() -> Int32 {
    try? input.fileHandleForWriting.close()
    return inbox.status()
  }

  deinit {
    try? input.fileHandleForWriting.close()
  }
}

/// What the server sent and logged, and how its run ended, written from its threads.
private final class Inbox: @unchecked Sendable {
  let lock = NSCondition()
  private var received: [JSONValue] = []
  private var lines: [String] = []
  private var runStatus: Int32?

  func receive(_ message: JSONValue) {
    lock.lock()
    received.append(message)
    lock.broadcast()
    lock.unlock()
  }

  func log(_ line: String) {
    lock.lock()
    lines.append(line)
    lock.unlock()
  }

  var logged: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }

  func finish(_ status: Int32) {
    lock.lock()
    runStatus = status
    lock.broadcast()
    lock.unlock()
  }

  /// The run's status, once it ended.
  func status() -> Int32 {
    lock.lock()
    defer { lock.unlock() }
    while runStatus == nil { lock.wait() }
    return runStatus!
  }

  /// Waits for (and removes) the first message matching `predicate`.
  func wait(timeout: TimeInterval, _ predicate: (JSONValue) -> Bool) -> JSONValue? {
    let deadline = Date().addingTimeInterval(timeout)
    lock.lock()
    defer { lock.unlock() }
    while true {
      if let index = received.firstIndex(where: predicate) { return received.remove(at: index) }
      if !lock.wait(until: deadline) { return nil }
    }
  }
}

/// Applies LSP text edits (in `unit` positions) to a text, as an editor does.
func applyLSPEdits(_ edits: [JSONValue], to text: String, unit: ColumnUnit = .utf16) -> String {
  let source = SourceText(text)
  func offset(_ position: JSONValue?) -> Int {
    source.offset(
      of: SourcePosition(line: position!["line"]!.intValue!, column: position!["character"]!.intValue!),
      unit: unit)
  }
  let textEdits = edits.map {
    TextEdit(
      range: TextRange(start: offset($0["range"]?["start"]), end: offset($0["range"]?["end"])),
      newText: $0["newText"]!.stringValue!)
  }
  return String(decoding: TextEdit.apply(textEdits, to: source.bytes)!, as: UTF8.self)
}

/// The edits of a WorkspaceEdit for one document, in either form: `documentChanges`, else `changes`.
func workspaceEdits(_ edit: JSONValue?) -> [JSONValue] {
  if let changes = edit?["documentChanges"]?.arrayValue { return changes.first?["edits"]?.arrayValue ?? [] }
  guard case .object(let byURI)? = edit?["changes"] else { return [] }
  return byURI.first?.1.arrayValue ?? []
}

/// The four-version `Tasks.xcdatamodeld` of the fixtures, with the version-1 document `v1.outline`.
enum VersionsFixture {
  static let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures/versions")

  /// A fresh folder holding the model and `v1.outline`.
  static func project() throws -> URL {
    let folder = try CLI.temporaryFolder()
    for name in ["Tasks.xcdatamodeld", "v1.outline"] {
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    return folder
  }
}
