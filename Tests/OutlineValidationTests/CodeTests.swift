import OutlineCore
import OutlineModel
import Testing

@testable import OutlineValidation

/// One fixture per code: the code is reported at marker 1️⃣, and the nearest
/// valid neighbour (the same text, fixed) has no diagnostic at all.
struct CodeCase: CustomTestStringConvertible, Sendable {
  let code: String
  let broken: String
  let valid: String
  /// The model, when not the test model.
  var model: Model = Fixtures.testModel
  var testDescription: String { code }
}

@Suite struct CodeTests {
  static let cases: [CodeCase] = [
    CodeCase(
      code: "OL100", broken: document("<Item title=\"a\" order=\"0\"></Itm>1️⃣"),
      valid: document("<Item title=\"a\" order=\"0\"></Item>")),
    CodeCase(
      code: "OL101", broken: "<1️⃣outlines/>", valid: "<outline/>"),
    CodeCase(
      code: "OL101", broken: "<outline version=\"1️⃣2\"/>", valid: "<outline version=\"1\"/>"),
    CodeCase(
      code: "OL104", broken: "1️⃣<!DOCTYPE outline>\n<outline/>", valid: "<outline/>"),
    CodeCase(
      code: "OL105", broken: document("<Item order=\"0\">1️⃣hello</Item>"),
      valid: document("<Item order=\"0\">  </Item>")),
    CodeCase(
      code: "OL200", broken: document("<1️⃣Itme order=\"0\"/>"), valid: document("<Item order=\"0\"/>")),
    CodeCase(
      code: "OL201", broken: document("<1️⃣Shape/>"), valid: document("<Circle/>")),
    CodeCase(
      code: "OL202", broken: document("<Item order=\"0\"><1️⃣Tag name=\"x\"/></Item>"),
      valid: document("<Item order=\"0\"/><Tag name=\"x\"/>")),
    CodeCase(
      code: "OL203", broken: document("<Item order=\"0\" 1️⃣colour=\"red\"/>"),
      valid: document("<Item order=\"0\"/>")),
    CodeCase(
      code: "OL203", broken: document("<Item order=\"0\" 1️⃣parent=\"x\"/>"),
      valid: document("<Item order=\"0\"/>")),
    CodeCase(
      code: "OL204", broken: document("<1️⃣Tag/>"), valid: document("<Tag name=\"t\"/>")),
    // The root entity's required `model` is not the format's `model="..."` (RootFormatNameTests).
    CodeCase(
      code: "OL204", broken: "<1️⃣outline version=\"1\" model=\"Doc.xcdatamodel\"/>",
      valid: "<outline version=\"1\" model=\"Doc.xcdatamodel\" entity=\"Plain\"/>", model: rootNamesModel),
    CodeCase(
      code: "OL205", broken: document("<Item order=\"0\" 1️⃣cache=\"x\"/>"),
      valid: document("<Item order=\"0\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" count=\"1️⃣three\"/>"),
      valid: document("<Item order=\"0\" count=\"3\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" count=\"1️⃣40000\"/>"),
      valid: document("<Item order=\"0\" count=\"4\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" ratio=\"1️⃣NaN\"/>"),
      valid: document("<Item order=\"0\" ratio=\"-1.5e3\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" weight=\"1️⃣1e39\"/>"),
      valid: document("<Item order=\"0\" weight=\"1e38\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" price=\"1️⃣12,50\"/>"),
      valid: document("<Item order=\"0\" price=\"12.50\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" flag=\"1️⃣yes\"/>"),
      valid: document("<Item order=\"0\" flag=\"YES\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" when=\"1️⃣2024-05-01 09:30\"/>"),
      valid: document("<Item order=\"0\" when=\"2024-05-01T09:30:00+02:00\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" uid=\"1️⃣3F2504E0-4F89-11D3-9A0C\"/>"),
      valid: document("<Item order=\"0\" uid=\"3F2504E0-4F89-11D3-9A0C-0305E82C3301\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" link=\"1️⃣example.com/a\"/>"),
      valid: document("<Item order=\"0\" link=\"https://example.com/a\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"0\" blob=\"1️⃣aGVsbG8\"/>"),
      valid: document("<Item order=\"0\" blob=\"aGVsbG8=\"/>")),
    CodeCase(
      code: "OL300", broken: document("<Item order=\"1️⃣first\"/>"), valid: document("<Item order=\"0\"/>")),
    CodeCase(
      code: "OL301", broken: document("<Item order=\"0\" count=\"1️⃣11\"/>"),
      valid: document("<Item order=\"0\" count=\"10\"/>")),
    CodeCase(
      code: "OL301", broken: document("<Item order=\"0\" nick=\"1️⃣Zoë Ann\"/>"),
      valid: document("<Item order=\"0\" nick=\"Zoë\"/>")),
    CodeCase(
      code: "OL302", broken: document("<Item order=\"0\" code=\"1️⃣ABCD\"/>"),
      valid: document("<Item order=\"0\" code=\"ABC\"/>")),
    // The whole value: a line end after a match is not matched (`$` would match before it).
    CodeCase(
      code: "OL302", broken: document("<Item order=\"0\" code=\"1️⃣ABC&#10;\"/>"),
      valid: document("<Item order=\"0\" code=\"ABC\"/>")),
    CodeCase(
      code: "OL400", broken: document("<Item order=\"0\"/><1️⃣Item/>"),
      valid: document("<Item order=\"0\"/><Item order=\"1\"/>")),
    CodeCase(
      code: "OL401", broken: document("<Item order=\"0\"/><Item order=\"1️⃣0\"/>"),
      valid: document("<Item order=\"0\"/><Item order=\"1\"/>")),
    CodeCase(
      code: "OL402", broken: document("<Item order=\"0\"/><Item order=\"1️⃣2\"/>"),
      valid: document("<Item order=\"0\"/><Item order=\"1\"/>")),
    CodeCase(
      code: "OL402", broken: document("<Item order=\"1️⃣-1\"/>"), valid: document("<Item order=\"0\"/>")),
    CodeCase(
      code: "OL403", broken: document("<Item order=\"1️⃣1\"/><Item order=\"0\"/>"),
      valid: document("<Item order=\"0\"/><Item order=\"1\"/>")),
    CodeCase(
      code: "OL500", broken: document("<Item order=\"0\" xml:id=\"a\"/><Item order=\"1\" xml:id=\"1️⃣a\"/>"),
      valid: document("<Item order=\"0\" xml:id=\"a\"/><Item order=\"1\" xml:id=\"b\"/>")),
    CodeCase(
      code: "OL501", broken: document("<Item order=\"0\" tags=\"1️⃣nope\"/>"),
      valid: document("<Item order=\"0\" tags=\"t\"/><Tag xml:id=\"t\" name=\"t\"/>")),
    CodeCase(
      code: "OL502", broken: document("<Item order=\"0\" xml:id=\"i\" tags=\"1️⃣i\"/>"),
      valid: document("<Item order=\"0\" xml:id=\"i\" tags=\"t\"/><Tag xml:id=\"t\" name=\"t\"/>")),
    CodeCase(
      code: "OL503",
      broken: document(
        "<Item order=\"0\" best=\"1️⃣a b\"/><Tag xml:id=\"a\" name=\"a\"/><Tag xml:id=\"b\" name=\"b\"/>"),
      valid: document(
        "<Item order=\"0\" best=\"a\"/><Tag xml:id=\"a\" name=\"a\"/><Tag xml:id=\"b\" name=\"b\"/>")),
    CodeCase(
      code: "OL503",
      broken: document(
        "<Item order=\"0\" xml:id=\"a\" related=\"1️⃣a b c\"/><Item order=\"1\" xml:id=\"b\"/><Item order=\"2\" xml:id=\"c\"/>"
      ),
      valid: document(
        "<Item order=\"0\" xml:id=\"a\" related=\"b c\"/><Item order=\"1\" xml:id=\"b\"/><Item order=\"2\" xml:id=\"c\"/>"
      )),
    CodeCase(
      code: "OL504",
      broken: document(
        "<Item order=\"0\" xml:id=\"i\" tags=\"1️⃣t\"/><Item order=\"1\" xml:id=\"j\"/><Tag xml:id=\"t\" name=\"t\" items=\"j\"/>"
      ),
      valid: document(
        "<Item order=\"0\" xml:id=\"i\" tags=\"t\"/><Item order=\"1\" xml:id=\"j\"/><Tag xml:id=\"t\" name=\"t\" items=\"i\"/>"
      )),
    CodeCase(
      code: "OL206", broken: "<outline><Account login=\"a\" 1️⃣loginLength=\"1\"/></outline>",
      valid: "<outline><Account login=\"a\"/></outline>", model: accounts),
    CodeCase(
      code: "OL505",
      broken: "<outline><Account login=\"a\"/><Account login=\"1️⃣a\"/></outline>",
      valid: "<outline><Account login=\"a\"/><Account login=\"b\"/></outline>", model: accounts),
    CodeCase(
      code: "OL510", broken: document("<Item order=\"0\" xml:id=\"1️⃣1st\"/>"),
      valid: document("<Item order=\"0\" xml:id=\"first\"/>")),
    CodeCase(
      code: "OL600",
      broken: document(
        "1️⃣<?outline-conflict kind=\"attribute\" name=\"title\" ours=\"a\" theirs=\"b\"?>\n"
          + "<Item title=\"a\" order=\"0\"/>"),
      valid: document("<?other kind=\"attribute\"?>\n<Item title=\"a\" order=\"0\"/>")),
  ]

