import Foundation

/// Hands chunks of bytes to `body` on a thread of its own, in order, so the migrated text is
/// parsed again (for its validation) while the next part of the older text is migrated: at
/// most four chunks wait, so memory stays bounded whatever the document's size.
final class ChunkFeeder: @unchecked Sendable {
  private let body: (UnsafeBufferPointer<UInt8>) -> Void
  private let condition = NSCondition()
  /// Guarded by `condition`.
  private var waiting: [[UInt8]] = []
  private var ended = false
  private var drained = false
  private static let maximumWaiting = 4

  /// Starts the thread that calls `body` with each chunk submitted.
  init(_ body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
    self.body = body
    let thread = Thread { [self] in consume() }
    thread.name = "outline-migrated"
    thread.stackSize = 1 << 18
    thread.start()
  }

  /// Queues `chunk`; waits while four chunks are waiting.
  func submit(_ chunk: [UInt8]) {
    condition.lock()
    while waiting.count >= Self.maximumWaiting { condition.wait() }
    waiting.append(chunk)
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until every chunk submitted was handed to `body`.
  func finish() {
    condition.lock()
    ended = true
    condition.broadcast()
    while !drained { condition.wait() }
    condition.unlock()
  }

  private func consume() {
    while true {
      condition.lock()
      while waiting.isEmpty && !ended { condition.wait() }
      if waiting.isEmpty {
        drained = true
        condition.broadcast()
        condition.unlock()
        return
      }
      let next = waiting.removeFirst()
      condition.broadcast()
      condition.unlock()
      next.withUnsafeBufferPointer { body($0) }
    }
  }
}
