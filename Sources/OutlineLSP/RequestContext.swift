import Foundation
import JSONRPC
import OutlineJSON

/// Set when the client cancels a request (`$/cancelRequest`); long work
/// checks it between steps and stops with ``RequestCancelled``.
final class CancellationFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var cancelled = false

  var isCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
  }

  /// Throws when the request was cancelled.
  func check() throws {
    if isCancelled { throw RequestCancelled() }
  }
}

/// Thrown by work that stopped because its request was cancelled.
struct RequestCancelled: Error {}

/// What a request's work may use while it runs on a worker thread.
struct RequestContext: Sendable {
  let cancellation: CancellationFlag
  /// How long work runs before it shows progress.
  var progressDelay: TimeInterval = 0.2
  /// Sends a notification to the client (`$/progress`).
  let notify: @Sendable (String, JSONValue) -> Void

  /// A context nobody cancels and whose notifications go nowhere (in-process callers).
  static let detached = RequestContext(cancellation: CancellationFlag(), notify: { _, _ in })

  /// Reports work-done progress on `token`, once the work has taken longer than `progressDelay`.
  func progress(token: LSPAny?, title: String) -> WorkDoneProgressReporter {
    WorkDoneProgressReporter(token: token, title: title, delay: progressDelay, notify: notify)
  }
}

/// `$/progress` for work that takes a while: nothing for work done within
/// `delay` (200 ms), then `begin`, `report`s at most every 100 ms, and `end`.
final class WorkDoneProgressReporter: @unchecked Sendable {
  private let token: LSPAny?
  private let title: String
  private let delay: TimeInterval
  private let notify: @Sendable (String, JSONValue) -> Void
  private let started = Date()
  private var begun = false
  private var lastReport = Date.distantPast

  init(
    token: LSPAny?, title: String, delay: TimeInterval,
    notify: @escaping @Sendable (String, JSONValue) -> Void
  ) {
    self.token = token
    self.title = title
    self.delay = delay
    self.notify = notify
  }

  /// Whether a `begin` was sent.
  var hasBegun: Bool { begun }

  /// Reports `done` of `total`, with `message`.
  func report(_ done: Int, of total: Int, message: String) {
    guard token != nil else { return }
    let now = Date()
    guard now.timeIntervalSince(started) >= delay else { return }
    let percentage = total > 0 ? min(100, done * 100 / total) : nil
    if !begun {
      begun = true
      lastReport = now
      send(
        LSP.WorkDoneProgress(
          kind: .begin, title: title, cancellable: true, message: message, percentage: percentage))
      return
    }
    guard now.timeIntervalSince(lastReport) >= 0.1 else { return }
    lastReport = now
    send(LSP.WorkDoneProgress(kind: .report, message: message, percentage: percentage))
  }

  /// Ends the progress, if it began.
  func end(_ message: String? = nil) {
    guard begun else { return }
    send(LSP.WorkDoneProgress(kind: .end, message: message))
  }

  private func send(_ value: LSP.WorkDoneProgress) {
    guard let token, let params = try? JSONValueCoding.encode(LSP.ProgressParams(token: token, value: value))
    else {
      return
    }
    notify("$/progress", params)
  }
}

/// Work-done progress for work that does not report steps: `begin` once it
/// has run for 200 ms, `end` when it finishes (only if it began), so quick
/// work sends nothing. Safe from any thread.
final class DelayedProgress: @unchecked Sendable {
  private let lock = NSLock()
  private let send: @Sendable (LSP.WorkDoneProgress) -> Void
  private var begun = false
  private var finished = false

  /// Starts the clock; `send` writes one `$/progress` value on the token.
  init(title: String, delay: TimeInterval = 0.2, send: @escaping @Sendable (LSP.WorkDoneProgress) -> Void) {
    self.send = send
    ServerWorkers.timers.asyncAfter(deadline: .now() + delay) { [self] in
      lock.lock()
      defer { lock.unlock() }
      guard !finished else { return }
      begun = true
      send(LSP.WorkDoneProgress(kind: .begin, title: title, cancellable: false))
    }
  }

  /// The work finished.
  func finish() {
    lock.lock()
    defer { lock.unlock() }
    finished = true
    if begun { send(LSP.WorkDoneProgress(kind: .end)) }
    begun = false
  }

  /// A `send` that writes `$/progress` on `token` through `notify`.
  static func sender(token: LSPAny, notify: @escaping @Sendable (String, JSONValue) -> Void)
    -> @Sendable (LSP.WorkDoneProgress) -> Void
  {
    { value in
      if let params = try? JSONValueCoding.encode(LSP.ProgressParams(token: token, value: value)) {
        notify("$/progress", params)
      }
    }
  }
}
