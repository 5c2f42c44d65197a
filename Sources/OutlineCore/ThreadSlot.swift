import Foundation

/// One pointer kept by each thread, freed by `destructor` when its thread ends
/// with it still kept: how a worker keeps what it made for one document (a
/// parser context, a validator) for its next one.
public final class ThreadSlot: @unchecked Sendable {
  private var key = pthread_key_t()

  /// A slot whose pointers `destructor` frees at their thread's end.
  public init(destructor: @convention(c) (UnsafeMutableRawPointer?) -> Void) {
    pthread_key_create(&key, destructor)
  }

  /// The calling thread's pointer, taken out of the slot; nil when it keeps none.
  public func take() -> UnsafeMutableRawPointer? {
    guard let kept = pthread_getspecific(key) else { return nil }
    pthread_setspecific(key, nil)
    return kept
  }

  /// Keeps `pointer` for the calling thread; false (and nothing kept) when it keeps one already.
  public func put(_ pointer: UnsafeMutableRawPointer) -> Bool {
    guard pthread_getspecific(key) == nil else { return false }
    pthread_setspecific(key, pointer)
    return true
  }

  /// The calling thread's pointer, left in the slot; nil when it keeps none.
  public var current: UnsafeMutableRawPointer? { pthread_getspecific(key) }

  /// Whether the calling thread keeps a pointer now.
  public var isFilled: Bool { pthread_getspecific(key) != nil }
}
