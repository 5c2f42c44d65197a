import Foundation

/// Properties checked over generated inputs (Documentation/Guarantees.md).
///
/// A property runs `cases` times, each case with its own seed drawn from the
/// run's seed, and a failing case names its seed so that it can be replayed
/// alone: `OUTLINE_PROPERTY_SEED=<seed> swift test --filter <test>`. Under
/// `OUTLINE_SLOW_TESTS=1` (CI) every property runs `slowFactor` times as many
/// cases; `OUTLINE_PROPERTY_CASES` sets the number outright.
public enum Property {
  /// The seed of the whole run: `OUTLINE_PROPERTY_SEED` when set, else one
  /// fixed seed, so that a developer's run and CI's see the same cases.
  public static let runSeed: UInt64 = {
    let text = ProcessInfo.processInfo.environment["OUTLINE_PROPERTY_SEED"] ?? ""
    return UInt64(text) ?? 0x6f75_746c_696e_65
  }()

  /// How many cases a property that asks for `cases` runs in this run.
  public static func count(_ cases: Int, slowFactor: Int = 5) -> Int {
    if let text = ProcessInfo.processInfo.environment["OUTLINE_PROPERTY_CASES"], let value = Int(text) {
      return max(1, value)
    }
    return SlowTests.enabled ? cases * slowFactor : cases
  }

  /// A failure of one case: its seed and what went wrong.
  public struct Failure: Error, CustomStringConvertible {
    public var property: String
    public var seed: UInt64
    public var message: String
    public var description: String {
      "property '\(property)' failed for seed \(seed) "
        + "(replay: OUTLINE_PROPERTY_SEED=\(seed) OUTLINE_PROPERTY_CASES=1): \(message)"
    }
  }

  /// Runs `body` for `count(cases)` cases. Each case gets a generator seeded
  /// from its own seed (the first case's seed is the run's seed, so a replay
  /// with `OUTLINE_PROPERTY_CASES=1` runs exactly the failing case) and
  /// returns `nil` when the property holds, or what went wrong. The first
  /// failure is thrown with its seed.
  public static func check(
    _ property: String, cases: Int, slowFactor: Int = 5,
    _ body: (_ random: inout SeededGenerator, _ seed: UInt64) throws -> String?
  ) throws {
    var seeds = SeededGenerator(seed: runSeed)
    var seed = runSeed
    for _ in 0..<count(cases, slowFactor: slowFactor) {
      var random = SeededGenerator(seed: seed)
      let outcome: String?
      do {
        outcome = try body(&random, seed)
      } catch {
        outcome = "threw \(error)"
      }
      if let message = outcome {
        throw Failure(property: property, seed: seed, message: message)
      }
      seed = seeds.next()
    }
  }
}
