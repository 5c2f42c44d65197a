import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

/// Uniqueness members compared as Core Data stores them, in process: a Date as the Double of
/// seconds since 2001 from every digit, binary data by its bytes, decimals by value. (One
/// collision goes through the binary in UniquenessCLITests.)
@Suite struct UniquenessStorageTests {
  static func model(_ type: String) -> Model {
    ModelLoader.load(SourceText(ModelFixtures.uniqueEvents(type)))
  }

  /// `line:col: severity[code]: message` of each problem of the events `values` under a root.
  static func lint(_ type: String, _ values: [String]) -> [String] {
    let events = values.map { "  <Event at=\"\($0)\"/>\n" }.joined()
    return SemanticsTests.lint("<outline model=\"U.xcdatamodel\">\n\(events)</outline>\n", model: model(type))
  }

  @Test func datesBelowAMillisecondApartAreDistinct() {
    let lines = Self.lint(
      "Date",
      [
        "2024-05-01T09:30:00.0011Z", "2024-05-01T09:30:00.0019Z", "2024-05-01T09:30:00.5004Z",
        "2024-05-01T09:30:00.5006Z",
      ])
    #expect(lines == [])
  }

  @Test func binaryDataAndDecimalsCompareByValue() {
    let binary = Self.lint("Binary", ["AAAA", "AA AA"])
    #expect(binary.contains { $0.hasPrefix("3:14: error[OL505]") }, "\(binary)")
    let decimal = Self.lint("Decimal", ["1.0", "1.00", "1e130", "10e129"])
    #expect(decimal.contains { $0.hasPrefix("3:14: error[OL505]") }, "\(decimal)")
    #expect(decimal.contains { $0.hasPrefix("5:14: error[OL505]") }, "\(decimal)")
  }
}
