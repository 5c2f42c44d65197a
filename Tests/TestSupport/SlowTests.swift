import Foundation

/// Scale tests (a million items, ten thousand edits, writers killed at
/// many moments) run when `OUTLINE_SLOW_TESTS=1`, as CI runs them; a
/// developer's `swift test` skips them, each with one line saying how to
/// run it, and stays within two minutes.
public enum SlowTests {
  /// Whether this run includes the scale tests.
  public static let enabled: Bool = {
    let value = ProcessInfo.processInfo.environment["OUTLINE_SLOW_TESTS"] ?? ""
    return !value.isEmpty && value != "0"
  }()

  /// The one line a skipped scale test prints.
  public static let skipped = "a scale test: it runs with OUTLINE_SLOW_TESTS=1 (CI runs it)"
}
