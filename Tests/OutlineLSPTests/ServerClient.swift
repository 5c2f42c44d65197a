import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// A client of a `LanguageServer` running in this process, over two pipes: the server's
/// dispatch, state and features as the binary runs them, without starting a process (the same
/// calls as OutlineCommandsTests' `LSPClient`, which starts `outline lsp`, made `async`).
///
/// The test process runs every other test beside it, on Swift's cooperative pool, which Dispatch's
/// shared threads also serve; nothing here waits on a thread of that pool. The server reads on a
/// thread of its own, a second thread reads what it sends and hands each message to the test that
/// awaits it, a third writes the test's messages in order, and the timeouts are kept by a fourth
/// (``Deadlines``). A wait that times out prints what it waited for, unless silence was what the
/// test awaited (``expectNothing(for:sourceLocation:_:)``, ``take(within:_:)``).
final class ServerClient: @unchecked Sendable {
  private let input = Pipe()
  private let output = Pipe()
  private let inbox = Inbox()
  private let outbox: Outbox
  let server: LanguageServer

  /// A server whose `workspace/diagnostic` finds a folder's outlines with `findOutlines`
  /// (by default every `.outline` file under it).
  init(findOutlines: OutlineSearch? = ServerClient.outlines) {
    for pipe in [input, output] {
      for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
        // Not inherited by the programs other tests start meanwhile (they would hold the pipes open).
        _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
      }
    }
    let inbox = self.inbox
    let server = LanguageServer(
      connection: Connection(
        input: input.fileHandleForReading.fileDescriptor, output: output.fileHandleForWriting.fileDescriptor),
      findOutlines: findOutlines, log: { inbox.log($0) }, exit: { _ in })
    self.server = server
    outbox = Outbox(input.fileHandleForWriting)
    // Each thread holds the ends it uses and closes them when it is done: an end closed under a
    // running thread (when the client goes) would have it read another client's pipe that got
    // the same descriptor.
    let reading = input.fileHandleForReading
    let writer = output.fileHandleForWriting
    Self.start("outline-lsp-server") {
      let status = server.run()
      try? reading.close()
      try? writer.close()
      inbox.finish(status)
    }
    let handle = output.fileHandleForReading
    Self.start("outline-lsp-client-reader") {
      var reader = LSPFraming.Reader()
      while case let data = handle.availableData, !data.isEmpty {
        reader.append(data)
        while let message = reader.next() { inbox.receive(message) }
      }
      try? handle.close()
    }
  }

  /// Starts a thread of its own, with a main thread's stack, running `body`.
  static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// The server's log lines so far (standard error in the binary).
  var log: [String] { inbox.logged }

  /// Whether a message that `matches` came and was not taken yet (for a thread of a test's own).
  func holds(_ matches: (JSONValue) -> Bool) -> Bool { inbox.holds(matches) }

  /// Every `.outline` file under `folder` (the configurations' excludes not applied).
  static let outlines: OutlineSearch = { folder, _ in
    let root = URL(fileURLWithPath: folder)
    let files =
      FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
      .compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".outline") } ?? []
    return files.sorted()
  }

  /// Queues `bytes` for the server's input (written in order by the writer thread).
  func sendRaw(_ bytes: [UInt8]) {
    outbox.write(bytes)
  }

  func send(_ message: JSONValue) {
    sendRaw(LSPFraming.frame(message))
  }

  func notify(_ method: String, _ params: JSONValue) {
    send(["jsonrpc": "2.0", "method": .string(method), "params": params])
  }

  /// Sends a request and awaits its reply (nil, and a printed line, after `timeout` seconds).
  @discardableResult
  func request(
    _ method: String, _ params: JSONValue = [:], timeout: TimeInterval = 60, fileID: String = #fileID,
    line: Int = #line
  ) async -> JSONValue? {
    let id = nextRequestID()
    send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
    return await inbox.next(
      "the reply to \(method) (id \(id)), asked at \(fileID):\(line)", timeout: timeout
    ) { $0["id"] == .int(id) }
  }

  func nextRequestID() -> Int { inbox.nextRequestID() }

  /// Awaits (and removes) the first message matching `predicate`; nil after `timeout` seconds.
  func wait(
    timeout: TimeInterval = 60, fileID: String = #fileID, line: Int = #line,
    _ predicate: @escaping @Sendable (JSONValue) -> Bool
  ) async -> JSONValue? {
    await inbox.next("the message matching the predicate at \(fileID):\(line)", timeout: timeout, predicate)
  }

  /// Awaits (and removes) the first message matching `predicate` that comes within `seconds`;
  /// nil, without a printed line, when none does: the end of a run of messages (streamed
  /// batches), not a failure.
  func take(
    within seconds: TimeInterval, _ predicate: @escaping @Sendable (JSONValue) -> Bool
  ) async -> JSONValue? {
    await inbox.next("", timeout: seconds, quiet: true, predicate)
  }

  /// Expects that no message matching `predicate` comes within `seconds` (and takes one that
  /// does, recording an issue at the caller); a wait meant to see nothing prints nothing.
  func expectNothing(
    for seconds: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation,
    _ predicate: @escaping @Sendable (JSONValue) -> Bool
  ) async {
    let message = await take(within: seconds, predicate)
    #expect(
      message == nil, "came within \(seconds) s: \(message?.serialized().prefix(300) ?? "")",
      sourceLocation: sourceLocation)
  }

  /// The next diagnostics published for `uri` (optionally for `version`).
  func diagnostics(
    _ uri: String, version: Int? = nil, timeout: TimeInterval = 60, fileID: String = #fileID,
    line: Int = #line
  ) async -> JSONValue? {
    let what = "diagnostics of \(uri)" + (version.map { " version \($0)" } ?? "")
    return await inbox.next("\(what), awaited at \(fileID):\(line)", timeout: timeout) {
      $0["method"]?.stringValue == "textDocument/publishDiagnostics"
        && $0["params"]?["uri"]?.stringValue == uri
        && (version == nil || $0["params"]?["version"]?.intValue == version)
    }?["params"]
  }

  /// Initializes with the position `encodings` offered and, when given, `workspace.workspaceEdit.documentChanges`.
  @discardableResult
  func initialize(encodings: [String] = [], documentChanges: Bool? = nil) async -> JSONValue? {
    var capabilities: JSONValue = ["general": ["positionEncodings": .array(encodings.map { .string($0) })]]
    if let documentChanges {
      capabilities = [
        "general": capabilities["general"]!,
        "workspace": ["workspaceEdit": ["documentChanges": .bool(documentChanges)]],
      ]
    }
    let result = await request(
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
  func codeActions(_ uri: String, line: Int, character: Int, diagnostics: JSONValue = []) async -> [JSONValue]
  {
    let position: JSONValue = ["line": .int(line), "character": .int(character)]
    return await request(
      "textDocument/codeAction",
      [
        "textDocument": ["uri": .string(uri)], "range": ["start": position, "end": position],
        "context": ["diagnostics": diagnostics],
      ])?["result"]?.arrayValue ?? []
  }

  /// A server initialized with the workspace `root` (none when nil) and the client
  /// `capabilities`, and told `initialized`.
  static func initialized(root: URL?, capabilities: JSONValue = [:]) async -> ServerClient {
    let client = ServerClient()
    _ = await client.request(
      "initialize",
      [
        "processId": .null, "rootUri": root.map { .string($0.absoluteString) } ?? .null,
        "capabilities": capabilities,
      ])
    client.notify("initialized", [:])
    return client
  }

  /// A started and initialized server with `text` open at `uri`, its first diagnostics read.
  static func withOpenDocument(_ uri: String, _ text: String) async -> ServerClient {
    let client = ServerClient()
    _ = await client.initialize()
    client.open(uri, text)
    _ = await client.diagnostics(uri, version: 1)
    return client
  }

  /// Ends the server's input (after what was sent) and awaits the end of its run: 0 after
  /// `shutdown`, 1 otherwise; nil, and a printed line, when it did not end within `timeout`.
  @discardableResult
  func close(timeout: TimeInterval = 60) async -> Int32? {
    outbox.close()
    return await inbox.status(timeout: timeout)
  }

  /// Ends the server's input without awaiting the end of its run (its threads end by themselves).
  func endInput() {
    outbox.close()
  }

  deinit {
    outbox.close()
  }
}
