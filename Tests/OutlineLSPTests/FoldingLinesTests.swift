import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// The folds' lines, found by walks that start each search where the one before ended, are the
/// lines a count of the newlines before each offset gives, for every shape of tree.
@Suite struct FoldingLinesTests {
  let session = Session()

  /// The folds of `text`, and the (start, end) lines a newline count gives for its items and comments.
  private func folds(_ text: String) throws -> (found: [[Int]], counted: [[Int]]) {
    let (snapshot, _) = session.open(text)
    let folds = try Session.decode(
      [LSP.FoldingRange].self, FoldingFeature(mapper: session.mapper).ranges(snapshot))
    let bytes = Array(text.utf8)
    func line(_ offset: Int) -> Int {
      bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    }
    var counted: [[Int]] = []
    for item in snapshot.analysis.tree?.items ?? [] {
      let start = line(item.startTag.start)
      let end = line(item.fullRange.end)
      if end > start { counted.append([start, item.endTag != nil ? max(start, end - 1) : end]) }
    }
    for comment in snapshot.analysis.tree?.comments ?? [] where line(comment.end) > line(comment.start) {
      counted.append([line(comment.start), line(comment.end)])
    }
    return (folds.map { [$0.startLine, $0.endLine] }, counted)
  }

  @Test func nestedSiblingsAndCommentsFoldOnTheirLines() throws {
    var text = "<?xml version=\"1.0\"?>\n<outline version=\"1\">\n<!-- one\ntwo -->\n"
    for parent in 0..<30 {
      text += "<Item order=\"\(parent)\" title=\"p\(parent)\">"
      // Children on the parent's line, on lines of their own, and nested across lines.
      for child in 0..<(parent % 4) { text += "<Item order=\"\(child)\" title=\"c\"/>" }
      if parent % 3 == 0 {
        text += "\n  <Item order=\"9\" title=\"n\">\n    <Item order=\"0\"/>\n\n  </Item>"
      }
      if parent % 5 == 0 { text += "<!-- a\n\n b -->" }
      text += parent % 2 == 0 ? "\n</Item>\n" : "</Item>"
    }
    text += "\n</outline>\n"
    let (found, counted) = try folds(text)
    #expect(found.count > 30)
    #expect(found == counted)
  }

  @Test func aDeepChainAndSiblingsOnOneLineEach() throws {
    let chain =
      "<outline>\n" + (0..<200).map { "<Item order=\"0\" title=\"\($0)\">\n" }.joined()
      + String(repeating: "</Item>\n", count: 200) + "</outline>\n"
    let (chainFolds, chainCounted) = try folds(chain)
    #expect(chainFolds.count == 201)
    #expect(chainFolds == chainCounted)
    let siblings =
      "<outline>\n" + (0..<500).map { "  <Item order=\"\($0)\" title=\"t\"/>\n" }.joined() + "</outline>\n"
    let (siblingFolds, siblingCounted) = try folds(siblings)
    #expect(siblingFolds == [[0, 500]])
    #expect(siblingFolds == siblingCounted)
  }

  /// An element cut short ends at its start tag, before its descendants' ends: its line is still right.
  @Test func anElementCutShortKeepsItsLines() throws {
    let text =
      "<outline>\n  <Item title=\"a\" order=\"0\">\n    <Item title=\"b\" order=\"0\">\n\n"
      + "      <Item title=\"c\" order=\"0\"/>\n    </Item>\n  <Item title=\"d\n"
    let (found, counted) = try folds(text)
    #expect(!found.isEmpty)
    #expect(found == counted)
  }
}
