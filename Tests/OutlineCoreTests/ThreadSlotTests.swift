import Foundation
import OutlineCore
import Testing

/// Counts the pointers a slot's destructor freed (a C function reaches no captures).
private let freed = FreedCount()

private final class FreedCount: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func add() { lock.withLock { value += 1 } }
  var count: Int { lock.withLock { value } }
}

private let slot = ThreadSlot { pointer in
  pointer?.deallocate()
  freed.add()
}

@Suite struct ThreadSlotTests {
  @Test func eachThreadKeepsOneAndTakingEmptiesIt() {
    let first = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    let second = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    #expect(slot.take() == nil)
    #expect(slot.put(first))
    #expect(slot.isFilled)
    #expect(!slot.put(second), "a thread keeps one pointer")
    #expect(slot.take() == first)
    #expect(!slot.isFilled)
    #expect(slot.take() == nil)
    first.deallocate()
    second.deallocate()
  }

  @Test func anotherThreadSeesItsOwnAndItsKeptPointerIsFreedWhenItEnds() {
    let before = freed.count
    let mine = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    #expect(slot.put(mine))
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let theirs = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
      // This thread's slot is empty whatever the other keeps.
      if slot.take() == nil, slot.put(theirs) { done.signal() }
    }
    thread.start()
    done.wait()
    // The destructor runs as the thread exits.
    var waited = 0
    while freed.count == before && waited < 500 {
      usleep(2_000)
      waited += 1
    }
    #expect(freed.count == before + 1)
    #expect(slot.take() == mine)
    mine.deallocate()
  }
}
