import Foundation
import OutlineJSON

/// What the server sent and logged, and how its run ended, written from the client's threads;
/// a test awaits a message without holding a thread: its continuation is resumed by the reading
/// thread when the message comes, or by ``Deadlines`` when its time is up.
final class Inbox: @unchecked Sendable {
  private struct Waiter {
    let number: Int
    let what: String
    /// Whether its timeout is expected (a test that checks that nothing comes): not printed.
    let quiet: Bool
    let matches: @Sendable (JSONValue) -> Bool
    let continuation: CheckedContinuation<JSONValue?, Never>
  }

  private let lock = NSLock()
  private var received: [JSONValue] = []
  private var waiters: [Waiter] = []
  private var lines: [String] = []
  private var runStatus: Int32?
  private var statusWaiters: [(number: Int, continuation: CheckedContinuation<Int32?, Never>)] = []
  private var numbers = 0
  private var requestID = 100

  func nextRequestID() -> Int {
    lock.withLock {
      requestID += 1
      return requestID
    }
  }

  /// A message from the server: to the first test awaiting one like it, else kept.
  func receive(_ message: JSONValue) {
    let waiter: Waiter? = lock.withLock {
      if let index = waiters.firstIndex(where: { $0.matches(message) }) { return waiters.remove(at: index) }
      received.append(message)
      return nil
    }
    waiter?.continuation.resume(returning: message)
  }

  func log(_ line: String) {
    lock.withLock { lines.append(line) }
  }

  var logged: [String] { lock.withLock { lines } }

  /// Whether a message that `matches` came and is kept (not awaited yet), without taking it.
  func holds(_ matches: (JSONValue) -> Bool) -> Bool {
    lock.withLock { received.contains(where: matches) }
  }

  /// Removes and returns the first message kept or to come that `matches`; nil once `timeout`
  /// seconds passed without one (printing, unless `quiet`, `what` it waited for and what came
  /// meanwhile).
  func next(
    _ what: String, timeout: TimeInterval, quiet: Bool = false,
    _ matches: @escaping @Sendable (JSONValue) -> Bool
  ) async -> JSONValue? {
    await withCheckedContinuation { (continuation: CheckedContinuation<JSONValue?, Never>) in
      let outcome: (found: JSONValue?, number: Int) = lock.withLock {
        if let index = received.firstIndex(where: matches) { return (received.remove(at: index), 0) }
        numbers += 1
        waiters.append(
          Waiter(number: numbers, what: what, quiet: quiet, matches: matches, continuation: continuation))
        return (nil, numbers)
      }
      if let found = outcome.found { return continuation.resume(returning: found) }
      Deadlines.shared.add(Date().addingTimeInterval(timeout)) { [weak self] in
        self?.expire(outcome.number, after: timeout)
      }
    }
  }

  private func expire(_ number: Int, after timeout: TimeInterval) {
    let expired: (Waiter, [String], [String])? = lock.withLock {
      guard let index = waiters.firstIndex(where: { $0.number == number }) else { return nil }
      return (waiters.remove(at: index), received.map(Self.summary), lines)
    }
    guard let (waiter, kept, logged) = expired else { return }
    if !waiter.quiet {
      print(
        "ServerClient: waited \(timeout) s in vain for \(waiter.what); unclaimed messages: \(kept); "
          + "the server's log: \(logged)")
    }
    waiter.continuation.resume(returning: nil)
  }

  /// A message in a few words: its method or id.
  private static func summary(_ message: JSONValue) -> String {
    if let method = message["method"]?.stringValue { return method }
    return "reply \(message["id"]?.serialized() ?? "?")"
  }

  /// The server's run ended with `status`.
  func finish(_ status: Int32) {
    let waiting = lock.withLock {
      runStatus = status
      defer { statusWaiters = [] }
      return statusWaiters
    }
    for waiter in waiting { waiter.continuation.resume(returning: status) }
  }

  /// The run's status once it ended; nil (and a printed line) after `timeout` seconds.
  func status(timeout: TimeInterval) async -> Int32? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int32?, Never>) in
      let outcome: (status: Int32?, number: Int) = lock.withLock {
        if let runStatus { return (runStatus, 0) }
        numbers += 1
        statusWaiters.append((numbers, continuation))
        return (nil, numbers)
      }
      if let status = outcome.status { return continuation.resume(returning: status) }
      Deadlines.shared.add(Date().addingTimeInterval(timeout)) { [weak self] in
        guard let self else { return }
        let waiter = lock.withLock {
          statusWaiters.firstIndex { $0.number == outcome.number }.map { statusWaiters.remove(at: $0) }
        }
        guard let waiter else { return }
        print("ServerClient: the server's run did not end within \(timeout) s of the end of its input")
        waiter.continuation.resume(returning: nil)
      }
    }
  }
}

/// The test's messages to the server, written in order by a thread of their own, then the end of
/// the input: a test never waits for the server to read.
final class Outbox: @unchecked Sendable {
  private let condition = NSCondition()
  private var queued: [[UInt8]] = []
  private var closing = false

  init(_ handle: FileHandle) {
    ServerClient.start("outline-lsp-client-writer") { [self] in
      while let bytes = take() {
        // The server may have ended (an `exit` test): its input is then closed, not the test's concern.
        _ = try? handle.write(contentsOf: bytes)
      }
      try? handle.close()
    }
  }

  func write(_ bytes: [UInt8]) {
    condition.withLock {
      queued.append(bytes)
      condition.signal()
    }
  }

  /// Closes the input once what was queued is written.
  func close() {
    condition.withLock {
      closing = true
      condition.signal()
    }
  }

  /// The next bytes to write, nil once closing and all are written.
  private func take() -> [UInt8]? {
    condition.lock()
    defer { condition.unlock() }
    while queued.isEmpty && !closing { condition.wait() }
    return queued.isEmpty ? nil : queued.removeFirst()
  }
}

/// The client's timeouts, kept by one thread of their own: a timeout fires on time however busy
/// the cooperative pool is.
final class Deadlines: @unchecked Sendable {
  static let shared = Deadlines()
  private let condition = NSCondition()
  private var entries: [(deadline: Date, fire: @Sendable () -> Void)] = []

  private init() {
    ServerClient.start("outline-lsp-client-deadlines") { [self] in run() }
  }

  /// Calls `fire` (on the deadlines' thread) once `deadline` passed.
  func add(_ deadline: Date, _ fire: @escaping @Sendable () -> Void) {
    condition.withLock {
      entries.append((deadline, fire))
      condition.signal()
    }
  }

  private func run() {
    condition.lock()
    while true {
      let now = Date()
      let due = entries.filter { $0.deadline <= now }
      if !due.isEmpty {
        entries.removeAll { $0.deadline <= now }
        condition.unlock()
        for entry in due { entry.fire() }
        condition.lock()
      } else if let next = entries.map(\.deadline).min() {
        _ = condition.wait(until: next)
      } else {
        condition.wait()
      }
    }
  }
}
