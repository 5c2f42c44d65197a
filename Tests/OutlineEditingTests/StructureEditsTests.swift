import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import TestSupport
import Testing

@testable import OutlineEditing

struct Edited {
  let text: String
  let diagnostics: [Diagnostic]
}

func document(_ text: String) -> (SourceText, ItemTree) {
  let source = SourceText(text)
  return (source, OutlineValidator.validate(source).tree!)
}

func apply(_ result: Result<[TextEdit], EditRefusal>, to source: SourceText) throws -> Edited {
  let edits = try result.get()
  let text = String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
  return Edited(text: text, diagnostics: OutlineValidator.validate(SourceText(text)).diagnostics)
}

let list = """
  <outline>
    <Item title="a" order="0"/>
    <Item title="b" order="1">
      <Item title="b1" order="0"/>
    </Item>
    <!-- keep -->
    <Item title="c" order="2"/>
    <Item title="d" order="3"/>
  </outline>

  """

func index(of title: String, in tree: ItemTree, _ source: SourceText) -> Int {
  tree.items.indices.first { tree.items[$0].titleRange.map { source.string(in: $0) } == title }!
}

/// Applies a structure edit (indent, outdent, delete) to the item titled
/// `title` in `text`, under the default model, and validates the result.
func edit(
  _ text: String, _ operation: (Int, ItemTree, SourceText, Model) -> Result<[TextEdit], EditRefusal>,
  item title: String
) throws -> Edited {
  let (source, tree) = document(text)
  return try apply(
    operation(index(of: title, in: tree, source), tree, source, ModelLoader.defaultModel), to: source)
}

