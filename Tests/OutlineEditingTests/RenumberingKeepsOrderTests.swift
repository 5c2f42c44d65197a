import Foundation
import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import TestSupport
import Testing

@testable import OutlineEditing

/// Renumbering keeps the order the values give (the order attribute, not the
/// position in the file, is the data): a group is sorted by value, document
/// order among equal values, a child without an integer value taking its
/// place among its siblings as its value, and numbered 0..n-1, editing only
/// the children whose number changes.
@Suite struct RenumberingKeepsOrderTests {
  /// `text` fixed as `--fix` fixes it: every group with a reported order problem renumbered.
  static func fixed(_ text: String) -> String {
    let source = SourceText(text)
    let validator = OutlineValidator.validate(source)
    let edits = Renumbering.fixAll(
      tree: validator.tree!, source: source, model: ModelLoader.defaultModel, reported: validator.diagnostics)
    return String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
  }

  static let reversed = SiblingOrderDocument.reversedWithADuplicate

  @Test func aDuplicateInAListWrittenBackwardsChangesOnlyTheSecondOfTheTwo() {
    let (source, tree) = document(Self.reversed)
    let group = Renumbering.groups(under: 0, in: tree, model: ModelLoader.defaultModel)[0]
    let edits = Renumbering.edits(numbering: group, in: tree, source: source, model: ModelLoader.defaultModel)
    #expect(edits.count == 1)
    #expect(edits.first?.newText == "4")
    #expect(edits.first?.range.start == tree.items[index(of: "fifth", in: tree, source)].orderRange?.start)
    #expect(
      Self.fixed(Self.reversed)
        == Self.reversed.replacingOccurrences(of: "\"fifth\" order=\"3\"", with: "\"fifth\" order=\"4\""))
  }

  /// A group holding every kind of broken order value, `g` holding a group of its own, and what
  /// renumbering makes of it: integers by value (negative first, too large last); a child
  /// without one by its position among its siblings (before a sibling holding that value further
  /// down); `+0` is 0 already and is not rewritten. (Keys: a 0 (position), b -4, c 2 (position),
  /// d 3 (position), e 1, f 70000, g 3 (after d): b a e c d g f.)
  static let everyKindOfBrokenValue = (
    text: """
    <outline version="1">
      <Item title="a" order="abc"/>
      <Item title="b" order="-4"/>
      <Item title="c" order="99999999999999999999"/>
      <Item title="d"/>
      <Item title="e" order="1"/>
      <Item title="f" order="70000"/>
      <Item title="g" order="3">
        <Item title="g1" order="5"/>
        <Item title="g2" order="+0"/>
      </Item>
    </outline>

    """,
    fixed: """
    <outline version="1">
      <Item title="a" order="1"/>
      <Item title="b" order="0"/>
      <Item title="c" order="3"/>
      <Item order="4" title="d"/>
      <Item title="e" order="2"/>
      <Item title="f" order="6"/>
      <Item title="g" order="5">
        <Item title="g1" order="1"/>
        <Item title="g2" order="+0"/>
      </Item>
    </outline>

    """
  )

  /// `text` without `g`'s children: one group.
  static func oneGroup(_ text: String) -> String {
    text.replacingOccurrences(of: #">\n(    .*\n)+  </Item>"#, with: "/>", options: .regularExpression)
  }

  @Test func missingNonIntegerNegativeAndTooLargeValuesInOneGroup() {
    // `e`'s order written `+1`: an integer all the same.
    let text = Self.oneGroup(Self.everyKindOfBrokenValue.text)
      .replacingOccurrences(of: "order=\"1\"", with: "order=\"+1\"")
    #expect(!text.contains("g1") && text.contains("title=\"e\" order=\"+1\""), "\(text)")
    #expect(Self.fixed(text) == Self.oneGroup(Self.everyKindOfBrokenValue.fixed))
    #expect(
      OutlineValidator.validate(SourceText(Self.fixed(text))).diagnostics.allSatisfy { $0.severity == .hint })
  }

  @Test func anOrderThatIsNoIntegerIsFixedWhenItIsTheGroupsOnlyProblem() {
    // Only an OL300 on the order: the other values are 0 and 1, no OL400-OL402.
    let text = """
      <outline version="1">
        <Item title="a" order="1"/>
        <Item title="b" order="draft"/>
        <Item title="c" order="0"/>
      </outline>

      """
    #expect(OutlineValidator.validate(SourceText(text)).diagnostics.map(\.code) == [.valueType])
    #expect(Self.fixed(text) == text.replacingOccurrences(of: "draft", with: "2"))
    // An OL300 elsewhere on the item is no order problem: nothing to renumber.
    let (source, tree) = document(text)
    let b = index(of: "b", in: tree, source)
    #expect(Renumbering.repairs(.valueType, at: tree.items[b].orderRange!.start, item: b, in: tree))
    #expect(!Renumbering.repairs(.valueType, at: tree.items[b].titleRange!.start, item: b, in: tree))
  }

  @Test func aGapLeftByADeletionInAReversedListKeepsTheOrder() {
    // `a` (order 0) was deleted by hand from a list written backwards: 4 is
    // too large but still says "last".
    let text = """
      <outline version="1">
        <Item title="e" order="4"/>
        <Item title="d" order="3"/>
        <Item title="c" order="2"/>
        <Item title="b" order="1"/>
      </outline>

      """
    let result = Self.fixed(text)
    #expect(Self.orders(result) == ["e": "3", "d": "2", "c": "1", "b": "0"])
  }

  @Test func aChildAddedWithoutAnOrderStaysWhereItWasWritten() {
    // In a list kept in document order, a child written between two others
    // without an order takes that place; one added at the end comes last.
    let text = """
      <outline version="1">
        <Item title="a" order="0"/>
        <Item title="b" order="1"/>
        <Item title="new"/>
        <Item title="c" order="2"/>
        <Item title="d" order="3"/>
        <Item title="last"/>
      </outline>

      """
    #expect(
      Self.orders(Self.fixed(text)) == ["a": "0", "b": "1", "new": "2", "c": "3", "d": "4", "last": "5"])
  }

  @Test func sortingAfterTheFixPutsTheElementsWhereTheirNumbersSay() throws {
    let fixedText = Self.fixed(Self.reversed)
    let (source, tree) = document(fixedText)
    let group = Renumbering.groups(under: 0, in: tree, model: ModelLoader.defaultModel)[0]
    #expect(Renumbering.isValid(group, in: tree))
    let sorted = String(
      decoding: TextEdit.apply(SiblingEdits.sort(group, tree: tree, source: source), to: source.bytes)!,
      as: UTF8.self)
    #expect(
      sorted == """
        <outline version="1">
          <Item title="first" order="0"/>
          <Item title="second" order="1"/>
          <Item title="third" order="2"/>
          <Item title="fourth" order="3"/>
          <Item title="fifth" order="4"/>
        </outline>

        """)
  }

  /// Title to written order.
  static func orders(_ text: String) -> [String: String] {
    var result: [String: String] = [:]
    for (title, order) in SiblingOrderDocument.orders(in: text) { result[title] = order }
    return result
  }

  @Test func generatedGroupsAreRenumberedKeepingTheirOrder() throws {
    try Property.check("renumbering keeps the order valid values give", cases: 400) { random, _ in
      let document = SiblingOrderDocument.generate(&random)
      let source = SourceText(document.text)
      let validator = OutlineValidator.validate(source)
      guard let tree = validator.tree else { return "the generated document does not parse" }
      let model = ModelLoader.defaultModel
      let edits = Renumbering.fixAll(
        tree: tree, source: source, model: model, reported: validator.diagnostics)
      if document.isValid != edits.isEmpty {
        return "valid \(document.isValid) but \(edits.count) edits:\n\(document.text)"
      }
      let fixed = String(decoding: TextEdit.apply(edits, to: source.bytes)!, as: UTF8.self)
      if let problem = document.check(fixed: fixed) { return problem + ":\n" + document.text }
      let after = OutlineValidator.validate(SourceText(fixed))
      if let error = after.diagnostics.first(where: { $0.severity != .hint }) {
        return "\(error.code) remains: \(error.message)\n\(fixed)"
      }
      // A second fix changes nothing.
      if !Renumbering.fixAll(
        tree: after.tree!, source: SourceText(fixed), model: model, reported: after.diagnostics
      )
      .isEmpty {
        return "a second fix edits again:\n\(fixed)"
      }
      // Each group's own renumbering (the quick fix) is the fix-all's, and
      // sorting by order afterwards puts the children in the order renumbering kept.
      var perGroup: [TextEdit] = []
      for parent in tree.items.indices {
        for group in Renumbering.groups(under: parent, in: tree, model: model) {
          perGroup += Renumbering.edits(numbering: group, in: tree, source: source, model: model)
        }
      }
      if TextEdit.apply(perGroup, to: source.bytes) != Array(fixed.utf8) {
        return "renumbering each group differs from the fix-all:\n\(document.text)"
      }
      let expected = document.expectedOrders
      for parent in after.tree!.items.indices {
        for group in Renumbering.groups(under: parent, in: after.tree!, model: model) {
          let sortedTitles = after.tree!.inOrderOrder(group.children).map {
            SourceText(fixed).string(in: after.tree!.items[$0].titleRange!)
          }
          let titles = group.children.map { SourceText(fixed).string(in: after.tree!.items[$0].titleRange!) }
          let byNumber = titles.sorted {
            expected[Int($0.dropFirst())!] < expected[Int($1.dropFirst())!]
          }
          if sortedTitles != byNumber { return "sorting by order gives \(sortedTitles), not \(byNumber)" }
        }
      }
      return nil
    }
  }
}
