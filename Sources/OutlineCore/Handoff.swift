import Foundation

/// Items handed from one producer thread to a consumer thread of their own, in order, with at
/// most `capacity` waiting (the producer waits beyond that), so memory stays bounded whatever
/// the input's size. The parser's event pipeline and `migrate`'s second parse use it.
public final class Handoff<Item>: @unchecked Sendable {
  private let body: (Item) -> Void
  private let capacity: Int
  private let wakeAt: Int
  private let condition = NSCondition()
  /// Guarded by `condition`: the items waiting, whether the producer ended, whether all were handed over.
  @exclusivity(unchecked) private var waiting: [Item] = []
  private var ended = false
  private var drained = false

  /// Starts the thread, named `name`, that calls `body` with each item submitted. A consumer
  /// that has caught up sleeps until `wakeAt` items wait (or the input ends): waking a thread
  /// is a system call and, on a virtual machine, an interrupt between cores, so a consumer
  /// faster than its producer is woken once for several items instead of for each.
  public init(name: String, capacity: Int = 4, wakeAt: Int = 1, _ body: @escaping (Item) -> Void) {
    self.body = body
    self.capacity = capacity
    self.wakeAt = min(max(1, wakeAt), capacity)
    let thread = Thread { [self] in consume() }
    thread.name = name
    thread.stackSize = 1 << 18
    thread.start()
  }

  /// Queues `item`; waits while `capacity` items are waiting.
  public func submit(_ item: Item) {
    condition.lock()
    while waiting.count >= capacity { condition.wait() }
    waiting.append(item)
    // A consumer asleep waits for `wakeAt` items; one at work takes them as they come.
    if waiting.count >= wakeAt { condition.broadcast() }
    condition.unlock()
  }

  /// Ends the input and waits until every item submitted was handed to `body`.
  public func finish() {
    condition.lock()
    ended = true
    condition.broadcast()
    while !drained { condition.wait() }
    condition.unlock()
  }

  private func consume() {
    while true {
      condition.lock()
      if waiting.isEmpty {
        while waiting.count < wakeAt && !ended { condition.wait() }
      }
      if waiting.isEmpty {
        drained = true
        condition.broadcast()
        condition.unlock()
        return
      }
      let next = waiting.removeFirst()
      condition.broadcast()
      condition.unlock()
      body(next)
    }
  }
}
