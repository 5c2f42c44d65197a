import CLibXML2

/// A count that threads read and bump without a lock (C11 atomics through the shim: Swift's
/// own `Atomic` needs macOS 15): the configuration finder's generation. Here so that no other
/// module imports the libxml2 shim.
public final class AtomicCounter: @unchecked Sendable {
  private let value: UnsafeMutablePointer<Int>

  /// A count of 0.
  public init() {
    value = .allocate(capacity: 1)
    value.initialize(to: 0)
  }

  deinit { value.deallocate() }

  /// The count (an acquiring load: what was written before the increment that made it is seen).
  public var current: Int { outline_atomic_load(value) }

  /// Adds one.
  public func increment() { outline_atomic_increment(value) }
}
