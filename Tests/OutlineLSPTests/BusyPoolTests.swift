import Foundation
import OutlineJSON
import Testing

/// The server answers while Dispatch's shared threads are all busy: a process that hosts it (a
/// test process, an editor's) may run long work on them, as may the server's own slow analyses,
/// and a request or a change queued behind that work would wait for it to end.
@Suite(.serialized) struct BusyPoolTests {
  static let uri = "file:///tmp/outline-busy-pool.outline"

  @Test func requestsAndDiagnosticsAreAnsweredWhileTheSharedThreadsAreBusy() async throws {
    let client = await ServerClient.withOpenDocument(Self.uri, GeneratedOutlineText.items(20))
    defer { client.endInput() }
    let id = client.nextRequestID()
    let changed = GeneratedOutlineText.items(21)
    // Run on a thread of its own: the test's task would itself wait for the busy threads.
    let answeredWhileBusy = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
      ServerClient.start("busy-pool-test") {
        done.resume(
          returning: Self.whileSharedThreadsAreBusy {
            client.send([
              "jsonrpc": "2.0", "id": .int(id), "method": "textDocument/documentSymbol",
              "params": ["textDocument": ["uri": .string(Self.uri)]],
            ])
            client.notify(
              "textDocument/didChange",
              [
                "textDocument": ["uri": .string(Self.uri), "version": 2],
                "contentChanges": [["text": .string(changed)]],
              ])
            return {
              client.holds { $0["id"] == .int(id) }
                && client.holds {
                  $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["version"] == .int(2)
                }
            }
          })
      }
    }
    #expect(answeredWhileBusy, "the server waited for the shared threads")
    #expect(await client.wait { $0["id"] == .int(id) }?["result"]?.arrayValue != nil)
    #expect(await client.diagnostics(Self.uri, version: 2)?["diagnostics"]?.arrayValue != nil)
  }

  /// Keeps as many of Dispatch's shared threads busy as there are processors (all it runs at
  /// once), does `start`, and reports whether what it returns held within 10 s, before they were
  /// let go.
  static func whileSharedThreadsAreBusy(_ start: () -> () -> Bool) -> Bool {
    let state = NSCondition()
    nonisolated(unsafe) var running = 0
    nonisolated(unsafe) var release = false
    let count = ProcessInfo.processInfo.activeProcessorCount
    let giveUp = Date().addingTimeInterval(30)
    for _ in 0..<count {
      DispatchQueue.global().async {
        state.withLock {
          running += 1
          state.broadcast()
        }
        var spins = 0
        while Date() < giveUp && !state.withLock({ release }) {
          for index in 0..<10_000 { spins &+= index }
        }
        blackHole(spins)
      }
    }
    // Under the suite's load they may not all start: the shared threads are busy then anyway.
    let started = Date().addingTimeInterval(10)
    state.withLock {
      while running < count && Date() < started { _ = state.wait(until: started) }
    }
    let held = start()
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline && !held() { Thread.sleep(forTimeInterval: 0.01) }
    let outcome = held()
    state.withLock { release = true }
    return outcome
  }
}

@inline(never) private func blackHole(_ value: Int) {
  if value == 42 { print("") }
}
