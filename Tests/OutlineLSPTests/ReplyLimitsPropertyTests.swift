import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// For generated documents, valid and broken, deep and with long titles and names, every reply
/// of the features that quote the document or follow its depth (symbols, folds, selection
/// ranges, hover, semantic tokens) nests within ``ReplyLimits/jsonDepth`` and holds no string
/// longer than ``ReplyLimits/textCharacters``; a symbol's name and a fold's text no longer than
/// a label.
@Suite struct ReplyLimitsPropertyTests {
  let session = Session()

  /// A document of at most a few hundred items: chains deeper than the symbols' levels, titles
  /// and element names long or short (escapes, accents, characters outside the BMP, line ends),
  /// comments; broken at random (cut short, a stray tag, a bad value) half of the time.
  static func document(_ random: inout SeededGenerator) -> String {
    let pieces = ["a", "é", "😀", "&amp;", "&#10;", " ", "中", "&lt;x&gt;", "\t"]
    func title() -> String {
      let length =
        Int.random(in: 0..<10, using: &random) == 0 ? Int.random(in: 200...3_000, using: &random) : 8
      return (0..<Int.random(in: 0...length, using: &random)).map { _ in pieces.randomElement(using: &random)!
      }
      .joined()
    }
    func name() -> String {
      Int.random(in: 0..<12, using: &random) == 0
        ? "Item" + String(repeating: "n", count: Int.random(in: 100...2_000, using: &random)) : "Item"
    }
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\" title=\"\(title())\">\n"
    var open: [(name: String, children: Int)] = [("outline", Int.random(in: 1...3, using: &random))]
    var orders = [0]
    var items = 0
    // Now and then a chain deeper than the symbols' levels and a selection chain's length.
    let deep = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 30...140, using: &random) : 6
    while let last = open.last {
      if last.children == 0 || items > 200 {
        open.removeLast()
        orders.removeLast()
        text += String(repeating: " ", count: open.count) + "</\(last.name)>\n"
        continue
      }
      open[open.count - 1].children -= 1
      let order = orders[orders.count - 1]
      orders[orders.count - 1] += 1
      items += 1
      let element = name()
      if Int.random(in: 0..<8, using: &random) == 0 { text += "<!-- \(title()) -->\n" }
      text +=
        String(repeating: " ", count: open.count) + "<\(element) order=\"\(order)\" title=\"\(title())\""
      let children =
        open.count < deep
        ? (open.count < 3 ? Int.random(in: 0...3, using: &random) : Int.random(in: 0...1, using: &random)) : 0
      if children == 0 {
        text += "/>\n"
      } else {
        text += ">\n"
        open.append((element, children))
        orders.append(0)
      }
    }
    guard Bool.random(using: &random) else { return text }
    var bytes = Array(text.utf8)
    switch Int.random(in: 0..<3, using: &random) {
    case 0: bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &random)...)
    case 1:
      bytes.insert(contentsOf: Array("</Stray>".utf8), at: Int.random(in: 0..<bytes.count, using: &random))
    default:
      bytes.insert(
        contentsOf: Array(" order=\"x\"".utf8), at: Int.random(in: 0..<bytes.count, using: &random))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func everyReplyIsWithinTheLimits() throws {
    let mapper = session.mapper
    try Property.check("replies within the limits", cases: 50) { random, _ in
      let text = Self.document(&random)
      let (snapshot, _) = session.open(text)
      var replies: [(String, [UInt8])] = [
        ("documentSymbol", SymbolsFeature(mapper: mapper).symbols(snapshot).value.serializedBytes()),
        ("foldingRange", FoldingFeature(mapper: mapper).ranges(snapshot).value.serializedBytes()),
        ("semanticTokens", SemanticTokensFeature(mapper: mapper).full(snapshot).value.serializedBytes()),
      ]
      let count = snapshot.source.bytes.count
      let offsets = (0..<6).map { _ in Int.random(in: 0...count, using: &random) }
      let positions = offsets.map { session.position($0, in: snapshot) }
      let params = LSP.SelectionRangeParams(textDocument: .init(uri: snapshot.uri), positions: positions)
      replies.append(
        (
          "selectionRange",
          try SelectionRangeFeature(mapper: mapper).ranges(snapshot, params).value.serializedBytes()
        ))
      for offset in offsets {
        let hover = try HoverFeature(mapper: mapper).hover(snapshot, session.at(offset, in: snapshot))
        replies.append(("hover at \(offset)", try JSONValueCoding.encode(hover).serializedBytes()))
      }
      for (method, bytes) in replies {
        // The result sits in the message object: one level more.
        let shape = JSONShape(bytes)
        if shape.depth > ReplyLimits.jsonDepth - 1 || shape.longestString > ReplyLimits.textCharacters {
          return "\(method): \(shape)"
        }
        if method == "documentSymbol" || method == "foldingRange" {
          // A name, a detail or a fold's text: a label, with its suffix (`#order` and where a flat
          // symbol stands, or the child count).
          let bound = ReplyLimits.labelCharacters + 3 + 2 * Excerpt.limit
          if shape.longestString > bound { return "\(method): a label of \(shape.longestString) characters" }
        }
      }
      return nil
    }
  }
}
