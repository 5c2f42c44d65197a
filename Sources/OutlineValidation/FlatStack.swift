/// A stack of plain values in memory of its own, for the validator's per-element stacks (open
/// elements, their children, their titles' bytes): an append or a pop is a store or a load and
/// a count, where an `Array` in a class checks uniqueness and capacity through generic code
/// on every `removeLast(_:)` (Documentation/PerformanceHistory.md has what that cost).
/// Noncopyable, so the memory has one owner, which frees it; its elements hold no references.
struct FlatStack<Element>: ~Copyable {
  private var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private(set) var capacity: Int

  init(capacity: Int = 16) {
    // Elements are dropped without deinitialization: plain values only.
    precondition(_isPOD(Element.self), "FlatStack holds plain values only")
    self.capacity = max(capacity, 1)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  var isEmpty: Bool { count == 0 }

  /// The element at `index`, read or written in place.
  subscript(index: Int) -> Element {
    unsafeAddress {
      precondition(index >= 0 && index < count, "FlatStack index out of range")
      return UnsafePointer(base + index)
    }
    unsafeMutableAddress {
      precondition(index >= 0 && index < count, "FlatStack index out of range")
      return base + index
    }
  }

  var last: Element? { count > 0 ? base[count - 1] : nil }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow(to: count + 1) }
    (base + count).initialize(to: element)
    count += 1
  }

  mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
    guard let source = elements.baseAddress, !elements.isEmpty else { return }
    if count + elements.count > capacity { grow(to: count + elements.count) }
    (base + count).initialize(from: source, count: elements.count)
    count += elements.count
  }

  @inline(__always)
  mutating func popLast() -> Element? {
    guard count > 0 else { return nil }
    count -= 1
    return base[count]
  }

  /// Keeps the first `newCount` elements (at most `count`).
  @inline(__always)
  mutating func truncate(to newCount: Int) {
    if newCount >= 0 && newCount < count { count = newCount }
  }

  /// Empties the stack; its memory is kept while it holds at most `limit` elements.
  mutating func removeAll(keepingUpTo limit: Int = .max) {
    count = 0
    if capacity > limit {
      base.deallocate()
      capacity = 16
      base = .allocate(capacity: capacity)
    }
  }

  func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try body(UnsafeBufferPointer(start: base, count: count))
  }

  private mutating func grow(to needed: Int) {
    var grown = capacity * 2
    while grown < needed { grown *= 2 }
    let memory = UnsafeMutablePointer<Element>.allocate(capacity: grown)
    memory.moveInitialize(from: base, count: count)
    base.deallocate()
    base = memory
    capacity = grown
  }
}
