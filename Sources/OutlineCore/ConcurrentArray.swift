import Dispatch

extension Array {
  /// An array of `count` elements, element `index` made by `make(index)`, the elements made
  /// at once on as many threads as the machine gives: each thread writes only its own
  /// element, so `make` needs no lock of its own (it must be safe to call concurrently).
  public init(concurrentlyMaking count: Int, _ make: (_ index: Int) -> Element) {
    self = withoutActuallyEscaping(make) { make in
      nonisolated(unsafe) let make = make  // safe to call concurrently, as the caller promises
      return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
        nonisolated(unsafe) let out = buffer  // each iteration initializes its own element
        DispatchQueue.concurrentPerform(iterations: count) { index in
          (out.baseAddress! + index).initialize(to: make(index))
        }
        initialized = count
      }
    }
  }
}
