import Foundation

/// Runs work over items on several threads, keeping results in input order.
enum ParallelMap {
  static func map<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ body: @Sendable (T) -> R) -> [R] {
    if jobs <= 1 || items.count <= 1 { return items.map(body) }
    let results = ResultSlots<R>(count: items.count)
    let next = IndexCounter()
    DispatchQueue.concurrentPerform(iterations: min(jobs, items.count)) { _ in
      while true {
        let index = next.increment()
        if index >= items.count { return }
        results.set(index, body(items[index]))
      }
    }
    return results.values()
  }
}

/// Runs work over items on several threads as a producer finds them (a
/// folder's search), while it is still finding more: a shared queue the
/// threads take from one at a time, so a thread never waits on another's share.
enum StreamingMap {
  /// Runs `body` on up to `jobs` threads (one for each item emitted, at most
  /// ``maximumWorkers``) over every item `produce` emits, as soon as it is
  /// emitted, the calling thread joining them once `produce` is done; returns what `produce` returns (the items in the order
  /// wanted, each emitted once for each time it appears) with each one's result.
  static func map<R: Sendable>(
    jobs: Int, produce: (_ emit: (String) -> Void) -> [String], _ body: @escaping @Sendable (String) -> R
  ) -> (items: [String], results: [R]) {
    withoutActuallyEscaping(produce) { produce in run(jobs: jobs, produce: { (produce($0), nil) }, body) }
  }

  /// ``map(jobs:produce:_:)`` where `produce` also says, for each item it returns, the
  /// number of the `emit` call that gave it (0 for the first): the results are put in
  /// that order by these numbers, with no lookup of the items.
  static func mapInOrder<R: Sendable>(
    jobs: Int, produce: (_ emit: (String) -> Void) -> (items: [String], emitted: [Int]),
    _ body: @escaping @Sendable (String) -> R
  ) -> (items: [String], results: [R]) {
    withoutActuallyEscaping(produce) { produce in
      // The same numbers, as the optional `run` takes.
      run(jobs: jobs, produce: { emit in produce(emit) as ([String], [Int]?) }, body)
    }
  }

  /// The most threads a run starts, whatever `--jobs` says: past a few hundred they only
  /// contend for the cores, and Linux refuses a thread somewhere past 32,000.
  static let maximumWorkers = 256

  private static func run<R: Sendable>(
    jobs: Int, produce: (_ emit: (String) -> Void) -> (items: [String], emitted: [Int]?),
    _ body: @escaping @Sendable (String) -> R
  ) -> (items: [String], results: [R]) {
    let queue = WorkQueue()
    let results = HandedResults<R>()
    let finished = DispatchGroup()
    let limit = min(max(1, jobs), maximumWorkers)
    var started = 0
    /// Takes items until the queue is closed and empty, handing the results over once at the end.
    @Sendable func work() {
      // Each thread keeps its results and hands them over once at its end: a lock and a
      // shared array written for every item moved their cache lines between the cores.
      var mine: [(index: Int, result: R)] = []
      while let (index, item) = queue.take() { mine.append((index, body(item))) }
      results.hand(mine)
    }
    let (items, given) = produce { item in
      queue.put(item)
      // A thread for each item found, up to the limit: never more threads than items.
      guard started < limit else { return }
      started += 1
      Thread {
        // Entered before its first take: an item this thread takes is waited for. A thread
        // that never starts (Linux refusing one fails silently) is never waited for.
        finished.enter()
        work()
        finished.leave()
      }.start()
    }
    let emitted = queue.close()
    // This thread takes what is left too, so the run ends even when no thread could start.
    work()
    finished.wait()
    let order = given ?? Self.order(of: items, emitted: emitted)
    // Each result is moved, never copied (copying and freeing ten thousand results was
    // most of the time the run spent on one core after the threads were done).
    var all = results.take(count: emitted.count)
    var ordered: [R] = []
    ordered.reserveCapacity(items.count)
    for index in order { ordered.append(all[index].take()!) }
    return (items, ordered)
  }

  /// For each of `items`, the index in `emitted` of its next occurrence.
  private static func order(of items: [String], emitted: [String]) -> [Int] {
    // Per item its first emitted index, and per index the item's next one (an item named
    // twice is emitted twice): no array made for each item.
    var first: [String: Int] = [:]
    first.reserveCapacity(emitted.count)
    var next = [Int](repeating: -1, count: emitted.count)
    for (index, item) in emitted.enumerated().reversed() {
      if let later = first.updateValue(index, forKey: item) { next[index] = later }
    }
    return items.map { advance(&first[$0]!, next) }
  }

  /// The index `slot` holds, leaving it at the next one.
  private static func advance(_ slot: inout Int, _ next: [Int]) -> Int {
    let index = slot
    slot = next[index]
    return index
  }
}

/// Items put by one thread and taken by several, each once, in order.
final class WorkQueue: @unchecked Sendable {
  private var items: [String] = []
  private var next = 0
  private var closed = false
  private let condition = NSCondition()

  func put(_ item: String) {
    condition.lock()
    items.append(item)
    condition.signal()
    condition.unlock()
  }

  /// Ends the queue; every item put, in order.
  func close() -> [String] {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
    return items
  }

  /// The next item and its index, waiting for one; nil once the queue is closed and empty.
  func take() -> (Int, String)? {
    condition.lock()
    defer { condition.unlock() }
    while next == items.count && !closed { condition.wait() }
    guard next < items.count else { return nil }
    next += 1
    return (next - 1, items[next - 1])
  }
}

/// Results by index, handed over by several threads (each its own, once), the count not known in advance.
final class HandedResults<R: Sendable>: @unchecked Sendable {
  private var handed: [[(index: Int, result: R)]] = []
  private let lock = NSLock()
  /// One thread's results, each with its index.
  func hand(_ results: [(index: Int, result: R)]) {
    lock.lock()
    handed.append(results)
    lock.unlock()
  }
  /// The results of indexes `0..<count`, every one handed over, moved out by index.
  func take(count: Int) -> [R?] {
    lock.lock()
    var all = handed
    handed = []
    lock.unlock()
    var slots = [R?](repeating: nil, count: count)
    // Popped, so each result is moved into its slot, not copied and released.
    while var results = all.popLast() {
      while let (index, result) = results.popLast() { slots[index] = result }
    }
    return slots
  }
}

/// Results by index, each set once by one of several threads, the count known in advance.
final class ResultSlots<R: Sendable>: @unchecked Sendable {
  private var slots: [R?]
  private let lock = NSLock()
  init(count: Int) { slots = Array(repeating: nil, count: count) }
  func set(_ index: Int, _ value: R) {
    lock.lock()
    slots[index] = value
    lock.unlock()
  }
  func values() -> [R] { slots.map { $0! } }
}

/// The next index to take, handed out once each to several threads.
final class IndexCounter: @unchecked Sendable {
  private var value = 0
  private let lock = NSLock()
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value - 1
  }
}
