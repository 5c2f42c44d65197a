import CLibXML2

/// Hints to the processor's caches.
public enum CacheHint {
  /// Asks for the cache line at `address` ahead of a read (a hint: nothing waits for it).
  @inlinable
  public static func prefetch(_ address: UnsafeRawPointer) {
    outline_prefetch(address)
  }

  /// Asks for the cache line at `address` ahead of a write to it (a hint: nothing waits for it).
  @inlinable
  public static func prefetchForWrite(_ address: UnsafeRawPointer) {
    outline_prefetch_for_write(address)
  }
}
