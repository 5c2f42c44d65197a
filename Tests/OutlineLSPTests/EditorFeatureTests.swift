import Foundation
import OutlineCore
import OutlineEditing
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// The editing features (selection and linked editing ranges, highlights,
/// inlay hints, code lenses, semantic tokens, range and on-type formatting,
/// closing-tag and value completion), called in process as the method table calls them.
@Suite struct EditorFeatureTests {
  let session = Session()

  func texts(_ ranges: [LSP.Range], in snapshot: Snapshot) -> [String] {
    ranges.map { snapshot.source.string(in: session.mapper.textRange($0, in: snapshot.source)!) }
  }

  @Test func selectionRangesNestFromTheValueOut() throws {
    let (snapshot, at) = session.open(weekend)
    let params = LSP.SelectionRangeParams(
      textDocument: .init(uri: snapshot.uri), positions: [session.position(at[4] + 0, in: snapshot)])
    let result = try Session.decode(
      [LSP.SelectionRange].self, SelectionRangeFeature(mapper: session.mapper).ranges(snapshot, params))
    var chain: [LSP.Range] = []
    var node = result.first
    while let current = node {
      chain.append(current.range)
      node = current.parent
    }
    let text = texts(chain, in: snapshot)
    #expect(text.prefix(3) == ["w", "\"w\"", "xml:id=\"w\""])
    #expect(text[3].hasPrefix("<Item title=\"Work\""))
    #expect(text.last == snapshot.source.string)
  }

  @Test func selectionRangesOfADeepChainAreWrittenWithoutRecursion() throws {
    let depth = 20_000
    let text =
      "<outline>" + String(repeating: "<Item order=\"0\">", count: depth)
      + String(repeating: "</Item>", count: depth) + "</outline>"
    let (snapshot, _) = session.open(text)
    let middle = 9 + 16 * depth + 3  // in the first end tag's name
    let params = LSP.SelectionRangeParams(
      textDocument: .init(uri: snapshot.uri), positions: [session.position(middle, in: snapshot)])
    let raw = try SelectionRangeFeature(mapper: session.mapper).ranges(snapshot, params).value
      .serializedBytes()
    let ranges = String(decoding: raw, as: UTF8.self).components(separatedBy: "\"range\"").count - 1
    // The end tag's name, the end tag, 20,000 elements, the root (the whole document): the
    // innermost of them and the whole text, as many as a reply nests (ReplyLimitsTests).
    #expect(ranges == ReplyLimits.selectionRanges)
  }

