import Foundation
import Testing

@testable import OutlineCore

struct LineDiffTests {
  private func diff(_ old: String, _ new: String) -> String {
    String(
      decoding: LineDiff.unified(Array(old.utf8), Array(new.utf8), oldName: "a", newName: "b"), as: UTF8.self)
  }

  @Test func equalTextsHaveNoDiff() {
    #expect(diff("", "").isEmpty)
    #expect(diff("a\nb\n", "a\nb\n").isEmpty)
  }

  @Test func oneChangedLineKeepsThreeLinesOfContext() {
    let old = (1...10).map { "line \($0)\n" }.joined()
    let new = old.replacingOccurrences(of: "line 5\n", with: "five\n")
    #expect(
      diff(old, new) == """
        --- a
        +++ b
        @@ -2,7 +2,7 @@
         line 2
         line 3
         line 4
        -line 5
        +five
         line 6
         line 7
         line 8

        """)
  }

  @Test func changesCloseTogetherShareAHunkAndFarApartDoNot() {
    let old = (1...30).map { "\($0)\n" }.joined()
    var lines = (1...30).map { "\($0)\n" }
    lines[2] = "three\n"
    lines[8] = "nine\n"  // six same lines between: one hunk
    lines[25] = "twenty-six\n"  // far: a hunk of its own
    let text = diff(old, lines.joined())
    #expect(text.components(separatedBy: "\n@@ ").count - 1 == 2, "\(text)")
    #expect(text.contains("@@ -1,12 +1,12 @@\n"), "\(text)")
    #expect(text.contains("@@ -23,7 +23,7 @@\n"), "\(text)")
  }

  /// A hunk's line numbers are where the lines stand, for every hunk of many (the lines before
  /// each counted once, from the hunk before it): one line in ten changed, a hunk each.
  @Test func everyHunkOfManyNamesItsLines() {
    let old = (1...1000).map { "\($0)\n" }
    let new = old.enumerated().map { $0.offset % 10 == 9 ? "changed \($0.offset + 1)\n" : $0.element }
    let text = diff(old.joined(), new.joined())
    let headers = text.split(separator: "\n").filter { $0.hasPrefix("@@ ") }.map(String.init)
    // Three lines of context on each side; the last change is the last line, with none after it.
    let expected = (1...100).map { hunk -> String in
      let first = 10 * hunk - 3
      let count = hunk == 100 ? 4 : 7
      return "@@ -\(first),\(count) +\(first),\(count) @@"
    }
    #expect(headers == expected)
  }

  @Test func insertionsDeletionsAndTheEdgesOfTheText() {
    #expect(diff("", "a\n") == "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n")
    #expect(diff("a\n", "") == "--- a\n+++ b\n@@ -1 +0,0 @@\n-a\n")
    #expect(diff("a\nb\n", "a\nx\nb\n") == "--- a\n+++ b\n@@ -1,2 +1,3 @@\n a\n+x\n b\n")
    #expect(
      diff("a\nb", "a\nb\n")
        == "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n")
  }

  /// The script read back turns the old lines into the new ones, and is shortest where the
  /// search fits its budget: checked on seeded random texts against a dynamic-programming LCS.
  @Test func theScriptIsShortestAndCorrect() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<300 {
      let old = (0..<next(12)).map { _ in Int32(next(4)) }
      let new = (0..<next(12)).map { _ in Int32(next(4)) }
      let script = LineDiff.editScript(old, new)
      var oldIndex = 0
      var rebuilt: [Int32] = []
      for step in script {
        switch step {
        case .same:
          rebuilt.append(old[oldIndex])
          oldIndex += 1
        case .delete: oldIndex += 1
        case .insert: rebuilt.append(new[rebuilt.count])
        }
      }
      #expect(oldIndex == old.count && rebuilt == new, "\(old) -> \(new): \(script)")
      let kept = script.filter { $0 == .same }.count
      #expect(kept == longestCommon(old, new), "\(old) -> \(new)")
    }
  }

  /// Texts that differ on every line stay linear: the search gives up within its budget and
  /// writes the middle as one change.
  @Test func everyLineChangedIsOneHunkInLinearTime() {
    let count = 200_000
    let old = (0..<count).map { "    <Item order=\"\($0)\"/>\n" }.joined()
    let new = (0..<count).map { "  <Item order=\"\($0)\"/>\n" }.joined()
    let text = diff(old, new)
    #expect(text.hasPrefix("--- a\n+++ b\n@@ -1,\(count) +1,\(count) @@\n"))
    #expect(text.components(separatedBy: "\n@@ ").count - 1 == 1)
  }

  private func longestCommon(_ a: [Int32], _ b: [Int32]) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    return table[0][0]
  }
}
