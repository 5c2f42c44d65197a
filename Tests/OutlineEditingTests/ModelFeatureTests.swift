import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import Testing

@testable import OutlineEditing

/// Highlights, value completion, outline numbers and deletion impact over the fixture model.
@Suite struct ModelFeatureTests {
  static let project = """
    <outline entity="Project" title="P">
      <Task xml:id="t1" title="one" order="1" owners="p1" notes="n1">
        <Task xml:id="t1a" title="one a" order="0"/>
        <Task xml:id="t1b" title="one b" order="1" blocks="t2 t1a"/>
      </Task>
      <Task xml:id="t2" title="two" order="0" blockedBy="t1b"/>
      <Step title="first"/>
      <Step title="second"/>
      <Note xml:id="n1" text="é"/>
      <Person xml:id="p1" name="Ann"/>
    </outline>

    """

  let source = SourceText(project)
  var tree: ItemTree { EditorFixture.tree(source) }
  var model: Model { EditorFixture.model }

  func item(_ title: String) -> Int {
    let tree = self.tree
    return tree.items.indices.first { index in
      tree.items[index].titleRange.map { source.string(in: $0) } == title
    }!
  }

  @Test func modelLoadsClean() {
    #expect(model.diagnostics.isEmpty, "\(model.diagnostics.map(\.message))")
    let diagnostics = OutlineValidator.validate(source, modelProvider: fixedModel(model)).diagnostics
      .filter { $0.severity != .hint }
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
  }

