import Foundation
import OutlineJSON
import TestSupport
import Testing

/// `outline merge` through the binary never loses anything silently: an item one side removed
/// and the other commented is a conflict the editor's quick fixes resolve; a comment one side
/// removed goes, one it edited stays; an item removed with its children stays removed.
@Suite struct MergeCommentsCLITests {
  static let base = MergeSketch(.item("a"), .item("x", .item("c1"), .item("c2")), .item("b"))

  @Test func anItemRemovedWithItsChildrenStaysRemoved() throws {
    let removed = Self.base.removing("x")
    let edited = Self.base.editing("b") { $0.title = "B" }
    let (output, result, folder) = try MergeCLITests.merge(Self.base.text, removed.text, edited.text)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(result == removed.editing("b") { $0.title = "B" }.text, "\(result)")
    #expect(try MergeCLITests.lint(folder, "ours.outline").status == 0)
  }

  @Test func aCommentAddedInAnItemTheOtherSideRemovedIsAConflictTheQuickFixesResolve() throws {
    let removed = Self.base.removing("x")
    let commented = Self.base.commenting(before: "c2", "keep c2 for now")
    let client = try LSPClient()
    _ = client.initialize()
    defer {
      _ = client.request("shutdown")
      client.notify("exit", [:])
      #expect(client.close() == 0)
    }
    for (number, (ours, theirs, remover)) in [(removed, commented, "ours"), (commented, removed, "theirs")]
      .enumerated()
    {
      let (output, result, folder) = try MergeCLITests.merge(Self.base.text, ours.text, theirs.text)
      #expect(output.status == 1, "\(output.stderr)")
      #expect(output.stderr.contains("OL600"), "\(output.stderr)")
      #expect(result.contains("<?outline-conflict kind=\"removed\" side=\"\(remover)\"?>"), "\(result)")
      #expect(result.contains("<!-- keep c2 for now -->"), "\(result)")
      let lint = try MergeCLITests.lint(folder, "ours.outline")
      #expect(lint.status == 1 && lint.stdout.contains("OL600"), "\(lint.stdout)")

      // Each quick fix picks a side and leaves a document that lints clean.
      let uri = "file:///tmp/outline-merge-removed-\(number)/list.outline"
      client.open(uri, result)
      let diagnostics = try #require(client.diagnostics(uri, version: 1)?["diagnostics"])
      #expect(diagnostics.arrayValue?.compactMap { $0["code"]?.stringValue } == ["OL600"])
      let line = try #require(diagnostics.arrayValue?.first?["range"]?["start"]?["line"]?.intValue)
      let actions = client.codeActions(uri, line: line, character: 4, diagnostics: diagnostics)
      let keeper = remover == "ours" ? "theirs" : "ours"
      let fixes = [
        ("Keep the item (\(keeper))", commented.text), ("Remove the item (\(remover))", removed.text),
      ]
      for (title, expected) in fixes {
        let action = try #require(actions.first { $0["title"]?.stringValue == title }, "\(actions)")
        let fixed = applyLSPEdits(workspaceEdits(action["edit"]), to: result)
        try fixed.write(to: folder.appendingPathComponent("fixed.outline"), atomically: true, encoding: .utf8)
        let check = try MergeCLITests.lint(folder, "fixed.outline")
        #expect(check.status == 0, "\(title)\n\(fixed)\n\(check.stdout)")
        // The same outline as the side it picked (only `order` values may differ).
        try expected.write(
          to: folder.appendingPathComponent("picked.outline"), atomically: true, encoding: .utf8)
        let diff = try CLI.run("outline", ["diff", "picked.outline", "fixed.outline"], in: folder)
        #expect(diff.status == 0, "\(title)\n\(diff.stdout)")
        #expect(fixed.contains("keep c2 for now") == title.hasPrefix("Keep"), "\(fixed)")
      }
    }
  }

  @Test func aCommentOneSideRemovedIsRemovedAndOneTheOtherEditedStays() throws {
    let base = Self.base.commenting(before: "b", "about b").commenting(inside: "a", "inside a")
    let edited = base.editing("c1") { $0.title = "C1" }
    // Removed on one side, left on the other: removed, whichever side removed it.
    for comment in ["about b", "inside a"] {
      let removed = base.uncommenting(comment)
      for (ours, theirs) in [(removed, edited), (edited, removed)] {
        let (output, result, folder) = try MergeCLITests.merge(base.text, ours.text, theirs.text)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(result == removed.editing("c1") { $0.title = "C1" }.text, "\(result)")
        #expect(try CLI.run("outline", ["fmt", "--check", "ours.outline"], in: folder).status == 0)
      }
    }
    // Removed on one side, edited on the other: the edited comment stays.
    let removed = base.uncommenting("about b")
    let rewritten = removed.commenting(before: "b", "about b, rewritten")
    for (ours, theirs) in [(removed, rewritten), (rewritten, removed)] {
      let (output, result, _) = try MergeCLITests.merge(base.text, ours.text, theirs.text)
      #expect(output.status == 0, "\(output.stderr)")
      #expect(result == rewritten.text, "\(result)")
    }
  }
}
