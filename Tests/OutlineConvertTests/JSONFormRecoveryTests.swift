import OutlineCore
import OutlineModel
import Testing

@testable import OutlineConvert

/// The JSON form reader reports every problem, each at the exact JSON path
/// of the element or value, and reads on past it as the XML side does; a
/// syntax error is where it stops.
@Suite struct JSONFormRecoveryTests {
  static func problems(_ json: String) -> [JSONFormError] {
    do {
      _ = try Convert.toXML(json, model: Fixtures.testModel)
      return []
    } catch {
      return error.all
    }
  }

  /// A root whose `@entity` the model does not have stops the reading, said once under its own
  /// code (OL200); it was said twice, as OL200 and again as OL100. It is what the document
  /// means, not a break of the form: `isFormProblem` is false, as for an unknown key, while bad
  /// JSON and a value of the wrong JSON type are problems of the form.
  @Test func anUnknownRootEntityIsSaidOnceAndIsNoProblemOfTheForm() {
    let root = Self.problems(#"{"@outline":1,"@entity":"Nope","children":[]}"#)
    #expect(root.map(\.code.rawValue) == ["OL200"], "\(root.map { "\($0.code) \($0.message)" })")
    #expect(root.allSatisfy { !$0.isFormProblem })
    let key = Self.problems(#"{"children":[{"@entity":"Item","order":0,"zzz":1}]}"#)
    #expect(key.map(\.code.rawValue) == ["OL203"] && !key[0].isFormProblem)
    let type = Self.problems(#"{"children":[{"@entity":"Item","order":"zero"}]}"#)
    #expect(type.map(\.code.rawValue) == ["OL300"] && type[0].isFormProblem)
    let syntax = Self.problems(#"{"children":["#)
    #expect(syntax.contains { $0.code == .notWellFormed && $0.isFormProblem })
  }

  @Test func everyProblemIsReportedAtItsPath() {
    let json = """
      {"children":[
      {"@entity":"Item","order":0,"title":5,"count":"x","nick":"abcdefgh"},
      7,
      {"@entity":"Nope","order":1,"title":"skipped with its object"},
      {"@entity":"Item","order":1,"when":"2024-02-30T00:00Z","bogus":[1,{"a":2}],"tags":"t"},
      {"order":2},
      {"@entity":"Item","order":2,"related":["a",3],"children":[{"@entity":"Tag","name":"x"}]}
      ]}
      """
    let found = Self.problems(json)
    #expect(
      found.map(\.path) == [
        "$.children[0].title", "$.children[0].count", "$.children[0].nick", "$.children[1]",
        "$.children[2].@entity", "$.children[3].when", "$.children[3].bogus", "$.children[3].tags",
        "$.children[4]", "$.children[4].order", "$.children[5].related", "$.children[5].related[1]",
        "$.children[5].children[0].@entity",
      ], "\(found.map { "\($0.path) \($0.message)" })")
    #expect(
      found.map(\.code.rawValue) == [
        "OL300", "OL300", "OL301", "OL300", "OL200", "OL300", "OL203", "OL300", "OL200", "OL203", "OL501",
        "OL300",
        "OL202",
      ])
    // Offsets are where the value (or the element) starts.
    let bytes = Array(json.utf8)
    for problem in found {
      #expect(problem.offset < bytes.count)
    }
    #expect(bytes[found[3].offset] == UInt8(ascii: "7"))
    #expect(bytes[found[8].offset] == UInt8(ascii: "{"))
  }

  /// Each problem of the root's `@xmlns` is reported at its own member, the prefix's key (a
  /// prefix that cannot be one, or is declared twice) or its value (a namespace name refused, or
  /// a string XML cannot hold, at the byte), not at `@xmlns`.
  @Test func everyNamespaceProblemIsReportedAtItsMember() {
    let json = #"""
      {"@xmlns":{"ok":"urn:ok","xml":"urn:x","ok":"urn:again","sp":"a b","n":5,"":"","c":"a\u0001b"}}
      """#
    let found = Self.problems(json)
    #expect(
      found.map(\.path) == ["$.@xmlns.xml", "$.@xmlns.ok", "$.@xmlns.sp", "$.@xmlns.n", "$.@xmlns.c"],
      "\(found.map { "\($0.path) \($0.message)" })")
    let bytes = Array(json.utf8)
    func offset(of needle: String) -> Int { bytes.firstRange(of: Array(needle.utf8))!.lowerBound }
    #expect(
      found.map(\.offset) == [
        offset(of: #""xml""#), offset(of: #""ok":"urn:again""#), offset(of: #""a b""#), offset(of: "5"),
        offset(of: #"\u0001"#),
      ])
  }

  /// Found by FuzzJSON (Fuzz/Regressions/FuzzJSON/namespace-name-libxml2-refuses.json): a
  /// namespace name libxml2 does not read as a URI (`u{n:rg`) was written, and the outline
  /// written then failed lint with OL100 ("is not a valid URI"). The JSON form refuses it at its
  /// value as the XML would be refused, and takes the URIs libxml2 reads, relative ones too.
  @Test func aNamespaceNameLibxml2DoesNotReadIsRefused() {
    for refused in ["u{n:rg", "http://a b", "x:%zz", "[bad"] {
      let found = Self.problems(#"{"@xmlns":{"rg":"\#(refused)"}}"#)
      #expect(
        found.map(\.code.rawValue) == ["OL100"] && found.map(\.path) == ["$.@xmlns.rg"],
        "\(refused): \(found)")
    }
    for taken in ["urn:x", "http://example.com/ns", "relative/ns", "x-y"] {
      #expect(Self.problems(#"{"@xmlns":{"p":"\#(taken)"}}"#).isEmpty, "\(taken)")
    }
  }

  @Test func aRefusedValueIsReportedOnceNotAgainByTheValidator() {
    let found = Self.problems(
      #"{"children":[{"@entity":"Item","order":"zero"},{"@entity":"Item","order":1}]}"#)
    #expect(found.map(\.path) == ["$.children[0].order"], "\(found.map(\.message))")
  }

  @Test func aSyntaxErrorStopsAfterWhatCameBefore() {
    let found = Self.problems(
      #"{"children":[{"@entity":"Item","order":0,"title":1},{"@entity":"Item" "order":1}]}"#)
    #expect(found.count == 2, "\(found.map(\.message))")
    #expect(found[0].path == "$.children[0].title")
    #expect(found[1].code == .notWellFormed && found[1].message.hasPrefix("Invalid JSON"))
    #expect(found[1].offset == 70)  // the `"order"` that lacks a comma before it
    // A syntax error inside a value that is read past is still found.
    let skipped = Self.problems(#"{"children":[{"@entity":"Item","order":0,"bogus":[1,,2]}]}"#)
    #expect(skipped.map(\.code) == [.unknownAttribute, .notWellFormed])
  }

  @Test func missingRequiredAttributesAreAllReportedAtTheObject() {
    let found = Self.problems(#"{"@objects":[{"@entity":"Tag"},{"@entity":"Note"}]}"#)
    #expect(found.map(\.path) == ["$.@objects[0]", "$.@objects[1]"], "\(found.map(\.message))")
    #expect(found.allSatisfy { $0.code == .requiredAttributeMissing })
  }

  @Test func checkReportsWarningsToo() throws {
    let problems = try JSONFormReader.check(
      ByteBuffer(copying: Array(#"{"children":[{"@entity":"Item","order":0,"cache":"x"}]}"#.utf8))
    ) { _ in Fixtures.testModel }
    #expect(problems.map(\.code) == [.transientStored])
    #expect(problems.first?.severity == .warning && problems.first?.path == "$.children[0].cache")
  }
}
