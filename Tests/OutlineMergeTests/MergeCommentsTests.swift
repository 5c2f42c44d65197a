import OutlineCore
import OutlineSyntax
import Testing

@testable import OutlineMerge

/// Comments are the user's: each side's, in the items it added and in the items both have, come
/// through a merge where that side put them, and canonical inputs give a canonical result.
@Suite struct MergeCommentsTests {
  static let base = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item order="0" title="a">
        <Item order="0" title="a1"/>
      </Item>
      <Item order="1" title="b"/>
    </outline>

    """

  /// `base` with an item added at the end holding comments before, inside and after its child.
  static let theirsAddsAnItem = base.replacingOccurrences(
    of: "  <Item order=\"1\" title=\"b\"/>\n",
    with: """
        <Item order="1" title="b"/>
        <!-- before the new item -->
        <Item order="2" title="new">
          <!-- before its child -->
          <Item order="0" title="child">
            <!-- inside the leaf -->
          </Item>
          <!-- after its child -->
        </Item>

      """)

  @Test func commentsInAnItemTheirsAddedAreKept() {
    let ours = Self.base.replacingOccurrences(of: "title=\"a1\"", with: "title=\"A1\"")
    let result = merged(Self.base, ours, Self.theirsAddsAnItem)
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(result.conflicts.isEmpty)
    let expected = Self.theirsAddsAnItem.replacingOccurrences(of: "title=\"a1\"", with: "title=\"A1\"")
    #expect(text == expected, "\(text)")
    #expect(lint(text).isEmpty)
  }

  @Test func commentsInAnItemOursAddedAreKept() {
    let theirs = Self.base.replacingOccurrences(of: "title=\"a1\"", with: "title=\"a1\" done=\"true\"")
    let text = mergedText(Self.base, Self.theirsAddsAnItem, theirs)
    #expect(
      text
        == Self.theirsAddsAnItem.replacingOccurrences(of: "title=\"a1\"", with: "title=\"a1\" done=\"true\""),
      "\(text)")
  }

  /// `base` with comments before `b`, before `a1`, after `a1` inside `a`, before and after the root.
  static let commented = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!-- before the root -->
    <outline version="1">
      <Item order="0" title="a">
        <!-- before a1 -->
        <Item order="0" title="a1"/>
        <!-- after a1 -->
      </Item>
      <!-- before b -->
      <Item order="1" title="b"/>
    </outline>
    <!-- after the root -->

    """

  @Test func commentsTheirsAddedInItemsBothHaveAreKeptInTheirPlace() {
    let ours = Self.base.replacingOccurrences(of: "title=\"b\"", with: "title=\"B\"")
    let result = merged(Self.base, ours, Self.commented)
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(result.conflicts.isEmpty)
    #expect(text == Self.commented.replacingOccurrences(of: "title=\"b\"", with: "title=\"B\""), "\(text)")
  }

  @Test func commentsTheirsAddedInAnItemBothChangedAreKept() {
    let ours = Self.base.replacingOccurrences(of: "title=\"a\"", with: "title=\"a\" done=\"true\"")
    let theirs = Self.commented.replacingOccurrences(of: "title=\"a\"", with: "title=\"A\"")
    let text = mergedText(Self.base, ours, theirs)
    #expect(
      text == Self.commented.replacingOccurrences(of: "title=\"a\"", with: "title=\"A\" done=\"true\""),
      "\(text)")
  }

  @Test func aCommentTheirsAddedInALeafOpensIt() {
    let theirs = Self.base.replacingOccurrences(
      of: "<Item order=\"1\" title=\"b\"/>",
      with: "<Item order=\"1\" title=\"b\">\n    <!-- inside b -->\n  </Item>")
    let ours = Self.base.replacingOccurrences(of: "title=\"a1\"", with: "title=\"A1\"")
    let text = mergedText(Self.base, ours, theirs)
    #expect(text == theirs.replacingOccurrences(of: "title=\"a1\"", with: "title=\"A1\""), "\(text)")
  }

  @Test func commentsBothSidesAddedAreAllKeptOursFirst() {
    let ours = Self.base.replacingOccurrences(
      of: "  <Item order=\"1\"", with: "  <!-- ours -->\n  <!-- both -->\n  <Item order=\"1\"")
    let theirs = Self.base.replacingOccurrences(
      of: "  <Item order=\"1\"", with: "  <!-- both -->\n  <!-- theirs -->\n  <Item order=\"1\"")
    let text = mergedText(Self.base, ours, theirs)
    #expect(
      text
        == Self.base.replacingOccurrences(
          of: "  <Item order=\"1\"",
          with: "  <!-- ours -->\n  <!-- both -->\n  <!-- theirs -->\n  <Item order=\"1\""),
      "\(text)")
  }

  @Test func aCommentOfTheBaseBeforeAnItemTheirsAddedInFrontIsWrittenOnce() {
    let base = Self.commented
    let theirs = base.replacingOccurrences(
      of: "  <Item order=\"1\" title=\"b\"/>",
      with: "  <Item order=\"1\" title=\"x\"/>\n  <Item order=\"2\" title=\"b\"/>")
    let ours = base.replacingOccurrences(of: "title=\"a1\"", with: "title=\"A1\"")
    let text = mergedText(base, ours, theirs)
    #expect(text.components(separatedBy: "<!-- before b -->").count == 2, "\(text)")
    #expect(text.contains("title=\"x\"") && text.contains("title=\"A1\""))
    #expect(lint(text).isEmpty)
  }
}
