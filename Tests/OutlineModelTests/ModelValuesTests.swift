import OutlineModel
import Testing

/// Values as Core Data and Foundation read them: calendar dates, float
/// ranges, NSDecimalNumber's limits, canonical integers.
@Suite struct ModelValuesTests {
  @Test(arguments: [
    "2024-02-29T12:00Z", "2000-02-29T00:00:00Z", "2023-12-31T23:59:59.999+02:00", "2024-04-30T00:00-0330",
    "2024-01-31T00:00+18:00", "2024-01-31T00:00-18", "1600-02-29T00:00Z",
  ])
  func calendarDatesAreAccepted(_ text: String) {
    #expect(ModelValues.dateProblem(text) == nil)
  }

  @Test(arguments: [
    ("2024-02-30T00:00Z", "February 2024 has 29 days, not 30"),
    ("2023-02-29T00:00Z", "February 2023 has 28 days, not 29"),
    ("1900-02-29T00:00Z", "February 1900 has 28 days, not 29"),
    ("2024-04-31T00:00Z", "April 2024 has 30 days, not 31"),
    ("2024-00-10T00:00Z", "there is no month 0"),
    ("2024-13-10T00:00Z", "there is no month 13"),
    ("2024-01-00T00:00Z", "January 2024 has 31 days, not 0"),
    ("2024-01-01T25:00Z", "hour 25 is not 0-23"),
    ("2024-01-01T24:00Z", "hour 24 is not 0-23"),
    ("2024-01-01T10:60Z", "minute 60 is not 0-59"),
    ("2024-01-01T10:00:60Z", "second 60 is not 0-59"),
    ("2024-01-01T10:00+25:00", "the time-zone offset +25:00 is beyond ±18:00"),
    ("2024-01-01T10:00-18:01", "the time-zone offset -18:01 is beyond ±18:00"),
    ("2024-01-01T10:00+02:75", "the offset +02:75 has minute 75, not 0-59"),
    ("2024-02-29", "has no time and time zone"),
    ("2024-02-29T10:00", "has no time zone"),
  ])
  func impossibleDatesSayWhy(_ text: String, _ expected: String) {
    let problem = ModelValues.dateProblem(text)
    #expect(problem?.contains(expected) == true, "\(problem ?? "accepted")")
    #expect(ModelValues.problem(with: text, as: .date) == problem)
  }

  @Test func malformedDatesAreSyntaxErrors() {
    for text in [
      "", "2024", "2024-1-01T00:00Z", "2024-01-01 10:00Z", "2024-01-01T10:00Zx", "2024-01-01T10:00+2",
    ] {
      #expect(ModelValues.dateProblem(text)?.contains("is not an ISO 8601 date") == true, "\(text)")
    }
  }

  /// Digits past 64 bits are an integer out of range, said as a smaller type's are; anything
  /// else that does not read is not a decimal integer.
  @Test func integersPast64BitsAreOutOfRange() {
    for text in ["9223372036854775808", "-9223372036854775809", "+99999999999999999999999"] {
      #expect(
        ModelValues.problem(with: text, as: .integer64)
          == "'\(text)' is outside the Integer 64 range -9223372036854775808...9223372036854775807")
      #expect(
        ModelValues.problem(with: text, as: .integer16)?.contains("outside the Integer 16 range") == true)
    }
    #expect(ModelValues.problem(with: "9223372036854775807", as: .integer64) == nil)
    for text in ["+-5", "12a", "-", "", "1 2", "0x10"] {
      #expect(
        ModelValues.problem(with: text, as: .integer64)?.contains("is not a decimal integer") == true,
        "\(text)")
    }
  }

  @Test func floatingPointRanges() {
    #expect(ModelValues.problem(with: "1.7976931348623157e308", as: .double) == nil)
    #expect(ModelValues.problem(with: "-1.7976931348623157e308", as: .double) == nil)
    #expect(ModelValues.problem(with: "1e-400", as: .double) == nil)  // Foundation reads 0
    #expect(ModelValues.problem(with: "1e400", as: .double)?.contains("outside the Double range") == true)
    #expect(ModelValues.problem(with: "-2e308", as: .double)?.contains("outside the Double range") == true)
    #expect(ModelValues.problem(with: "3.4028235e38", as: .float) == nil)
    #expect(ModelValues.problem(with: "-3.4028235e38", as: .float) == nil)
    #expect(ModelValues.problem(with: "3.5e38", as: .float)?.contains("outside the Float range") == true)
    #expect(ModelValues.problem(with: "-1e39", as: .float)?.contains("outside the Float range") == true)
    for text in ["inf", "nan", "Infinity", "-inf", "NaN", "0x1p3"] {
      #expect(ModelValues.problem(with: text, as: .double)?.contains("is not a decimal number") == true)
      #expect(ModelValues.problem(with: text, as: .float)?.contains("is not a decimal number") == true)
      #expect(ModelValues.problem(with: text, as: .decimal)?.contains("is not a decimal number") == true)
    }
  }

  @Test func decimalFollowsNSDecimalNumber() {
    let thirtyEight = String(repeating: "9", count: 38)
    for text in [
      thirtyEight, "-" + thirtyEight, "0." + thirtyEight, thirtyEight + "000", "0.000" + thirtyEight,
      "1e127", "1e130", "1e-128", "12.5e-127", "0", "-0.0", "000123.4500",
      "1" + String(repeating: "0", count: 37) + "e127",
    ] {
      #expect(ModelValues.decimalProblem(text) == nil, "\(text)")
    }
    #expect(ModelValues.decimalProblem(thirtyEight + "9")?.contains("39 significant digits") == true)
    #expect(ModelValues.decimalProblem("1." + thirtyEight)?.contains("39 significant digits") == true)
    for text in [
      "1e400", "1e-129", "12e-129", "1" + String(repeating: "1", count: 37) + "e128", "1e99999999999999999",
    ] {
      #expect(ModelValues.decimalProblem(text)?.contains("outside the Decimal range") == true, "\(text)")
    }
    #expect(ModelValues.problem(with: "1e400", as: .decimal) != nil)
  }

  @Test func integersHaveOneCanonicalText() {
    #expect(ModelValues.canonicalInteger("-0") == "0")
    #expect(ModelValues.canonicalInteger("+3") == "3")
    #expect(ModelValues.canonicalInteger("007") == "7")
    #expect(ModelValues.canonicalInteger("-0012") == "-12")
    #expect(ModelValues.canonicalInteger("-9223372036854775808") == "-9223372036854775808")
    #expect(ModelValues.canonicalInteger("9223372036854775808") == nil)
    #expect(ModelValues.canonicalInteger("1.0") == nil)
    // Non-canonical integers are still values: Core Data reads them.
    #expect(ModelValues.problem(with: "-0", as: .integer16) == nil)
    #expect(ModelValues.problem(with: "+0007", as: .integer32) == nil)
  }
}