@Suite struct StructureEditsTests {
  @Test func indentMakesTheLastChildOfThePreviousSibling() throws {
    let result = try edit(list, StructureEdits.indent(_:tree:source:model:), item: "c")
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))\n\(result.text)")
    #expect(
      result.text == """
        <outline>
          <Item title="a" order="0"/>
          <Item title="b" order="1">
            <Item title="b1" order="0"/>
            <Item title="c" order="1"/>
          </Item>
          <!-- keep -->
          <Item title="d" order="2"/>
        </outline>

        """)
  }

  @Test func indentUnderASelfClosingSiblingOpensIt() throws {
    let result = try edit(list, StructureEdits.indent(_:tree:source:model:), item: "b")
    #expect(result.diagnostics.isEmpty, "\(result.text)")
    #expect(
      result.text.contains(
        "<Item title=\"a\" order=\"0\">\n    <Item title=\"b\" order=\"0\">\n      <Item title=\"b1\" order=\"0\"/>\n    </Item>\n  </Item>"
      ))
  }

  @Test func outdentBecomesTheNextSiblingOfTheParent() throws {
    let result = try edit(list, StructureEdits.outdent(_:tree:source:model:), item: "b1")
    #expect(result.diagnostics.isEmpty, "\(result.text)")
    #expect(
      result.text == """
        <outline>
          <Item title="a" order="0"/>
          <Item title="b" order="1">
          </Item>
          <Item title="b1" order="2"/>
          <!-- keep -->
          <Item title="c" order="3"/>
          <Item title="d" order="4"/>
        </outline>

        """)
  }

  /// On a CRLF document, indent and outdent (into an open parent, under a self-closing one,
  /// out of one) give the LF document's result with CRLF line ends: every moved line
  /// re-indented, no line end added or mixed.
  @Test(arguments: [("indent", "c"), ("indent", "b"), ("outdent", "b1")])
  func structureEditsKeepCRLF(operation: String, item: String) throws {
    let run = operation == "indent" ? StructureEdits.indent(_:tree:source:model:) : StructureEdits.outdent
    let lf = try edit(list, run, item: item)
    let crlf = try edit(list.replacingOccurrences(of: "\n", with: "\r\n"), run, item: item)
    #expect(crlf.text == lf.text.replacingOccurrences(of: "\n", with: "\r\n"), "\(Array(crlf.text.utf8))")
    #expect(crlf.diagnostics.isEmpty)
  }

  @Test func deleteRenumbersTheSiblingsAfter() throws {
    let result = try edit(list, StructureEdits.delete(_:tree:source:model:), item: "b")
    #expect(result.diagnostics.isEmpty)
    #expect(
      result.text == """
        <outline>
          <Item title="a" order="0"/>
          <!-- keep -->
          <Item title="c" order="1"/>
          <Item title="d" order="2"/>
        </outline>

        """)
  }

  static let rulesModel = ModelLoader.load(
    SourceText(
      """
      <model>
      <entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/><attribute name="title" optional="YES" attributeType="String"/>
      <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="parent"/>
      <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children"/>
      <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items"/>
      <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="owners"/>
      <relationship name="lock" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Lock" inverseName="holder"/></entity>
      <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/><relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags"/></entity>
      <entity name="Note"><relationship name="owners" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="notes"/></entity>
      <entity name="Lock"><relationship name="holder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="lock"/></entity>
      </model>
      """))

  @Test func deleteAppliesDeletionRules() throws {
    let text = """
      <outline>
        <Item title="a" order="0" xml:id="a" tags="t" notes="n1"/>
        <Item title="b" order="1" xml:id="b" tags="t"/>
        <Tag xml:id="t" name="t" items="a b"/>
        <Note xml:id="n1" owners="a"/>
        <Note xml:id="n2"/>
        <Item title="c" order="2" lock="l"/>
        <Lock xml:id="l"/>
      </outline>

      """
    let source = SourceText(text)
    let validated = OutlineValidator.validate(source, modelProvider: fixedModel(Self.rulesModel))
    #expect(validated.diagnostics.isEmpty, "\(validated.diagnostics.map(\.message))")
    let tree = validated.tree!
    let model = Self.rulesModel
    // Nullify removes the id from the tag; Cascade deletes the note.
    let edits = try StructureEdits.delete(
      index(of: "a", in: tree, source), tree: tree, source: source, model: model
    ).get()
    let after = String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
    #expect(after.contains("<Tag xml:id=\"t\" name=\"t\" items=\"b\"/>"))
    #expect(!after.contains("n1"))
    #expect(after.contains("<Item title=\"b\" order=\"0\""))
    #expect(
      OutlineValidator.validate(SourceText(after), modelProvider: fixedModel(model)).diagnostics.isEmpty)
    // Deny refuses with the reason.
    let denied = StructureEdits.delete(
      index(of: "c", in: tree, source), tree: tree, source: source, model: model)
    guard case .failure(let refusal) = denied else {
      Issue.record("Deny was not refused")
      return
    }
    #expect(refusal.reason.contains("Deny"))
  }

  /// An id two objects define (OL500 turned off) is ambiguous to the delete rules: which object
  /// a reference names is not known. Deleting an object whose duplicated id something names, or
  /// one whose Cascade reaches such an id, is refused with the reason rename gives; an object
  /// whose duplicated id nothing names may be deleted (that is how one fixes the OL500).
  @Test func deleteIsRefusedWhereAnIDIsDefinedTwice() throws {
    let text = """
      <outline>
        <!-- outline-disable OL500 -->
        <Item title="a" order="0" tags="t" notes="n"/>
        <Item title="b" order="1" xml:id="b"/>
        <Item title="c" order="2" xml:id="b"/>
        <Tag xml:id="t" name="first"/>
        <Tag xml:id="t" name="second"/>
        <Note xml:id="n"/>
        <Note xml:id="n"/>
      </outline>

      """
    let source = SourceText(text)
    let model = Self.rulesModel
    let validated = OutlineValidator.validate(source, modelProvider: fixedModel(model))
    #expect(validated.diagnostics.isEmpty, "\(validated.diagnostics.map(\.message))")
    let tree = validated.tree!
    func refusal(_ title: String) -> String? {
      let item = index(of: title, in: tree, source)
      guard case .failure(let refused) = StructureEdits.delete(item, tree: tree, source: source, model: model)
      else { return nil }
      return refused.reason
    }
    func tag(_ name: String) -> Int {
      tree.items.indices.first { source.string(in: tree.items[$0].startTag).contains("name=\"\(name)\"") }!
    }
    // a's Cascade (notes) names 'n', which two notes define.
    #expect(
      refusal("a") == "The id 'n' is defined 2 times (OL500): give each object its own id before deleting")
    // Either Tag 't': a's tags name it, and Nullify would take the id from a for one of them.
    for name in ["first", "second"] {
      guard
        case .failure(let refused) = StructureEdits.delete(
          tag(name), tree: tree, source: source, model: model)
      else {
        Issue.record("deleting the tag '\(name)' was not refused")
        continue
      }
      #expect(
        refused.reason == "The id 't' is defined 2 times (OL500): give each object its own id before deleting"
      )
    }
    // Nothing names 'b': either object may go, and nothing else changes.
    #expect(refusal("b") == nil && refusal("c") == nil)
    let impact = DeletionImpact(tree: tree, source: source, model: model)
    #expect(throws: EditRefusal.self, "the lens says so too") {
      try impact.count(deleting: tag("first")).get()
    }
  }

  static let brokenGroup = EditFixtures.brokenSiblingGroup

  @Test func deleteIsRefusedInABrokenSiblingGroup() throws {
    let (source, tree) = document(Self.brokenGroup)
    let model = ModelLoader.defaultModel
    for title in ["A", "B", "C", "D"] {
      let item = index(of: title, in: tree, source)
      let refusal = StructureEdits.groupRefusal(deleting: item, tree: tree, model: model)
      #expect(refusal?.reason == "The orders of its sibling group are broken: renumber them first")
      guard case .failure(let refused) = StructureEdits.delete(item, tree: tree, source: source, model: model)
      else {
        Issue.record("deleting \(title) was not refused")
        continue
      }
      #expect(refused == refusal)
    }
    // The root's group, and an item in a valid one, may be deleted.
    let (valid, validTree) = document(list)
    #expect(
      StructureEdits.groupRefusal(
        deleting: index(of: "b", in: validTree, valid), tree: validTree, model: model) == nil)
  }

  static let cascadeModel = ModelLoader.load(
    SourceText(
      """
      <model>
      <entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/><attribute name="title" optional="YES" attributeType="String"/>
      <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="parent"/>
      <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children"/>
      <relationship name="related" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="relatedBy"/>
      <relationship name="relatedBy" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="related"/></entity>
      </model>
      """))

  @Test func aCascadeIntoABrokenGroupRenumbersNothingThere() throws {
    let text = """
      <outline>
        <Item title="a" order="0" related="z"/>
        <Item title="p" order="1">
          <Item title="z" order="0" xml:id="z" relatedBy="a"/>
          <Item title="y" order="5"/>
          <Item title="x"/>
        </Item>
      </outline>

      """
    let source = SourceText(text)
    let model = Self.cascadeModel
    #expect(model.diagnostics.isEmpty, "\(model.diagnostics.map(\.message))")
    let tree = OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree!
    let edits = try StructureEdits.delete(
      index(of: "a", in: tree, source), tree: tree, source: source, model: model
    )
    .get()
    let after = String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
    // a's group is valid: p closes the gap. z is cascaded; y and x keep what they had.
    #expect(
      after == """
        <outline>
          <Item title="p" order="0">
            <Item title="y" order="5"/>
            <Item title="x"/>
          </Item>
        </outline>

        """, "\(after)")
  }
}
