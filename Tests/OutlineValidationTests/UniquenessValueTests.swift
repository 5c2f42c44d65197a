import OutlineCore
import OutlineModel
import Testing

@testable import OutlineValidation

/// Uniqueness compares each type's values as Core Data stores them (Models.md, "Uniqueness
/// constraints"): two writings of one stored value collide, two stored values never do.
@Suite struct UniquenessValueTests {
  static let types = [
    ("i", "Integer 64"), ("b", "Boolean"), ("d", "Double"), ("f", "Float"), ("n", "Decimal"), ("u", "UUID"),
    ("t", "Date"), ("x", "Binary"), ("l", "URI"), ("s", "String"),
  ]

  /// One entity `V` with an optional attribute of each type, each its own constraint.
  static let model: Model = {
    let attributes = types.map { "<attribute name=\"\($0.0)\" optional=\"YES\" attributeType=\"\($0.1)\"/>" }
    let constraints = types.map {
      "<uniquenessConstraint><constraint value=\"\($0.0)\"/></uniquenessConstraint>"
    }
    return ModelLoader.load(
      SourceText(
        "<model><entity name=\"V\">\(attributes.joined())<uniquenessConstraints>\(constraints.joined())"
          + "</uniquenessConstraints></entity></model>"))
  }()

  /// The OL505s of objects `V` with `name` set to each of `values` (written as they are, in quotes).
  func duplicates(_ name: String, _ values: [String]) -> [Int] {
    let body = values.map { "<V \(name)=\"\($0)\"/>" }.joined(separator: "\n")
    let diagnostics = validate("<outline>\n\(body)\n</outline>\n", model: Self.model)
    #expect(
      !diagnostics.contains { $0.severity == .error && $0.code != .uniquenessViolation }, "\(diagnostics)")
    // The number (from 1) of each duplicate object: the line it stands on.
    let text = Array("<outline>\n\(body)\n</outline>\n".utf8)
    return diagnostics.filter { $0.code == .uniquenessViolation }.map { diagnostic in
      text[..<diagnostic.range.start].filter { $0 == 0x0A }.count
    }
  }

  @Test func modelLoads() {
    #expect(Self.model.diagnostics.filter { $0.severity == .error }.isEmpty, "\(Self.model.diagnostics)")
  }

  @Test func integersByValue() {
    #expect(duplicates("i", ["007", "7", "+7", "&#55;", "8", "-0", "0"]) == [2, 3, 4, 7])
  }

  @Test func booleansByTruthValue() {
    #expect(duplicates("b", ["YES", "true", "1", "NO", "false", "0"]) == [2, 3, 5, 6])
  }

  @Test func doublesAndFloatsAsTheNumberTheyRoundTo() {
    #expect(
      duplicates(
        "d",
        ["1", "1e0", "+1.00", "10E-1", "1.0000000000000002", "0", "-0.0", "0.1", "0.10000000000000000001"])
        == [2, 3, 4, 7, 9])
    // 0.1 and 0.100000001 are one Float, not one Double.
    #expect(duplicates("f", ["0.1", "0.100000001", "0.1000001"]) == [2])
  }

  @Test func decimalsByDecimalValue() {
    #expect(
      duplicates(
        "n",
        [
          "1.0", "1.00", "10e-1", "+1", ".1e1", "0.1", "0.10000000000000000001", "1e130", "10e129", "0",
          "-0.00e5",
        ])
        == [2, 3, 4, 5, 9, 11])
  }

  @Test func uuidsInEitherCase() {
    #expect(
      duplicates(
        "u",
        [
          "0A0B0C0D-0000-4000-8000-00000000000F", "0a0b0c0d-0000-4000-8000-00000000000f",
          "0a0b0c0d-0000-4000-8000-00000000000e",
        ])
        == [2])
  }

  @Test func datesAsTheDoubleOfSecondsCoreDataStores() {
    #expect(
      duplicates(
        "t",
        [
          "2024-05-01T09:30:00.0011Z", "2024-05-01T09:30:00.0019Z", "2024-05-01T09:30:00.5004Z",
          "2024-05-01T09:30:00.5006Z",
        ]) == [])
    #expect(
      duplicates(
        "t",
        [
          "2024-05-01T09:30Z", "2024-05-01T11:30:00.000+02:00", "2024-05-01T09:30:00+00:00",
          "2024-05-01T09:30:00+0000",
          "2024-05-01T04:00-05:30", "2024-05-01T09:30:00.0000001Z",
        ]) == [2, 3, 4, 5])
    // Before 2001 the seconds are negative; the fraction still counts in full.
    #expect(
      duplicates(
        "t", ["2000-12-31T23:59:59.25Z", "2001-01-01T01:59:59.2500+02:00", "2000-12-31T23:59:59.2500001Z"])
        == [2])
    // Digits below a Double's resolution do not tell two instants apart.
    #expect(
      duplicates(
        "t",
        ["2024-05-01T09:30:00.5Z", "2024-05-01T09:30:00.5" + String(repeating: "0", count: 2_000) + "1Z"])
        == [2])
  }

  @Test func binaryDataByItsBytes() {
    #expect(duplicates("x", ["AAAA", "AA AA", "AA&#10;AA", "AAAB", "AA==", "AB==", "AAE="]) == [2, 3, 6])
  }

  @Test func urisAndStringsAsWritten() {
    #expect(duplicates("l", ["http://a/", "HTTP://a/", "http://a/", "http://a"]) == [3])
    #expect(duplicates("s", ["a", "A", "a ", "&#97;"]) == [4])
  }

  @Test func secondsSinceTheReferenceDate() {
    #expect(DateInstant.secondsSinceReferenceDate("2001-01-01T00:00:00Z") == 0)
    #expect(DateInstant.secondsSinceReferenceDate("2001-01-01T00:00:01.5Z") == 1.5)
    #expect(DateInstant.secondsSinceReferenceDate("2000-12-31T23:59:59.25Z") == -0.75)
    #expect(DateInstant.secondsSinceReferenceDate("2001-01-01T02:00+02:00") == 0)
    #expect(DateInstant.secondsSinceReferenceDate("1970-01-01T00:00Z") == -978_307_200)
    // 2024-05-01T09:30:00Z is 736_248_600 seconds after the reference date.
    #expect(DateInstant.secondsSinceReferenceDate("2024-05-01T09:30:00.0011Z") == 736_248_600.0011)
    #expect(DateInstant.secondsSinceReferenceDate("2024-05-01T09:30:00.0019Z") == 736_248_600.0019)
    #expect(DateInstant.secondsSinceReferenceDate("2000-12-31T23:59:59.1Z") == -0.9)
    #expect(DateInstant.secondsSinceReferenceDate("2024-05-01T09:30:00.") == nil)
  }

  @Test func decimalValuesAndBase64() {
    #expect(DecimalValue("1.50") == DecimalValue("15e-1"))
    #expect(DecimalValue("1.50") != DecimalValue("-1.5"))
    #expect(DecimalValue("0") == DecimalValue("-0.000"))
    #expect(DecimalValue("abc") == nil)
    #expect(Base64Bytes.decode("SGVs bG8=") == Array("Hello".utf8))
    #expect(Base64Bytes.decode("SGVsbG8") == nil)
    #expect(UUIDBytes.of("00000000-0000-0000-0000-0000000000fF") == Array(repeating: 0, count: 15) + [0xFF])
  }

  @Test func aToOneMemberComparesTheIdItNames() {
    // `owner` read as the reference is: XML white space around the id is not part of it.
    let diagnostics = lintAccounts(
      """
      <Account login="a" number="1" owner="o1"/>
      <Account login="b" number="1" owner="\n\to1 "/>
      """)
    #expect(diagnostics.map(\.code) == [.uniquenessViolation], "\(diagnostics.map(\.message))")
  }
}
