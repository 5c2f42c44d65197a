/// Tests on eight bytes at once (SWAR), for scanners that skip plain runs of
/// text a word at a time. Each returns a word whose byte has its high bit set
/// where the test may hold (a set high bit anywhere means "look closer"; the
/// caller then checks byte by byte), and no high bit when it holds nowhere.
public enum WordScan {
  public static let ones: UInt64 = 0x0101_0101_0101_0101
  public static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The eight bytes at `pointer`.
  @inlinable @inline(__always)
  public static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
    UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
  }

  /// High bits where a byte of `word` may equal `byte`.
  @inlinable @inline(__always)
  public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & highs
  }

  /// High bits where a byte of `word` may be below `bound` (at most 0x80).
  @inlinable @inline(__always)
  public static func below(_ word: UInt64, _ bound: UInt8) -> UInt64 {
    (word &- ones &* UInt64(bound)) & ~word & highs
  }

  /// High bits where a byte of `word` is above 0x7F (not ASCII).
  @inlinable @inline(__always)
  public static func nonASCII(_ word: UInt64) -> UInt64 { word & highs }
}
