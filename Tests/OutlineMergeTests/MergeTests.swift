import OutlineCore
import OutlineSyntax
import OutlineValidation
import TestSupport
import Testing

@testable import OutlineMerge

/// Merges three documents of the default model.
func merged(_ base: String, _ ours: String, _ theirs: String) -> MergeResult {
  ThreeWayMerge.merge(base: items(base), ours: items(ours), theirs: items(theirs))
}

/// The text of a merge.
func mergedText(_ base: String, _ ours: String, _ theirs: String) -> String {
  String(decoding: merged(base, ours, theirs).bytes, as: UTF8.self)
}

/// The diagnostics of a merged document against the default model.
func lint(_ text: String) -> [Diagnostic] {
  OutlineValidator.validate(SourceText(text)).diagnostics.filter { $0.severity == .error }
}

@Suite struct MergeTests {
  static let sketch = MergeSketch(.item("a"), .item("b"))
  static let list = sketch.text

  @Test func additionsAtTheEndOfOneListAreAllKeptOursFirst() {
    let ours = Self.sketch.adding(.item("x"))
    let result = merged(Self.list, ours.text, Self.sketch.adding(.item("y")).text)
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(result.conflicts.isEmpty)
    #expect(text == ours.adding(.item("y")).text)
    #expect(lint(text).isEmpty)
  }

  @Test func anIdenticalAdditionOnBothSidesIsOne() {
    let both = Self.sketch.adding(.item("x", .item("y"))).text
    #expect(mergedText(Self.list, both, both) == both)
  }

  @Test func oneSidedChangesAreTakenAndOursLayoutKept() {
    let base = """
      <outline version="1">
        <!-- keep me -->
        <Item   order="0"  title="a"/>
        <Item order="1" title="b"/>
      </outline>
      """
    let ours = base.replacingOccurrences(of: "title=\"b\"", with: "title=\"B\"")
    let theirs = base.replacingOccurrences(
      of: "<Item   order=\"0\"  title=\"a\"/>", with: "<Item order=\"0\" title=\"A\"/>")
    let text = mergedText(base, ours, theirs)
    #expect(
      text == """
        <outline version="1">
          <!-- keep me -->
          <Item order="0" title="A"/>
          <Item order="1" title="B"/>
        </outline>
        """)
  }

  @Test func movedOnOneSideAndEditedOnTheOtherIsBoth() {
    let base = """
      <outline version="1">
        <Item order="0" title="a">
          <Item order="0" title="child"/>
        </Item>
        <Item order="1" title="b"/>
      </outline>

      """
    let ours = """
      <outline version="1">
        <Item order="0" title="a"/>
        <Item order="1" title="b">
          <Item order="0" title="child"/>
        </Item>
      </outline>

      """
    let theirs = base.replacingOccurrences(of: "title=\"child\"", with: "title=\"child, edited\"")
    let result = merged(base, ours, theirs)
    #expect(result.conflicts.isEmpty)
    #expect(
      String(decoding: result.bytes, as: UTF8.self)
        == ours.replacingOccurrences(of: "title=\"child\"", with: "title=\"child, edited\""))
  }

  @Test func sameAttributeChangedDifferentlyIsARecordedConflict() {
    let ours = Self.list.replacingOccurrences(of: "title=\"b\"", with: "title=\"mine\"")
    let theirs = Self.list.replacingOccurrences(of: "title=\"b\"", with: "title=\"yours\"")
    let result = merged(Self.list, ours, theirs)
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(result.conflicts.map(\.record.kind) == [.attribute])
    #expect(
      text
        == ours.replacingOccurrences(
          of: "  <Item order=\"1\"",
          with:
            "  <?outline-conflict kind=\"attribute\" name=\"title\" base=\"b\" ours=\"mine\" theirs=\"yours\"?>\n  <Item order=\"1\""
        ))
    let errors = lint(text)
    #expect(errors.map(\.code) == [.mergeConflict])
    #expect(errors.first?.range == result.conflicts.first?.range)
  }

  @Test func removedAgainstChangedIsAConflictKeepingTheChange() {
    let ours = Self.sketch.removing("b").text
    let theirs = Self.sketch.editing("b") { $0.title = "b2" }.text
    let result = merged(Self.list, ours, theirs)
    #expect(result.conflicts.map(\.record) == [ConflictRecord(.removed, [("side", "ours")])])
    #expect(String(decoding: result.bytes, as: UTF8.self).contains("title=\"b2\""))
    // Removed on one side and untouched on the other: gone.
    let gone = mergedText(Self.list, ours, Self.list)
    #expect(gone == ours)
  }

  @Test func movesToTwoParentsAreAConflictWithBothPlaces() {
    let base = """
      <outline version="1">
        <Item order="0" title="p"/>
        <Item order="1" title="q"/>
        <Item order="2" title="x"/>
      </outline>

      """
    let ours = """
      <outline version="1">
        <Item order="0" title="p">
          <Item order="0" title="x"/>
        </Item>
        <Item order="1" title="q"/>
      </outline>

      """
    let theirs = """
      <outline version="1">
        <Item order="0" title="p"/>
        <Item order="1" title="q">
          <Item order="0" title="x"/>
        </Item>
      </outline>

      """
    let result = merged(base, ours, theirs)
    #expect(result.conflicts.map(\.record.kind) == [.moved, .place])
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(text.contains("<Item order=\"1\" title=\"q\">\n    <?outline-conflict kind=\"place\""), "\(text)")
    #expect(lint(text).allSatisfy { $0.code == .mergeConflict })
  }

  @Test func oneIDAddedOnBothSidesForDifferentItemsIsAConflict() {
    let ours = Self.list.replacingOccurrences(
      of: "</outline>", with: "  <Item xml:id=\"n\" order=\"2\" title=\"x\"/>\n</outline>")
    let theirs = Self.list.replacingOccurrences(
      of: "</outline>", with: "  <Item xml:id=\"n\" order=\"2\" title=\"y\"/>\n</outline>")
    let result = merged(Self.list, ours, theirs)
    #expect(result.conflicts.map(\.record) == [ConflictRecord(.id, [("id", "n")])])
  }

  @Test func aSideLeftAsTheBaseGivesTheOther() {
    let changed = Self.sketch.editing("a") { $0.title = "z" }.adding(.item("new")).text
    #expect(mergedText(Self.list, changed, Self.list) == changed)
    #expect(mergedText(Self.list, Self.list, changed) == changed)
  }
}
