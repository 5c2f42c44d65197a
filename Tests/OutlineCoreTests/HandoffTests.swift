import Foundation
import OutlineCore
import Testing

/// `Handoff` hands every item from the producer to its consumer thread, in order, never holding
/// more than its capacity, and `finish()` returns only once every item was handled.
@Suite struct HandoffTests {
  final class Seen: @unchecked Sendable {
    let lock = NSLock()
    var items: [Int] = []
    var threads: Set<ObjectIdentifier> = []
    func add(_ item: Int) {
      lock.lock()
      items.append(item)
      threads.insert(ObjectIdentifier(Thread.current))
      lock.unlock()
    }
  }

  @Test(arguments: [(1, 1), (4, 1), (4, 3), (16, 16)])
  func everyItemArrivesOnceInOrderOnOneOtherThread(capacity: Int, wakeAt: Int) {
    let seen = Seen()
    let handoff = Handoff<Int>(name: "handoff-test", capacity: capacity, wakeAt: wakeAt) { seen.add($0) }
    for item in 0..<10_000 { handoff.submit(item) }
    handoff.finish()
    #expect(seen.items == Array(0..<10_000))
    #expect(seen.threads.count == 1)
    #expect(!seen.threads.contains(ObjectIdentifier(Thread.current)), "the producer handled items itself")
  }

  @Test func theProducerWaitsBeyondTheCapacity() {
    // The consumer is held until the producer has submitted what fits; the next submit must
    // wait until the consumer takes one.
    let gate = DispatchSemaphore(value: 0)
    let seen = Seen()
    let handoff = Handoff<Int>(name: "handoff-held", capacity: 2) { item in
      if item == 0 { gate.wait() }
      seen.add(item)
    }
    handoff.submit(0)
    handoff.submit(1)
    handoff.submit(2)  // 0 is being handled, 1 and 2 wait: the queue is full.
    let submitted = DispatchSemaphore(value: 0)
    Thread {
      handoff.submit(3); submitted.signal()
    }.start()
    #expect(submitted.wait(timeout: .now() + 0.3) == .timedOut, "a submit beyond the capacity did not wait")
    gate.signal()
    #expect(submitted.wait(timeout: .now() + 10) == .success)
    handoff.finish()
    #expect(seen.items == [0, 1, 2, 3])
  }

  @Test func finishWithNothingSubmittedReturns() {
    let handoff = Handoff<Int>(name: "handoff-empty", wakeAt: 3) { _ in Issue.record("no item was submitted")
    }
    handoff.finish()
  }
}
