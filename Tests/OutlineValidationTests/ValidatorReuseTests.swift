import OutlineCore
import OutlineModel
import OutlineXML
import Testing

@testable import OutlineValidation

/// A validator reset for the next document (``OutlineValidator/reset(modelProvider:buildTree:)``,
/// what a thread linting many files does) answers exactly what a new one does, whatever the
/// document before it left behind.
@Suite struct ValidatorReuseTests {
  /// Documents that leave different state: problems, ids defined twice, references, uniqueness
  /// keys, a parse cut short, a DOCTYPE, suppression comments, deep nesting and wide parents
  /// (storage over what a reset keeps), another model, no model at all.
  static let cases: [(name: String, text: String, provider: ModelProvider)] = {
    let test = fixedModel(Fixtures.testModel)
    let deep =
      (0..<300).map { "<Item order=\"\($0 % 3)\" title=\"level \($0)\">" }.joined()
      + (0..<300).map { _ in "</Item>" }.joined()
    let wide = (0..<400).map { "<Item order=\"\($0 == 7 ? 3 : $0)\" xml:id=\"w\($0)\"/>" }.joined(
      separator: "\n")
    return [
      ("clean", document(#"<Item order="0" title="a"><Item order="0"/></Item><Item order="1"/>"#), test),
      (
        "problems",
        document(
          """
          <Item order="x" bogus="1" title="first">text<Note text="b"/><Unknown/></Item>
          <Item/><Item order="0"/><Item order="0" related="missing"/>
          """), test
      ),
      (
        "ids",
        document(
          #"<Item order="0" xml:id="a" related="b c"/><Item order="1" xml:id="a"/><Item order="2" xml:id="1st"/>"#
        ), test
      ),
      (
        "uniqueness",
        "<outline>\n<Account login=\"x\"/><Account login=\"x\"/><Admin login=\"x\" number=\"1\" owner=\"o1\"/>"
          + "<Account login=\"y\" number=\"1\" owner=\"o1\"/>\n<Owner xml:id=\"o1\"/>\n</outline>\n",
        fixedModel(accounts)
      ),
      ("cut short", document(#"<Item order="0" xml:id="c"><Item order="1" title="open"#), test),
      ("doctype", "<!DOCTYPE outline>\n" + document(#"<Item order="0"/>"#), test),
      (
        "suppressed",
        document(
          """
          <!-- outline-disable OL300 -->
          <Item order="x"/>
          <!-- outline-disable-next OL400 -->
          <Item/><Item/>
          """), test
      ),
      ("deep", document(deep), test),
      ("wide", document(wide), test),
      ("default model", document(#"<Item title="a" order="0"/><Item title="b" order="0"/>"#), fixedModel()),
      (
        "no model", document(#"<Item order="0" xml:id="u"/><Item xml:id="u"/>"#), { _ in .unreadable("gone") }
      ),
      ("refused", document(#"<Item order="0"/>"#), { _ in .refused("outside the project") }),
    ]
  }()

  /// What a validator made of a document, compared between a reused one and a new one.
  struct Outcome: Equatable {
    var diagnostics: [Diagnostic]
    /// The bound model's index, so that a reused validator is seen to bind the new document's.
    var modelIndex: ObjectIdentifier?
    var rootEntity: Int?
    var childrenInOrder: Bool
    var madeReferences: Bool
  }

  static func check(_ text: String, with validator: OutlineValidator) -> Outcome {
    XMLEventParser.parse(Array(text.utf8), handler: validator)
    validator.finish()
    return Outcome(
      diagnostics: validator.diagnostics, modelIndex: validator.model.map { ObjectIdentifier($0.index) },
      rootEntity: validator.rootEntity, childrenInOrder: validator.childrenInOrder,
      madeReferences: validator.madeReferences)
  }

  static func fresh(_ index: Int) -> Outcome {
    check(cases[index].text, with: OutlineValidator(modelProvider: cases[index].provider))
  }

  @Test func everyDocumentAfterEveryOtherGivesWhatANewValidatorGives() {
    let expected = Self.cases.indices.map(Self.fresh)
    #expect(
      expected[1].diagnostics.count > 5
        && expected[3].diagnostics.contains { $0.code == .uniquenessViolation })
    for before in Self.cases.indices {
      for after in Self.cases.indices {
        let validator = OutlineValidator(modelProvider: Self.cases[before].provider)
        _ = Self.check(Self.cases[before].text, with: validator)
        validator.reset(modelProvider: Self.cases[after].provider)
        let outcome = Self.check(Self.cases[after].text, with: validator)
        #expect(outcome == expected[after], "'\(Self.cases[after].name)' after '\(Self.cases[before].name)'")
      }
    }
  }

  @Test func oneValidatorThroughEveryDocumentTwice() {
    let validator = OutlineValidator(modelProvider: fixedModel())
    for round in 0..<2 {
      for index in Self.cases.indices {
        validator.reset(modelProvider: Self.cases[index].provider)
        let outcome = Self.check(Self.cases[index].text, with: validator)
        #expect(outcome == Self.fresh(index), "'\(Self.cases[index].name)', round \(round)")
      }
    }
  }

  @Test func aResetValidatorCanBuildATree() throws {
    let validator = OutlineValidator(modelProvider: fixedModel(Fixtures.testModel))
    _ = Self.check(Self.cases[1].text, with: validator)
    #expect(validator.tree == nil)
    validator.reset(modelProvider: fixedModel(Fixtures.testModel), buildTree: true)
    _ = Self.check(Self.cases[0].text, with: validator)
    let fresh = OutlineValidator.validate(
      SourceText(Self.cases[0].text), modelProvider: fixedModel(Fixtures.testModel))
    let tree = try #require(validator.tree)
    #expect(tree.items.count >= 3)
    #expect(tree.items.map(\.entity) == fresh.tree?.items.map(\.entity))
    #expect(tree.items.map(\.parent) == fresh.tree?.items.map(\.parent))
  }
}