  @Test(arguments: cases)
  func reportsCodeAtMarkerAndNotOnValidNeighbour(_ testCase: CodeCase) {
    let marked = Marked(testCase.broken)
    let diagnostics = validate(marked.text, model: testCase.model)
    let hit = diagnostics.first { $0.code.rawValue == testCase.code }
    #expect(hit != nil, "expected \(testCase.code), got \(diagnostics.map { "\($0.code) \($0.message)" })")
    #expect(hit?.range.start == marked.offsets.first, "\(hit?.message ?? "")")
    #expect(hit?.severity == DiagnosticCode(rawValue: testCase.code).defaultSeverity)
    let valid = validate(testCase.valid, model: testCase.model)
    #expect(valid.isEmpty, "valid neighbour: \(valid.map { "\($0.code) \($0.message)" })")
  }

  @Test func everyDocumentCodeHasAFixture() {
    let covered = Set(Self.cases.map(\.code))
    let documentCodes = DiagnosticCatalog.entries.map(\.code.rawValue).filter { $0.hasPrefix("OL") }
    // OL102, OL103 and OL106 come from the model provider (OL106: ModelRefusalTests);
    // OL107 needs a 16 MiB fixture (SizeRuleValidationTests); OL108 comes from OutlineMigration
    // for the editor (EditorVersionsTests).
    let missing = documentCodes.filter {
      !covered.contains($0) && !["OL102", "OL103", "OL106", "OL107", "OL108"].contains($0)
    }
    #expect(missing.isEmpty, "codes without a fixture: \(missing)")
  }
}
