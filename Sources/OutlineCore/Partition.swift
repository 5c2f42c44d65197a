/// Binary search over a sorted prefix: the one place the `low`/`high` loop is written for the
/// code that looks up a position among sorted ranges.
public enum Partition {
  /// The first index in `0..<count` where `before` is false, `before` holding for a prefix of
  /// them (so also: how many satisfy it).
  @inlinable
  public static func point(_ count: Int, _ before: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if before(middle) { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
