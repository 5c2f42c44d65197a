import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
import TestSupport
import Testing

@testable import OutlineConvert

/// What `outline fmt` and `outline convert` make of values and markup, in process: leap days and
/// integers written in other ways lint clean and are normalized, an instruction holding `<?` is
/// kept whole, and an example goes XML -> JSON -> XML -> JSON unchanged. (The commands, their
/// files and exit codes, go through the binary in FmtConvertCLITests and ValuesCLITests.)
@Suite struct FormatValuesTests {
  static let testModel: Model = {
    let url = CLI.repository.appendingPathComponent("Tests/Fixtures/models/Test.xcdatamodel/contents")
    return ModelLoader.load(SourceText(bytes: [UInt8](try! Data(contentsOf: url))), path: url.path)
  }()

  static func outline(_ items: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\" model=\"Test.xcdatamodel\">\n\(items)</outline>\n"
  }

  static func diagnostics(_ text: String, model: Model) -> [Diagnostic] {
    OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(model)).diagnostics
  }

  @Test func leapDaysAndNonCanonicalIntegersLintCleanAndFmtNormalizes() {
    let written = Self.outline(
      """
        <Item order="-0" count="+3" when="2024-02-29T23:59:59Z"/>
        <Item order="001" when="2000-02-29T00:00-18:00"/>

      """)
    #expect(Self.diagnostics(written, model: Self.testModel).isEmpty)
    let formatted = Convert.format(written, model: Self.testModel)
    // `fmt --check` would fail: the text changes.
    #expect(formatted != written)
    #expect(formatted.contains(#"<Item order="0" count="3" when="2024-02-29T23:59:59Z"/>"#), "\(formatted)")
    #expect(formatted.contains(#"<Item order="1" when="2000-02-29T00:00-18:00"/>"#))
    #expect(Self.diagnostics(formatted, model: Self.testModel).isEmpty)
  }

  @Test func anInstructionHoldingAnOpeningIsKeptWhole() {
    let formatted = Convert.format("<outline><?pi a <? b?><Item order=\"0\"/></outline>\n")
    #expect(
      formatted
        == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline>\n  <?pi a <? b?>\n  <Item order=\"0\"/>\n</outline>\n",
      "\(formatted)")
  }

  /// `examples/groceries.outline` goes to JSON and back: the JSON made again is the same bytes,
  /// the XML lints clean and is the formatted original, comments aside.
  @Test func roundTripThroughFiles() throws {
    let original = try String(
      contentsOfFile: CLI.repository.path + "/examples/groceries.outline", encoding: .utf8)
    let json = Convert.toJSON(original)
    let back = try Convert.toXML(json)
    #expect(Convert.toJSON(back) == json)
    #expect(!Self.diagnostics(back, model: ModelLoader.defaultModel).contains { $0.severity == .error })
    let withoutComments = Convert.format(original).split(separator: "\n").filter { !$0.contains("<!--") }
    #expect(back.split(separator: "\n") == withoutComments)
  }
}
