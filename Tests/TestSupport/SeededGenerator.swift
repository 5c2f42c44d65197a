/// A random number generator that repeats from its seed, so a generated
/// test input is the same on every run (a 64-bit LCG, output mixed).
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// A generator starting from `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    var mixed = state
    mixed = (mixed ^ (mixed >> 33)) &* 0xff51_afd7_ed55_8ccd
    return mixed ^ (mixed >> 33)
  }
}
