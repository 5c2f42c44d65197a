import OutlineCore
import OutlineJSON
import OutlineSyntax
import OutlineXML

/// `textDocument/foldingRange`: every object spanning more than one line (its
/// end tag stays visible), with the title and child count as `collapsedText`,
/// and every multi-line comment. No cap.
struct FoldingFeature {
  let mapper: PositionMapper

  /// `[FoldingRange]`, written as JSON text.
  func ranges(_ snapshot: Snapshot) -> LSPAny {
    LSPAny(json(snapshot))
  }

  private func json(_ snapshot: Snapshot) -> JSONValue {
    let analysis = snapshot.analysis
    guard let tree = analysis.tree else { return [] }
    let source = snapshot.source
    var json = JSONBytes()
    json.raw("[")
    var first = true
    /// Opens `{"startLine":..,"endLine":..`; the caller closes it.
    func open(_ start: Int, _ end: Int) {
      if !first { json.raw(",") }
      json.checkpoint()
      first = false
      json.raw("{\"startLine\":")
      json.int(start)
      json.raw(",\"endLine\":")
      json.int(end)
    }
    let endLines = Self.endLines(of: tree, in: source.lines)
    source.bytes.withByteView { bytes in
      var labels = ItemLabels(bytes: bytes)
      var startLine = 0
      for (index, item) in tree.items.enumerated() {
        // Start tags come in document order: each line is found from the one before.
        startLine = source.lines.line(containing: item.startTag.start, notBefore: startLine)
        let endLine = endLines[index]
        guard endLine > startLine else { continue }
        // Keep the end tag's line visible when it has one of its own.
        open(startLine, item.endTag != nil ? max(startLine, endLine - 1) : endLine)
        // Free objects under the root are not its children.
        let children = tree.containedChildCount(of: index)
        json.raw(",\"collapsedText\":")
        labels.appendQuoted(
          item,
          suffix: children > 0 ? Array(" (\(children) \(children == 1 ? "child" : "children"))".utf8) : [],
          to: &json)
        json.raw("}")
      }
    }
    var commentLine = 0
    for comment in tree.comments {
      let startLine = source.lines.line(containing: comment.start, notBefore: commentLine)
      let endLine = source.lines.line(containing: comment.end, notBefore: startLine)
      commentLine = startLine
      guard endLine > startLine else { continue }
      open(startLine, endLine)
      // LSP.FoldingRangeKind.comment
      json.raw(",\"kind\":\"comment\"}")
    }
    json.raw("]")
    return json.value
  }

  /// The line of each item's end, found in the order the ends come in the document (an item's
  /// after its descendants', before its next sibling's start), each from the one before: a
  /// search of the whole line index for each item made the folds of a million siblings grow as
  /// n log n (its binary search most of their time). An end out of that order (an element cut
  /// short) is searched from the start, as before.
  private static func endLines(of tree: ItemTree, in lines: LineIndex) -> [Int] {
    var endLines = [Int](repeating: 0, count: tree.items.count)
    var open: [Int] = []
    var line = 0
    func close(_ index: Int) {
      line = lines.line(containing: tree.items[index].fullRange.end, notBefore: line)
      endLines[index] = line
    }
    for index in tree.items.indices {
      // Items whose subtrees ended before this one: innermost first, their ends in order.
      while let last = open.last, Int(tree.items[last].subtreeEnd) <= index {
        close(open.removeLast())
      }
      open.append(index)
    }
    while let last = open.popLast() { close(last) }
    return endLines
  }
}
