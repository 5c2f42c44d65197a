import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation
import Testing

@testable import OutlineMerge

/// What a merge must never lose: comments inside an item both sides edited, each side's order of
/// a list, and a renumbering of a list the other side left alone.
@Suite struct MergeKeepsTests {
  static let parent = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item order="0" title="p">
        <Item order="0" title="a"/>
        <!-- after the last child -->
      </Item>
    </outline>

    """

  @Test func aCommentAfterTheLastChildStaysWhenBothSidesChangedTheItem() {
    let ours = Self.parent.replacingOccurrences(of: "title=\"p\"", with: "title=\"p\" done=\"true\"")
    let theirs = Self.parent.replacingOccurrences(of: "title=\"p\"", with: "title=\"q\"")
    let result = merged(Self.parent, ours, theirs)
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(result.conflicts.isEmpty)
    #expect(text.contains("<!-- after the last child -->"), "\(text)")
    #expect(text.contains("title=\"q\"") && text.contains("done=\"true\""))
  }

  @Test func aCommentInsideAnItemWhoseChildrenWentStays() {
    let ours = Self.parent.replacingOccurrences(of: "    <Item order=\"0\" title=\"a\"/>\n", with: "")
      .replacingOccurrences(of: "title=\"p\"", with: "title=\"p\" done=\"true\"")
    let theirs = Self.parent.replacingOccurrences(of: "title=\"p\"", with: "title=\"q\"")
    let text = mergedText(Self.parent, ours, theirs)
    #expect(text.contains("<!-- after the last child -->"), "\(text)")
    #expect(!text.contains("title=\"a\""))
  }

  static let list = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item order="0" title="a"/>
      <Item order="1" title="b"/>
      <Item order="2" title="c"/>
    </outline>

    """

  /// `list` with its items in the order of `titles`, numbered `0..n-1` (or from `first`).
  static func list(_ titles: [String], first: Int = 0) -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n"
    for (rank, title) in titles.enumerated() {
      text += "  <Item order=\"\(rank + first)\" title=\"\(title)\"/>\n"
    }
    return text + "</outline>\n"
  }

  @Test func twoDifferentReordersAreAnOrderConflict() {
    let result = merged(Self.list, Self.list(["c", "b", "a"]), Self.list(["b", "a", "c"]))
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(result.conflicts.map(\.record.kind) == [.order], "\(text)")
    let record = result.conflicts.first?.record
    #expect(record?["ours"] == "c, b, a")
    #expect(record?["theirs"] == "b, a, c")
    #expect(record?["base"] == "a, b, c")
    #expect(
      text.contains("title=\"c\"/>\n  <Item order=\"1\" title=\"b\"/>\n  <Item order=\"2\" title=\"a\""))
    #expect(lint(text).map(\.code) == [.mergeConflict])
  }

  @Test func theSameReorderOnBothSidesIsClean() {
    let reordered = Self.list(["c", "b", "a"])
    let result = merged(Self.list, reordered, reordered)
    #expect(result.conflicts.isEmpty)
    #expect(String(decoding: result.bytes, as: UTF8.self) == reordered)
  }

  @Test func aReorderOnOneSideIsTakenWhateverTheSide() {
    let edited = Self.list.replacingOccurrences(of: "title=\"a\"", with: "title=\"a\" done=\"true\"")
    let reordered = Self.list(["c", "a", "b"])
    for (ours, theirs) in [(edited, reordered), (reordered, edited)] {
      let result = merged(Self.list, ours, theirs)
      let text = String(decoding: result.bytes, as: UTF8.self)
      #expect(result.conflicts.isEmpty)
      let titles = text.split(separator: "\n").compactMap { line in
        line.range(of: "title=\"").map { line[$0.upperBound...].prefix(1) }
      }
      #expect(titles == ["c", "a", "b"], "\(text)")
      #expect(text.contains("done=\"true\""))
    }
  }

  @Test func aRenumberingOnOneSideIsKept() {
    let base = Self.list(["a", "b", "c"], first: 1)
    let ours = base.replacingOccurrences(of: "title=\"a\"", with: "title=\"a\" done=\"true\"")
    let theirs = Self.list(["a", "b", "c"])
    let text = mergedText(base, ours, theirs)
    for (rank, title) in ["a", "b", "c"].enumerated() {
      #expect(text.contains("order=\"\(rank)\" title=\"\(title)\""), "\(text)")
    }
    #expect(text.contains("done=\"true\""))
    #expect(!mergedText(base, theirs, ours).contains("order=\"3\""))
  }

  @Test func anItemWrittenAnewIsNumberedByTheModelsOrderAttribute() {
    let model = ModelLoader.load(
      SourceText(
        """
        <model>
          <entity name="Step">
            <attribute name="rank" attributeType="Integer 32"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Step" inverseName="steps" inverseEntity="Step"/>
            <relationship name="steps" optional="YES" toMany="YES" destinationEntity="Step" inverseName="parent" inverseEntity="Step"/>
            <userInfo><entry key="outline.order" value="rank"/></userInfo>
          </entity>
        </model>
        """))
    func steps(_ names: [String]) -> DocumentItems {
      var text = "<outline>\n"
      for (rank, name) in names.enumerated() { text += "  <Step rank=\"\(rank)\" name=\"\(name)\"/>\n" }
      let source = SourceText(text + "</outline>\n")
      let validator = OutlineValidator.validate(source, modelProvider: fixedModel(model))
      return DocumentItems(source: source, tree: validator.tree!, model: validator.model)
    }
    let result = ThreeWayMerge.merge(
      base: steps(["a"]), ours: steps(["a", "x"]), theirs: steps(["a", "y"]))
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(
      text.hasSuffix("  <Step rank=\"1\" name=\"x\"/>\n  <Step rank=\"2\" name=\"y\"/>\n</outline>\n"),
      "\(text)")
  }
}
