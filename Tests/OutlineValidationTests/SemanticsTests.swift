import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

/// The validator's reading of the rest of the Core Data model language, in
/// process, with positions as `path:line:col` shows them: inverse pairs
/// written from one side, uniqueness constraints, derived and fetched
/// properties, values that are not on the calendar or in range, and ids.
@Suite struct SemanticsTests {
  static let libraryModel = ModelLoader.load(
    SourceText(
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Library">
              <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="library" inverseEntity="Book"/>
          </entity>
          <entity name="Author">
              <relationship name="books" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
          </entity>
          <entity name="Book">
              <attribute name="title" optional="YES" attributeType="String"/>
              <relationship name="library" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="books" inverseEntity="Library"/>
              <relationship name="author" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
              <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
          </entity>
          <entity name="Tag">
              <relationship name="books" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
          </entity>
      </model>
      """))

  static let accountsModel = ModelLoader.load(SourceText(ModelFixtures.numberedAccounts))

  /// Each diagnostic as `line:col: severity[code]: message`, columns in
  /// Unicode scalars and both 1-based, with related locations after it.
  static func lint(_ text: String, model: Model) -> [String] {
    let source = SourceText(text)
    let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    func at(_ offset: Int) -> String {
      let position = source.position(of: offset, unit: .scalar)
      return "\(position.line + 1):\(position.column + 1)"
    }
    return Diagnostic.sortedByPosition(validator.diagnostics).flatMap { diagnostic in
      ["\(at(diagnostic.range.start)): \(diagnostic.severity)[\(diagnostic.code)]: \(diagnostic.message)"]
        + diagnostic.related.map { "  \(at($0.range.start)): note: \($0.message)" }
    }
  }

  @Test func anInverseWrittenOnOneSideCountsForBoth() {
    let written = """
      <outline>
        <Book title="Dune" author="a1" tags="t1"/>
        <Author xml:id="a1"/>
        <Tag xml:id="t1"/>
      </outline>

      """
    #expect(Self.lint(written, model: Self.libraryModel) == [])
    let missing = written.replacingOccurrences(of: " tags=\"t1\"", with: "")
    #expect(
      Self.lint(missing, model: Self.libraryModel) == [
        "4:16: error[OL503]: 'Tag' 't1' needs 'books' (not optional): it does not write it and no object names it through 'tags'"
      ])
  }

  @Test func uniquenessComparesTypedValuesAcrossSubEntities() {
    let text = """
      <outline>
        <Account login="ann" number="7"/>
        <Account login="bob" number="8"/>
        <Admin login="cy" number="007"/>
      </outline>

      """
    #expect(
      Self.lint(text, model: Self.accountsModel) == [
        "4:29: error[OL505]: This 'Admin' has the same 'number' as an earlier object: the uniqueness constraint of 'Account' allows one",
        "  2:32: note: the first object with these values",
      ])
  }

  @Test func derivedValuesAreNeverRequiredAndFetchedPropertiesNeverWritten() {
    #expect(Self.lint("<outline><Account login=\"ann\"/></outline>\n", model: Self.accountsModel) == [])
    let written = """
      <outline>
        <Account login="ann" loginLength="3" sameNumber="x"/>
      </outline>

      """
    #expect(
      Self.lint(written, model: Self.accountsModel) == [
        "2:24: warning[OL206]: 'loginLength' is derived (login.length): Core Data computes it and overwrites this value; remove it",
        "2:40: error[OL203]: 'sameNumber' is a fetched property of 'Account': a saved query Core Data evaluates when it is read, never stored; remove it",
      ])
  }

  static func testOutline(_ items: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\" model=\"Test.xcdatamodel\">\n\(items)</outline>\n"
  }

  @Test func impossibleValuesAreErrorsAtTheValue() {
    let lines = Self.lint(
      Self.testOutline(
        """
          <Item order="0" when="2024-02-30T00:00Z"/>
          <Item order="1" when="2023-02-29T10:00Z"/>
          <Item order="2" when="2024-02-29T25:00Z"/>
          <Item order="3" when="2024-02-29T10:00+25:00"/>
          <Item order="4" when="2024-02-29T10:00Z" ratio="1e400" weight="3.5e38" price="1e400"/>
          <Item order="5" ratio="inf" weight="nan" price="12345678901234567890123456789012345678.9"/>

        """), model: Fixtures.testModel)
    #expect(
      lines == [
        "3:25: error[OL300]: 'when': '2024-02-30T00:00Z': February 2024 has 29 days, not 30",
        "4:25: error[OL300]: 'when': '2023-02-29T10:00Z': February 2023 has 28 days, not 29",
        "5:25: error[OL300]: 'when': '2024-02-29T25:00Z': hour 25 is not 0-23",
        "6:25: error[OL300]: 'when': '2024-02-29T10:00+25:00': the time-zone offset +25:00 is beyond ±18:00",
        "7:51: error[OL300]: 'ratio': '1e400' is outside the Double range ±1.7976931348623157e308",
        "7:66: error[OL300]: 'weight': '3.5e38' is outside the Float range ±3.4028235e38",
        "7:81: error[OL300]: 'price': '1e400' is outside the Decimal range (38 digits times 10^-128...10^127)",
        "8:26: error[OL300]: 'ratio': 'inf' is not a decimal number (Double)",
        "8:39: error[OL300]: 'weight': 'nan' is not a decimal number (Float)",
        "8:51: error[OL300]: 'price': '12345678901234567890123456789012345678.9' has 39 significant digits; Decimal keeps at most 38",
      ], "\(lines.joined(separator: "\n"))")
  }

  @Test func idsThatAreNotXMLNamesArePositionedErrors() {
    let lines = Self.lint(
      Self.testOutline(
        """
          <Item order="0" xml:id="1st" related="a:b"/>
          <Item order="1" xml:id="a:b" related="1st"/>
          <Item order="2" xml:id="a_b"/>

        """), model: Fixtures.testModel)
    #expect(
      lines.filter { $0.contains("OL510") } == [
        "3:27: error[OL510]: The id '1st' is not an XML name (a letter or _ first, then letters, digits, _, - or .)",
        "3:41: error[OL510]: 'related' names 'a:b', which is not an XML name",
        "4:27: error[OL510]: The id 'a:b' is not an XML name (a letter or _ first, then letters, digits, _, - or .)",
        "4:41: error[OL510]: 'related' names '1st', which is not an XML name",
      ], "\(lines.joined(separator: "\n"))")
  }
}
