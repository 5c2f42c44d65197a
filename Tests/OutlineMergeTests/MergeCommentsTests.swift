import OutlineCore
import OutlineSyntax
import TestSupport
import Testing

@testable import OutlineMerge

/// Comments are the user's: each side's, in the items it added and in the items both have, come
/// through a merge where that side put them, and canonical inputs give a canonical result.
@Suite struct MergeCommentsTests {
  static let sketch = MergeSketch(.item("a", .item("a1")), .item("b"))
  static let base = sketch.text

  /// `base` with an item added at the end holding comments before, inside and after its child.
  static let theirsAddsAnItem = sketch.adding(
    .item(
      "new", before: ["before the new item"], inside: ["after its child"],
      .item("child", before: ["before its child"], inside: ["inside the leaf"])))

  @Test func commentsInAnItemTheirsAddedAreKept() {
    let ours = Self.sketch.editing("a1") { $0.title = "A1" }
    let result = merged(Self.base, ours.text, Self.theirsAddsAnItem.text)
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(result.conflicts.isEmpty)
    #expect(text == Self.theirsAddsAnItem.editing("a1") { $0.title = "A1" }.text, "\(text)")
    #expect(lint(text).isEmpty)
  }

  @Test func commentsInAnItemOursAddedAreKept() {
    let done: (inout MergeSketch.Item) -> Void = { $0.attributes = "done=\"true\"" }
    let text = mergedText(Self.base, Self.theirsAddsAnItem.text, Self.sketch.editing("a1", done).text)
    #expect(text == Self.theirsAddsAnItem.editing("a1", done).text, "\(text)")
  }

  /// `base` with comments before `b`, before `a1`, after `a1` inside `a`, before and after the root.
  static var commented: MergeSketch {
    var sketch = Self.sketch.commenting(before: "a1", "before a1").commenting(inside: "a", "after a1")
      .commenting(before: "b", "before b")
    sketch.prolog = ["before the root"]
    sketch.epilog = ["after the root"]
    return sketch
  }

  @Test func commentsTheirsAddedInItemsBothHaveAreKeptInTheirPlace() {
    let retitle: (inout MergeSketch.Item) -> Void = { $0.title = "B" }
    let result = merged(Self.base, Self.sketch.editing("b", retitle).text, Self.commented.text)
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(result.conflicts.isEmpty)
    #expect(text == Self.commented.editing("b", retitle).text, "\(text)")
  }

  @Test func commentsTheirsAddedInAnItemBothChangedAreKept() {
    let ours = Self.sketch.editing("a") { $0.attributes = "done=\"true\"" }
    let theirs = Self.commented.editing("a") { $0.title = "A" }
    let text = mergedText(Self.base, ours.text, theirs.text)
    #expect(text == theirs.editing("A") { $0.attributes = "done=\"true\"" }.text, "\(text)")
  }

  @Test func aCommentTheirsAddedInALeafOpensIt() {
    let theirs = Self.sketch.commenting(inside: "b", "inside b")
    let retitle: (inout MergeSketch.Item) -> Void = { $0.title = "A1" }
    let text = mergedText(Self.base, Self.sketch.editing("a1", retitle).text, theirs.text)
    #expect(text == theirs.editing("a1", retitle).text, "\(text)")
  }

  @Test func commentsBothSidesAddedAreAllKeptOursFirst() {
    let ours = Self.sketch.commenting(before: "b", "ours").commenting(before: "b", "both")
    let theirs = Self.sketch.commenting(before: "b", "both").commenting(before: "b", "theirs")
    let text = mergedText(Self.base, ours.text, theirs.text)
    #expect(text == ours.commenting(before: "b", "theirs").text, "\(text)")
  }

  @Test func aCommentOfTheBaseBeforeAnItemTheirsAddedInFrontIsWrittenOnce() {
    let base = Self.commented.text
    let theirs = base.replacingOccurrences(
      of: "  <Item order=\"1\" title=\"b\"/>",
      with: "  <Item order=\"1\" title=\"x\"/>\n  <Item order=\"2\" title=\"b\"/>")
    let ours = Self.commented.editing("a1") { $0.title = "A1" }.text
    let text = mergedText(base, ours, theirs)
    #expect(text.components(separatedBy: "<!-- before b -->").count == 2, "\(text)")
    #expect(text.contains("title=\"x\"") && text.contains("title=\"A1\""))
    #expect(lint(text).isEmpty)
  }
}
