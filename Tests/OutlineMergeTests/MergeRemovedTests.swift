import OutlineCore
import OutlineSyntax
import TestSupport
import Testing

@testable import OutlineMerge

/// Nothing is lost silently: an item one side removed goes with everything inside it, unless the
/// other side changed it, a comment added before it or inside it included (then it stays, with a
/// `removed` conflict); a comment one side removed goes, one it edited stays.
@Suite struct MergeRemovedTests {
  static let base = MergeSketch(
    .item("a"),
    .item("x", .item("c1"), .item("c2", .item("g"))),
    .item("b"))

  /// Where a side adds a comment that the other side's removal would take with it.
  static let places: [(removed: String, commented: MergeSketch)] = [
    ("x", base.commenting(before: "x", "before x")),
    ("x", base.commenting(inside: "x", "after the last child")),
    ("x", base.commenting(before: "c1", "before the first child")),
    ("x", base.commenting(before: "g", "in a descendant")),
    ("x", base.commenting(inside: "g", "in a leaf inside")),
    ("a", base.commenting(inside: "a", "in the removed leaf")),
  ]

  /// `text` with a `removed` record of `side` before the item titled `title` (and its comments).
  static func recorded(_ text: String, side: String, before title: String) -> String {
    var lines = text.components(separatedBy: "\n")
    guard var at = lines.firstIndex(where: { $0.hasPrefix("  <Item ") && $0.contains("title=\"\(title)\"") })
    else { return text }
    while at > 0 && lines[at - 1].hasPrefix("  <!--") { at -= 1 }
    lines.insert("  <?outline-conflict kind=\"removed\" side=\"\(side)\"?>", at: at)
    return lines.joined(separator: "\n")
  }

  @Test(arguments: 0..<6)
  func aCommentAddedInAnItemTheOtherSideRemovedKeepsItWithAConflict(place: Int) {
    let (title, commented) = Self.places[place]
    let removed = Self.base.removing(title)
    let comment = commented.text.components(separatedBy: "<!-- ").dropFirst().first?
      .components(separatedBy: " -->").first
    for (ours, theirs, remover) in [(removed, commented, "ours"), (commented, removed, "theirs")] {
      let result = merged(Self.base.text, ours.text, theirs.text)
      let text = String(decoding: result.bytes, as: UTF8.self)
      #expect(result.conflicts.map(\.record) == [ConflictRecord(.removed, [("side", remover)])], "\(text)")
      #expect(text.components(separatedBy: "<!-- \(comment ?? "") -->").count == 2, "\(text)")
      #expect(text == Self.recorded(commented.text, side: remover, before: title), "\(text)")
      #expect(lint(text).map(\.code) == [.mergeConflict])
    }
  }

  @Test func anItemRemovedWithEverythingInsideItIsGone() {
    let ours = Self.base.removing("x")
    let theirs = Self.base.editing("a") { $0.attributes = "done=\"true\"" }
    let expected = ours.editing("a") { $0.attributes = "done=\"true\"" }.text
    #expect(mergedText(Self.base.text, ours.text, theirs.text) == expected)
    #expect(mergedText(Self.base.text, theirs.text, ours.text) == expected)
    #expect(mergedText(Self.base.text, ours.text, Self.base.text) == ours.text)
    #expect(mergedText(Self.base.text, Self.base.text, ours.text) == ours.text)
  }

  /// The base with comments in every kind of slot: before the root, before an item, inside a
  /// leaf, after a last child, after the root.
  static var commented: MergeSketch {
    var sketch = base.commenting(before: "b", "before b").commenting(inside: "a", "in a")
      .commenting(inside: "x", "after c2")
    sketch.prolog = ["before the root"]
    sketch.epilog = ["after the root"]
    return sketch
  }

  @Test func aCommentOneSideRemovedAndTheOtherLeftAloneIsRemoved() {
    let base = Self.commented
    let edit: (MergeSketch) -> MergeSketch = { $0.editing("g") { $0.title = "G" } }
    for comment in ["before b", "in a", "after c2", "before the root", "after the root"] {
      let removed = base.uncommenting(comment)
      for (ours, theirs) in [(removed, edit(base)), (edit(base), removed)] {
        let result = merged(base.text, ours.text, theirs.text)
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(result.conflicts.isEmpty)
        #expect(text == edit(removed).text, "\(comment)\n\(text)")
      }
    }
  }

  @Test func aCommentRemovedOnOneSideAndEditedOnTheOtherKeepsTheEdit() {
    let base = Self.commented
    let removed = base.uncommenting("before b")
    let edited = removed.commenting(before: "b", "before b, edited")
    for (ours, theirs) in [(removed, edited), (edited, removed)] {
      let result = merged(base.text, ours.text, theirs.text)
      let text = String(decoding: result.bytes, as: UTF8.self)
      #expect(result.conflicts.isEmpty)
      #expect(text == edited.text, "\(text)")
    }
  }

  @Test func aCommentBothSidesKeptStaysWhereTheirsPutItWhenOursItemWent() {
    // Theirs removed `b` but kept the comment before it, now at the end of the root.
    let base = Self.commented.text
    let theirs = base.replacingOccurrences(
      of: "  <!-- before b -->\n  <Item order=\"2\" title=\"b\"/>\n", with: "  <!-- before b -->\n")
    #expect(theirs != base)
    #expect(mergedText(base, base, theirs) == theirs)
    #expect(mergedText(base, theirs, base) == theirs)
  }
}