  @Test func linkedEditingAndHighlightsOnTagNames() throws {
    let (snapshot, at) = session.open(weekend)
    let linked = try #require(
      try LinkedEditingFeature(mapper: session.mapper).ranges(snapshot, session.at(at[0] + 2, in: snapshot)))
    #expect(texts(linked.ranges, in: snapshot) == ["Item", "Item"])
    #expect(linked.ranges[1].start.line == 7)
    #expect(linked.wordPattern == LinkedTagNames.wordPattern)
    #expect(
      try LinkedEditingFeature(mapper: session.mapper).ranges(snapshot, session.at(at[2] + 2, in: snapshot))
        == nil)
    let highlights = try DocumentHighlightFeature(mapper: session.mapper).highlights(
      snapshot, session.at(at[0] + 1, in: snapshot))
    #expect(highlights.map(\.kind) == [.text, .text])
    #expect(highlights.map(\.range.start.line) == [4, 7])
  }

  @Test func highlightsOfAnIdAreItsDefinitionAndUses() throws {
    let (snapshot, at) = session.open(
      """
      <outline>
        <Item title="a" order="0" xml:id="1️⃣a"/>
      </outline>
      """)
    let highlights = try DocumentHighlightFeature(mapper: session.mapper).highlights(
      snapshot, session.at(at[0], in: snapshot))
    #expect(highlights.map(\.kind) == [.write])
  }

  @Test func inlayHintsNumberTheItemsInTheRange() throws {
    let (snapshot, _) = session.open(weekend)
    let all = LSP.Range(start: .init(line: 0, character: 0), end: .init(line: 20, character: 0))
    let hints = try InlayHintsFeature(mapper: session.mapper).hints(
      snapshot, LSP.DocumentRangeParams(textDocument: .init(uri: snapshot.uri), range: all))
    #expect(hints.map(\.label) == ["1", "1.1", "1.2", "2"])
    #expect(hints.map(\.position.line) == [4, 5, 6, 8])
    #expect(hints.allSatisfy { $0.paddingRight == true })
    let line5 = LSP.Range(start: .init(line: 5, character: 0), end: .init(line: 6, character: 0))
    let some = try InlayHintsFeature(mapper: session.mapper).hints(
      snapshot, LSP.DocumentRangeParams(textDocument: .init(uri: snapshot.uri), range: line5))
    #expect(some.map(\.label) == ["1.1"])
  }

  @Test func codeLensesCountDescendantsAndResolveTheDeletion() throws {
    let (snapshot, _) = session.open(weekend)
    let feature = CodeLensFeature(mapper: session.mapper)
    let lenses = feature.lenses(snapshot)
    #expect(lenses.compactMap(\.command?.title) == ["4 descendants", "2 descendants"])
    let unresolved = lenses.filter { $0.command == nil }
    #expect(unresolved.count == 1 && unresolved[0].range.start.line == 4)
    let resolved = try feature.resolve(snapshot, unresolved[0])
    #expect(resolved.command?.title == "Delete removes 3 objects")
    // A newer version finds the item where the lens stands.
    let newer = session.store.open(
      uri: snapshot.uri, version: 2,
      text: snapshot.source.string.replacingOccurrences(of: "<outline", with: "<!-- new -->\n<outline"))
    var moved = unresolved[0]
    moved.range.start.line += 1
    moved.range.end.line += 1
    #expect(try feature.resolve(newer, moved).command?.title == "Delete removes 3 objects")
    #expect(throws: (any Error).self) { try feature.resolve(newer, unresolved[0]) }
  }

  @Test func semanticTokensFullAndRange() throws {
    let (snapshot, _) = session.open(weekend)
    let feature = SemanticTokensFeature(mapper: session.mapper)
    let full = try Session.decode(LSP.SemanticTokens.self, feature.full(snapshot))
    #expect(full.data.count % 5 == 0 && full.data.count > 50)
    // The first token is the XML declaration, a macro.
    let types = SemanticTokensFeature.legend.tokenTypes
    #expect(types[Int(full.data[3])] == "macro")
    let line4 = LSP.Range(start: .init(line: 4, character: 0), end: .init(line: 5, character: 0))
    let ranged = try Session.decode(
      LSP.SemanticTokens.self,
      try feature.range(
        snapshot, LSP.DocumentRangeParams(textDocument: .init(uri: snapshot.uri), range: line4)))
    // `<Item title="Groceries 😀" order="0" xml:id="g">`: name, title, value, order, value, xml:id, id.
    #expect(ranged.data.count == 7 * 5)
    #expect(ranged.data[0] == 4 && types[Int(ranged.data[3])] == "type")
    #expect(types[Int(ranged.data[33])] == "variable")
    // The title's string is 14 UTF-16 units with its quotes (😀 counts two).
    #expect(ranged.data[12] == 14)
  }

  @Test func rangeAndOnTypeFormatting() throws {
    let (snapshot, _) = session.open(
      """
      <outline>
            <Item   title="a" order="0">
          <Item order="0"   title="b"/>
       </Item>
      </outline>

      """)
    let feature = RangeFormattingFeature(mapper: session.mapper)
    let line2 = LSP.Range(start: .init(line: 2, character: 0), end: .init(line: 2, character: 3))
    let edits = try feature.format(
      snapshot,
      LSP.DocumentRangeFormattingParams(textDocument: .init(uri: snapshot.uri), range: line2, options: nil))
    #expect(
      session.apply(edits, to: snapshot)
        == "<outline>\n      <Item   title=\"a\" order=\"0\">\n    <Item order=\"0\" title=\"b\"/>\n </Item>\n</outline>\n"
    )
    let typed = try feature.formatOnType(
      snapshot,
      LSP.DocumentOnTypeFormattingParams(
        textDocument: .init(uri: snapshot.uri), position: .init(line: 3, character: 8), ch: ">", options: nil)
    )
    #expect(session.apply(typed, to: snapshot).contains("\n  </Item>\n"))
  }

  @Test func completionClosesTheOpenElementAndOffersValues() throws {
    let (snapshot, at) = session.open(
      """
      <outline>
        <Item title="a" order="0">
          </1️⃣
      </outline>
      """)
    let list = try CompletionFeature(mapper: session.mapper).complete(
      snapshot, session.at(at[0], in: snapshot))
    #expect(list.items.map(\.label) == ["</Item>"])
    let edit = try #require(list.items.first?.textEdit)
    #expect(session.apply([edit], to: snapshot).contains("    </Item>\n</outline>"))
    // `/` elsewhere (a self-closing tag being typed) offers nothing.
    let (slash, slashAt) = session.open(
      "<outline>\n  <Item order=\"0\"/1️⃣\n</outline>", uri: "file:///tmp/outline-lsp-tests/slash.outline")
    #expect(
      try CompletionFeature(mapper: session.mapper).complete(slash, session.at(slashAt[0], in: slash)).items
        .isEmpty)
    let (root, rootAt) = session.open(
      #"<outline entity="1️⃣"/>"#, uri: "file:///tmp/outline-lsp-tests/root.outline")
    let entities = try CompletionFeature(mapper: session.mapper).complete(
      root, session.at(rootAt[0], in: root))
    #expect(entities.items.map(\.label) == ["Item"])
  }

  /// In a comment, a CDATA section or a processing instruction, `<`, `</` and a space are
  /// text: nothing is offered there, terminated or not; right after one, completion is back.
  @Test func completionOffersNothingInsideCommentsCDATAOrInstructions() throws {
    let (snapshot, at) = session.open(
      """
      <outline>
        <!-- <1️⃣ <Item 2️⃣ </3️⃣ -->4️⃣
        <Item title="a" order="0"><![CDATA[ <5️⃣ </6️⃣ ]]></Item>
        <?note <7️⃣ </8️⃣ ?>
        <!-- <Item </9️⃣
      """)
    for (index, offset) in at.enumerated() where index != 3 {
      let list = try CompletionFeature(mapper: session.mapper).complete(
        snapshot, session.at(offset, in: snapshot))
      #expect(list.items.map(\.label) == [], "marker \(index + 1)")
    }
    let after = try CompletionFeature(mapper: session.mapper).complete(
      snapshot, session.at(at[3], in: snapshot))
    #expect(after.items.map(\.label) == ["Item"])
  }
}