  @Test func highlightsAnIdAtItsDefinitionAndEveryUse() {
    let references = ReferenceIndex(tree: tree, source: source, model: model)
    let markup = MarkupTree(source.bytes)
    let use = Array(Self.project.utf8).firstRange(of: Array("t2 t1a".utf8))!.lowerBound + 1
    let highlights = DocumentHighlights.highlights(at: use, markup: markup, references: references)
    #expect(highlights.map { source.string(in: $0.range) } == ["t2", "t2"])
    #expect(highlights.contains { $0.kind == .write } && highlights.contains { $0.kind == .read })
    // On a tag name: both names of the element.
    let tag = Array(Self.project.utf8).firstRange(of: Array("<Task xml:id=\"t1\"".utf8))!.lowerBound + 2
    let names = DocumentHighlights.highlights(at: tag, markup: markup, references: references)
    #expect(
      names.count == 2 && names.allSatisfy { source.string(in: $0.range) == "Task" && $0.kind == .text })
    #expect(names[1].range.start > tree.items[item("one b")].startTag.end)
    // On plain text: nothing.
    // Between tags, or on an attribute that is no reference: nothing.
    let between = tree.items[item("one")].startTag.end + 1
    #expect(DocumentHighlights.highlights(at: between, markup: markup, references: references).isEmpty)
    let title = Array(Self.project.utf8).firstRange(of: Array("title=\"two\"".utf8))!.lowerBound + 8
    #expect(DocumentHighlights.highlights(at: title, markup: markup, references: references).isEmpty)
  }

  @Test func valuesTheModelEnumerates() {
    let task = model.entity(named: "Task")
    func values(_ name: String, written: String = "") -> [String] {
      ValueCompletion.candidates(
        attribute: name, entity: task, isRoot: false, written: written, model: model, tree: tree,
        source: source
      ).map(\.value)
    }
    #expect(values("status") == ["low", "medium", "high"])
    #expect(values("done") == ["true", "false"])
    #expect(values("title").isEmpty && values("estimate").isEmpty)
    #expect(values("owners") == ["p1"])
    #expect(values("notes") == ["n1"])
    // Ids of tasks, without those the value already names.
    #expect(values("blocks", written: "t2 ") == ["t1", "t1a", "t1b"])
    let root = ValueCompletion.candidates(
      attribute: "entity", entity: nil, isRoot: true, model: model, tree: tree, source: source)
    #expect(root.map(\.value) == ["Project", "Task", "Step", "Note", "Person"])
  }

  @Test func alternativesAreReadOnlyFromLiteralPatterns() {
    #expect(ValueCompletion.alternatives(of: "a|b|c") == ["a", "b", "c"])
    #expect(ValueCompletion.alternatives(of: "^(?:x|y)$") == ["x", "y"])
    #expect(ValueCompletion.alternatives(of: "^(a|b)+$").isEmpty)
    #expect(ValueCompletion.alternatives(of: "[a-z]+").isEmpty)
    #expect(ValueCompletion.alternatives(of: "a\\|b").isEmpty)
    #expect(ValueCompletion.alternatives(of: "a||b").isEmpty)
    #expect(ValueCompletion.alternatives(of: nil).isEmpty)
  }

  @Test func outlineNumbersFollowTheOrderValues() {
    let numbers = OutlineNumbers(tree: tree, model: model)
    // t2 has order 0, t1 order 1: t2 is 1, t1 is 2; the steps follow, by position.
    #expect(numbers.number(of: item("two")) == "1")
    #expect(numbers.number(of: item("one")) == "2")
    #expect(numbers.number(of: item("one a")) == "2.1")
    #expect(numbers.number(of: item("one b")) == "2.2")
    #expect(numbers.number(of: item("first")) == "3")
    #expect(numbers.number(of: 0) == "")
    let hints = numbers.hints(in: TextRange(start: 0, end: source.bytes.count))
    let labels = hints.filter { $0.kind == .number }.map(\.label)
    #expect(labels == ["2", "2.1", "2.2", "1", "3", "4", "5", "6"])
    // The steps' relationship is ordered: their order is their position.
    let implied = hints.filter { $0.kind == .impliedOrder }
    #expect(implied.map(\.label) == ["#0", "#1"])
    #expect(implied[0].offset == tree.items[item("first")].nameRange.end)
    // A range gives only the hints of the items that start in it.
    let one = tree.items[item("one b")].startTag
    #expect(numbers.hints(in: one).map(\.label) == ["2.2"])
  }

  @Test func outlineNumbersOfADeepChainAreBounded() {
    var text = "<outline>"
    for index in 0..<10_000 { text += "<Item order=\"0\" title=\"\(index)\">" }
    text += String(repeating: "</Item>", count: 10_000) + "</outline>"
    let source = SourceText(text)
    let tree = OutlineValidator.validate(source).tree!
    let numbers = OutlineNumbers(tree: tree, model: ModelLoader.defaultModel)
    let hints = numbers.hints(in: TextRange(start: 0, end: source.bytes.count))
    #expect(hints.count == 10_000)
    #expect(hints[2].label == "1.1.1")
    #expect(hints.last!.label == "1.1.…" + String(repeating: ".1", count: OutlineNumbers.maximumLevels - 2))
  }

  @Test func deletionFollowsTheDeleteRules() throws {
    let impact = DeletionImpact(tree: tree, source: source, model: model)
    // t1, its two subtasks, and n1 through notes' Cascade.
    #expect(try impact.count(deleting: item("one")).get() == 4)
    #expect(try impact.count(deleting: item("one b")).get() == 1)
    // p1 is named by t1's owners, whose inverse (tasks) is Deny.
    guard case .failure(let refusal) = impact.count(deleting: tree.items.count - 1) else {
      Issue.record("deleting p1 was not refused")
      return
    }
    #expect(refusal.reason.contains("Deny") && refusal.reason.contains("p1"))
    #expect(throws: EditRefusal.self) { try impact.count(deleting: 0).get() }
    let lensed = DeletionImpact.itemsWithChildren(tree)
    #expect(lensed.map(\.item) == [0, item("one")])
    #expect(lensed.map(\.descendants) == [tree.items.count - 1, 2])
  }

  @Test func deletionIsLinearOnALongCascadeChain() throws {
    // 20,000 tasks, each's notes naming the next note holder: one cascade reaches them all.
    var text = "<outline entity=\"Project\">\n"
    let count = 20_000
    for index in 0..<count {
      text +=
        "<Task xml:id=\"t\(index)\" order=\"\(index)\" subtasks=\"\""
        + (index + 1 < count ? " blocks=\"t\(index + 1)\"" : "") + "/>\n"
    }
    text += "</outline>\n"
    // Make `blocks` cascade: a model of its own.
    let cascading = ModelLoader.load(
      SourceText(
        EditorFixture.modelText.replacingOccurrences(
          of: "name=\"blocks\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\"",
          with: "name=\"blocks\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\"")))
    let source = SourceText(text)
    let tree = OutlineValidator.validate(source, modelProvider: fixedModel(cascading)).tree!
    let impact = DeletionImpact(tree: tree, source: source, model: cascading)
    #expect(try impact.count(deleting: 1).get() == count)
    #expect(try impact.count(deleting: count).get() == 1)
  }
}
