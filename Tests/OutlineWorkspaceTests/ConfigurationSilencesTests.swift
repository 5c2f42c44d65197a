import OutlineCore
import Testing

@testable import OutlineWorkspace

/// A rule silences an error when it turns it off or makes it less than an error; the check
/// keeps such errors aside, and a conversion refuses those it cannot write.
@Suite struct ConfigurationSilencesTests {
  static func configuration(_ rules: String) -> Configuration {
    Configuration(path: "/p/.outline.json", source: SourceText("{\"rules\": {\(rules)}}"))
  }

  @Test func rulesThatTurnAnErrorOffOrDownSilenceIt() {
    let configuration = Self.configuration(#""OL203": "off", "OL401": "warning", "OL300": "error""#)
    let error = { (code: DiagnosticCode) in Diagnostic(code, "m", at: TextRange(start: 0, end: 1)) }
    #expect(configuration.silences(error(.unknownAttribute)))
    #expect(configuration.silences(error(.duplicateOrder)))
    #expect(!configuration.silences(error(.valueType)))
    #expect(!configuration.silences(error(.orderMissing)))
  }

  @Test func conversionErrorsAddTheSilencedOnesItCannotWrite() {
    var check = DocumentCheck(diagnostics: [])
    let at = TextRange(start: 3, end: 4)
    check.silencedErrors = [
      Diagnostic(.unknownAttribute, "'colour' is unknown", at: at),
      Diagnostic(.valueOutOfBounds, "9 is above 5", at: at),
    ]
    let errors = Conversion.errors(of: check)
    #expect(errors.map(\.code) == [.unknownAttribute])
    #expect(
      errors.first?.message.hasSuffix(
        "(turned off, but a conversion cannot write it without losing or changing data)") == true)
  }
}
