import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// Every reply is bounded whatever the document holds (``ReplyLimits``): labels are cut,
/// and no reply nests deeper than a client's JSON decoder reads.
@Suite struct ReplyLimitsTests {
  let session = Session()

  /// A chain of `depth` items, each titled by its level minus one.
  static func chain(_ depth: Int) -> String {
    "<outline>\n" + (0..<depth).map { "<Item order=\"0\" title=\"\($0)\">\n" }.joined()
      + String(repeating: "</Item>\n", count: depth) + "</outline>\n"
  }

  /// The JSON text of a result, and its shape: it must fit a reply (the message object and
  /// its `result` are one more level) decoded at ``ReplyLimits/jsonDepth``.
  static func shape(_ bytes: [UInt8]) -> JSONShape {
    let shape = JSONShape(bytes)
    #expect(shape.depth <= ReplyLimits.jsonDepth - 1, "\(shape)")
    #expect(shape.longestString <= ReplyLimits.textCharacters, "\(shape)")
    return shape
  }

  @Test func deepSymbolsNestToTheLimitAndListTheRestFlat() throws {
    let depth = 2_000
    let (snapshot, _) = session.open(Self.chain(depth))
    let bytes = SymbolsFeature(mapper: session.mapper).symbols(snapshot).value.serializedBytes()
    let shape = Self.shape(bytes)
    // Level n is at 2n, its positions at 2n + 2 (one more in the message); the flat ones one
    // level below the last.
    #expect(shape.depth == 2 * (ReplyLimits.symbolLevels + 1) + 2)
    // Every item is there, and decodes within the limit.
    let symbols = try JSONValue.parse(bytes, maximumDepth: ReplyLimits.jsonDepth - 1)
    var node = symbols.arrayValue?.first
    for _ in 1..<ReplyLimits.symbolLevels { node = node?["children"]?.arrayValue?.first }
    #expect(node?["name"] == .string("\(ReplyLimits.symbolLevels - 1)"))
    #expect(node?["detail"] == "Item #0")
    let flat = node?["children"]?.arrayValue ?? []
    #expect(flat.count == depth - ReplyLimits.symbolLevels)
    #expect(flat.allSatisfy { $0["children"] == nil })
    #expect(flat.first?["name"] == .string("\(ReplyLimits.symbolLevels)"))
    #expect(
      flat.first?["detail"]
        == .string("Item #0 · level \(ReplyLimits.symbolLevels + 1), in \(ReplyLimits.symbolLevels - 1)"))
    #expect(flat.last?["detail"] == .string("Item #0 · level \(depth), in \(depth - 2)"))
    #expect(flat.last?["range"]?["start"]?["line"] == .int(depth))
  }

  @Test func longTitlesAndNamesAreCutInSymbolsAndFolds() throws {
    let title = String(repeating: "é", count: 100_000)
    let name = "Item" + String(repeating: "x", count: 5_000)
    let text =
      "<outline>\n<Item title=\"\(title)\" order=\"0\">\n  <\(name) order=\"0\"/>\n</Item>\n</outline>\n"
    let (snapshot, _) = session.open(text)
    let symbols = SymbolsFeature(mapper: session.mapper).symbols(snapshot).value.serializedBytes()
    _ = Self.shape(symbols)
    let parsed = try JSONValue.parse(symbols)
    let cut = String(repeating: "é", count: ReplyLimits.labelCharacters) + "..."
    #expect(parsed.arrayValue?.first?["name"]?.stringValue == cut)
    let child = parsed.arrayValue?.first?["children"]?.arrayValue?.first
    #expect(child?["name"]?.stringValue == String(name.prefix(ReplyLimits.labelCharacters)) + "...")
    // An element the model does not know has no order.
    #expect(child?["detail"]?.stringValue == String(name.prefix(ReplyLimits.labelCharacters)) + "...")
    let folds = FoldingFeature(mapper: session.mapper).ranges(snapshot).value.serializedBytes()
    _ = Self.shape(folds)
    // The root's fold, then the item's.
    let collapsed = try JSONValue.parse(folds).arrayValue?.dropFirst().first?["collapsedText"]?.stringValue
    #expect(collapsed?.hasPrefix(cut) == true)
    #expect(collapsed?.count ?? 0 <= ReplyLimits.labelCharacters + 20)
  }

  @Test func selectionRangesOfADeepChainKeepTheInnermostAndTheWholeText() throws {
    let depth = 2_000
    let text =
      "<outline>" + String(repeating: "<Item order=\"0\">", count: depth)
      + String(repeating: "</Item>", count: depth) + "</outline>"
    let (snapshot, _) = session.open(text)
    let middle = 9 + 16 * depth + 3  // in the first end tag's name
    let params = LSP.SelectionRangeParams(
      textDocument: .init(uri: snapshot.uri), positions: [session.position(middle, in: snapshot)])
    let bytes = try SelectionRangeFeature(mapper: session.mapper).ranges(snapshot, params).value
      .serializedBytes()
    _ = Self.shape(bytes)
    let result = try Session.decode([LSP.SelectionRange].self, LSPAny(JSONValue.parse(bytes)))
    var chain: [LSP.Range] = []
    var node = result.first
    while let current = node {
      chain.append(current.range)
      node = current.parent
    }
    #expect(chain.count == ReplyLimits.selectionRanges)
    let texts = chain.map { snapshot.source.string(in: session.mapper.textRange($0, in: snapshot.source)!) }
    #expect(texts.prefix(3) == ["Item", "</Item>", "<Item order=\"0\"></Item>"])
    #expect(texts.last == text)
    // Each range holds the one before it.
    let ranges = chain.map { session.mapper.textRange($0, in: snapshot.source)! }
    #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $1.contains($0) && $1 != $0 })
  }

  @Test func hoverOnADeepItemNamesTheEndsOfItsPath() throws {
    let depth = 2_000
    let text = Self.chain(depth)
    let (snapshot, _) = session.open(text)
    // In the deepest item's element name (the text is ASCII: UTF-16 offsets are UTF-8 offsets).
    let deepest = try #require(text.range(of: "title=\"\(depth - 1)\"")).lowerBound.utf16Offset(in: text) - 15
    let hover = try #require(
      try HoverFeature(mapper: session.mapper).hover(snapshot, session.at(deepest, in: snapshot)))
    _ = Self.shape(try JSONValueCoding.encode(hover).serializedBytes())
    let path = try #require(
      hover.contents.value.components(separatedBy: "\n\n").first { $0.hasPrefix("in: ") })
    let ancestors = (0..<(depth - 1)).map(String.init)
    #expect(path == "in: " + (ancestors.prefix(2) + ["…"] + ancestors.suffix(6)).joined(separator: " › "))
  }

  @Test func completionLabelsAreCutButInsertTheWholeText() {
    let id = String(repeating: "a", count: 10_000)
    let item = CompletionFeature.bounded(
      LSP.CompletionItem(
        label: id, kind: .reference, detail: id, insertText: nil, insertTextFormat: .plainText))
    #expect(item.label == String(id.prefix(ReplyLimits.labelCharacters)) + "...")
    #expect(item.detail == item.label)
    #expect(item.insertText == id)
    #expect(item.filterText == id)
    let short = LSP.CompletionItem(label: "a", kind: .reference, detail: "Item", insertText: "a")
    #expect(CompletionFeature.bounded(short) == short)
  }

  @Test func cuttingKeepsWholeCharacters() {
    var bytes = Array("a😀é".utf8) + Array(repeating: UInt8(ascii: "z"), count: 10)
    ReplyLimits.cut(&bytes, limit: 2)
    #expect(String(decoding: bytes, as: UTF8.self) == "a😀...")
    var short = Array("😀😀".utf8)
    ReplyLimits.cut(&short, limit: 2)
    #expect(short == Array("😀😀".utf8))
    var kept = Array("label: ".utf8) + Array("éééé".utf8)
    ReplyLimits.cut(&kept, from: 7, limit: 3)
    #expect(String(decoding: kept, as: UTF8.self) == "label: ééé...")
    let long = String(repeating: "line\n", count: 5_000)
    let text = ReplyLimits.text(long)
    #expect(text.unicodeScalars.count <= ReplyLimits.textCharacters)
    #expect(text.hasSuffix("line\n..."))
    #expect(ReplyLimits.text("short") == "short")
  }
}
