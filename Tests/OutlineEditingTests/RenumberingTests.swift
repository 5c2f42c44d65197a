import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

@testable import OutlineEditing

/// Renumbering: groups, validity, minimal edits, and a fix-all that only
/// touches the problems it is given.
@Suite struct RenumberingTests {
  static let broken = """
    <outline>
      <Item title="a" order="0">
        <Item title="a1" order="0"/>
        <Item title="a2" order="0"/>
      </Item>
      <Item title="b" order="5"/>
    </outline>

    """

  static func fixed(_ text: String, reported: (([Diagnostic]) -> [Diagnostic])? = nil) -> String {
    let source = SourceText(text)
    let validator = OutlineValidator.validate(source)
    let model = ModelLoader.defaultModel
    let all = validator.diagnostics
    let edits = Renumbering.fixAll(
      tree: validator.tree!, source: source, model: model, reported: reported?(all) ?? all)
    return String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
  }

  @Test func groupsAndValidity() {
    let (source, tree) = document(Self.broken)
    let model = ModelLoader.defaultModel
    let root = Renumbering.groups(under: 0, in: tree, model: model)
    #expect(root.count == 1 && root[0].children.count == 2)
    #expect(!Renumbering.isValid(root[0], in: tree))
    let a = index(of: "a", in: tree, source)
    let inner = Renumbering.groups(under: a, in: tree, model: model)
    #expect(inner[0].children.count == 2 && !Renumbering.isValid(inner[0], in: tree))
    let (_, clean) = document(list)
    #expect(
      Renumbering.groups(under: 0, in: clean, model: model).allSatisfy { Renumbering.isValid($0, in: clean) })
  }

  @Test func editsTouchOnlyTheValuesThatDiffer() {
    let (source, tree) = document(Self.broken)
    let group = Renumbering.groups(under: 0, in: tree, model: ModelLoader.defaultModel)[0]
    let edits = Renumbering.edits(numbering: group, in: tree, source: source, model: ModelLoader.defaultModel)
    #expect(edits.count == 1)
    #expect(edits[0].newText == "1" && source.string(in: edits[0].range) == "5")
  }

  @Test func missingOrdersAreInsertedAfterTheName() {
    let text = "<outline><Item title=\"a\" order=\"0\"/><Item title=\"b\"/></outline>\n"
    #expect(
      Self.fixed(text)
        == "<outline><Item title=\"a\" order=\"0\"/><Item order=\"1\" title=\"b\"/></outline>\n")
  }

  @Test func fixAllRepairsEveryReportedGroup() {
    let result = Self.fixed(Self.broken)
    #expect(result.contains("title=\"a2\" order=\"1\"") && result.contains("title=\"b\" order=\"1\""))
    #expect(OutlineValidator.validate(SourceText(result)).diagnostics.isEmpty)
  }

  @Test func fixAllLeavesWhatIsNotReported() {
    // Nothing reported: nothing changes.
    #expect(Self.fixed(Self.broken) { _ in [] } == Self.broken)
    // Only the duplicate reported: the root's group (OL402) stays as it is.
    let onlyDuplicate = Self.fixed(Self.broken) { $0.filter { $0.code == .duplicateOrder } }
    #expect(
      onlyDuplicate.contains("title=\"a2\" order=\"1\"") && onlyDuplicate.contains("title=\"b\" order=\"5\""))
    // Codes renumbering does not repair do not count.
    #expect(
      Self.fixed(Self.broken) { $0.map { Diagnostic(.unknownAttribute, "", at: $0.range) } } == Self.broken)
  }

  @Test func wideGroupsWithAProblemPerItemStayFast() {
    // 20,000 siblings all order 0: 19,999 reported duplicates, one binary search per child.
    var text = "<outline>"
    for _ in 0..<20_000 { text += "<Item title=\"x\" order=\"0\"/>" }
    text += "</outline>\n"
    let result = Self.fixed(text)
    #expect(result.contains("order=\"19999\""))
    #expect(OutlineValidator.validate(SourceText(result)).diagnostics.isEmpty)
  }
}
