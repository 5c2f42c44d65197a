import OutlineCore
import Testing

@testable import OutlineMerge

@Suite struct MatchingTests {
  /// The titles of old items paired with the titles of their new items ("-" for none).
  func pairs(_ old: String, _ new: String) -> [String] {
    let (oldItems, newItems) = (items(old), items(new))
    let matching = Matching(old: oldItems, new: newItems)
    return (1..<oldItems.count).map { item in
      let name = oldItems.title(of: item) ?? "?"
      guard let match = matching.new(for: item) else { return "\(name)>-" }
      return "\(name)>\(newItems.title(of: match) ?? "?")"
    }
  }

  @Test func matchesEveryItemOfAnUnchangedDocument() {
    let text = """
      <outline title="r">
        <Item order="0" title="a"><Item order="0" title="b"/><Item order="1" title="b"/></Item>
        <Item order="1" title="c"/>
      </outline>
      """
    let matching = Matching(old: items(text), new: items(text))
    #expect(matching.oldToNew == [0, 1, 2, 3, 4])
    #expect(matching.newToOld == [0, 1, 2, 3, 4])
  }

  @Test func matchesAnItemWhoseTitleChangedInPlace() {
    #expect(
      pairs(
        #"<outline><Item order="0" title="a"/><Item order="1" title="b"/><Item order="2" title="c"/></outline>"#,
        #"<outline><Item order="0" title="a"/><Item order="1" title="B!"/><Item order="2" title="c"/></outline>"#
      ) == ["a>a", "b>B!", "c>c"])
  }

  @Test func matchesAnItemWhoseChildChangedByItsOwnContent() {
    #expect(
      pairs(
        #"<outline><Item order="0" title="p"><Item order="0" title="x"/></Item></outline>"#,
        #"<outline><Item order="0" title="p"><Item order="0" title="y"/></Item></outline>"#
      ) == ["p>p", "x>y"])
  }

  @Test func matchesASubtreeMovedToAnotherParent() {
    let old = """
      <outline>
        <Item order="0" title="p"><Item order="0" title="m"><Item order="0" title="m1"/></Item></Item>
        <Item order="1" title="q"/>
      </outline>
      """
    let new = """
      <outline>
        <Item order="0" title="p"/>
        <Item order="1" title="q"><Item order="0" title="m"><Item order="0" title="m1"/></Item></Item>
      </outline>
      """
    #expect(pairs(old, new) == ["p>p", "m>m", "m1>m1", "q>q"])
  }

  @Test func matchesByIDBeforeAnythingElse() {
    let old =
      #"<outline><Item xml:id="a" order="0" title="x"/><Item xml:id="b" order="1" title="y"/></outline>"#
    let new =
      #"<outline><Item xml:id="b" order="0" title="x"/><Item xml:id="a" order="1" title="y"/></outline>"#
    #expect(pairs(old, new) == ["x>y", "y>x"])
  }

  @Test func leavesRemovedAndAddedItemsUnmatched() {
    let old = #"<outline><Item order="0" title="a"/><Item order="1" title="gone" done="true"/></outline>"#
    let new = #"<outline><Item order="0" title="a"/></outline>"#
    #expect(pairs(old, new) == ["a>a", "gone>-"])
    let matching = Matching(old: items(new), new: items(old))
    #expect(matching.newToOld == [0, 1, -1])
  }

  @Test func matchesTheSameItemsWhateverTheDocumentOrder() {
    let old = #"<outline><Item order="0" title="a"/><Item order="1" title="b"/></outline>"#
    let new = #"<outline><Item order="1" title="b"/><Item order="0" title="a"/></outline>"#
    #expect(pairs(old, new) == ["a>a", "b>b"])
  }

  @Test func matchesADeepChainWithoutRecursion() {
    let depth = 100_000
    var old = "<outline>"
    for level in 0..<depth { old += "<Item order=\"0\" title=\"t\(level)\">" }
    old += String(repeating: "</Item>", count: depth) + "</outline>"
    let new = old.replacingOccurrences(of: "title=\"t50000\"", with: "title=\"changed\"")
    let matching = Matching(old: items(old), new: items(new))
    #expect(matching.oldToNew.enumerated().allSatisfy { $0.element == Int32($0.offset) })
  }

  @Test func matchesAWideGroupWithScatteredChanges() {
    let width = 20_000
    var old = "<outline>"
    for index in 0..<width { old += "<Item order=\"\(index)\" title=\"c\(index % 7)\"/>" }
    old += "</outline>"
    var new = "<outline>"
    var kept: [Int] = []
    var order = 0
    for index in 0..<width where index % 1000 != 5 {
      new += "<Item order=\"\(order)\" title=\"c\(index % 7)\"/>"
      kept.append(index)
      order += 1
    }
    new += "</outline>"
    let matching = Matching(old: items(old), new: items(new))
    let unmatched = (1...width).filter { matching.oldToNew[$0] < 0 }
    #expect(unmatched.count == width / 1000)
    // Every kept item keeps its place: it matches the new item of its rank.
    for (rank, index) in kept.enumerated() where matching.oldToNew[index + 1] != Int32(rank + 1) {
      Issue.record("old item \(index) matched \(matching.oldToNew[index + 1]), not \(rank + 1)")
      break
    }
  }
}
