import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

@testable import OutlineCommands

/// `HTMLPage`: where each diagnostic is shown, and what is escaped.
@Suite struct HTMLPageTests {
  static func owners(_ text: String) -> [(String, Int)] {
    let check = OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(), buildTree: true)
    let sorted = Diagnostic.sortedByPosition(check.diagnostics)
    let owners = HTMLPage.owningItems(sorted, items: check.tree!.items)
    return zip(sorted, owners).map { ("\($0.code)", $1) }
  }

  @Test func diagnosticsGoToTheInnermostItemHoldingThem() {
    let text = """
      <outline version="1" color="red">
        <Item title="a" order="0">
          <Item title="b" order="0"/>
          <Item title="c" order="0" size="9">
            <Item title="d" order="x"/>
          </Item>
        </Item>
        <Item title="e" order="1"/>
      </outline>
      """
    let found = Self.owners(text)
    // Items: 0 root, 1 a, 2 b, 3 c, 4 d, 5 e.
    #expect(found.contains { $0 == ("OL203", 0) })  // color on the root
    #expect(found.contains { $0 == ("OL203", 3) })  // size on c
    #expect(found.contains { $0 == ("OL300", 4) })  // order="x" on d
    #expect(found.contains { $0.0 == "OL401" && ($0.1 == 2 || $0.1 == 3) })
    #expect(found.allSatisfy { $0.1 >= 0 })
  }

  @Test func afterTheRootIsTheRootsAndOutsideEverythingIsNobodys() {
    let trailing = Self.owners("<outline version=\"1\"><Item order=\"0\"/></outline>\n<junk/>")
    #expect(trailing.map(\.1) == [0])
    let before = HTMLPage.owningItems(
      [Diagnostic(.notWellFormed, "m", at: TextRange(start: 0, end: 1))],
      items: [])
    #expect(before == [-1])
  }

  @Test func escapingCoversMarkupQuotesAndKeepsText() {
    #expect(HTMLPage.escape("<a href='x'>\"&é</a>") == "&lt;a href=&#39;x&#39;&gt;&quot;&amp;é&lt;/a&gt;")
  }
}
