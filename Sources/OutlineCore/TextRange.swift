/// A half-open range of UTF-8 byte offsets into a source text.
///
/// Offsets are the one unit used inside the toolchain; lines and columns
/// (UTF-16, UTF-8 or Unicode scalars) are computed only at the edges, by
/// ``LineIndex``.
public struct TextRange: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The offset of the first byte.
  public var start: Int
  /// The offset one past the last byte.
  public var end: Int

  /// Creates a range from `start` up to (not including) `end`.
  @inlinable
  public init(start: Int, end: Int) {
    self.start = start
    self.end = end
  }

  /// An empty range at `offset`.
  @inlinable
  public init(at offset: Int) {
    self.init(start: offset, end: offset)
  }

  /// The number of bytes covered.
  @inlinable
  public var length: Int { end - start }

  /// Whether `offset` lies inside the range (an empty range contains its start).
  @inlinable
  public func contains(_ offset: Int) -> Bool {
    offset >= start && (offset < end || (start == end && offset == start))
  }

  /// Whether `other` lies wholly inside this range.
  @inlinable
  public func contains(_ other: TextRange) -> Bool {
    other.start >= start && other.end <= end
  }

  public static func < (lhs: TextRange, rhs: TextRange) -> Bool {
    (lhs.start, lhs.end) < (rhs.start, rhs.end)
  }

  public var description: String { "\(start)..<\(end)" }
}
