import Foundation

/// Where the server runs requests and analyses off its state queue: each piece of work on a serial
/// queue of its own, which Dispatch serves with a thread even while its shared threads (as many as
/// there are processors) are all busy, with the server's own slow analyses or with whatever else
/// the process hosting the server runs. On a concurrent queue, work would wait for one of them to
/// finish: a quick request behind two slow analyses on a two-processor machine, say.
final class ServerWorkers: Sendable {
  private let group = DispatchGroup()

  /// Runs `body` at once, beside the work already running.
  func async(_ body: @escaping @Sendable () -> Void) {
    group.enter()
    DispatchQueue(label: "outline.lsp.work").async {
      body()
      self.group.leave()
    }
  }

  /// Runs `body` on `queue` once no work is running (at once when none is).
  func whenIdle(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
    group.notify(queue: queue, execute: body)
  }

  /// Waits until no work is running.
  func waitUntilIdle() {
    group.wait()
  }

  /// The queue on which the server's timers fire (progress shown after a delay): one of its own,
  /// for the same reason.
  static let timers = DispatchQueue(label: "outline.lsp.timers")
}
