/// Asks the kernel to back large tables with 2 MiB pages where it can (Linux's transparent
/// huge pages, in their `madvise` mode): a table that outgrows the caches and is reached at
/// random, as the id table is at a million items, then costs one page fault and one TLB entry
/// per 2 MiB instead of per 4 KiB. A hint: nothing changes where the kernel declines, and
/// elsewhere it does nothing.
public enum LargePages {
  /// The size of a large page.
  public static let bytes = 1 << 21

  /// Advises the whole large pages inside the `count` bytes at `base`, which nothing has
  /// touched yet (a page already faulted in stays small).
  public static func advise(_ base: UnsafeMutableRawPointer, count: Int) {
    #if os(Linux)
      let pages = whole(address: Int(bitPattern: base), count: count)
      guard !pages.isEmpty, let first = UnsafeMutableRawPointer(bitPattern: pages.lowerBound) else { return }
      _ = madvise(first, pages.count, Int32(MADV_HUGEPAGE))
    #endif
  }

  /// The addresses of the whole large pages inside the `count` bytes at `address`: from its
  /// first large-page boundary to its last; empty when none fits.
  public static func whole(address: Int, count: Int) -> Range<Int> {
    let start = (address + bytes - 1) & ~(bytes - 1)
    let end = (address + count) & ~(bytes - 1)
    return end > start ? start..<end : start..<start
  }
}
