import OutlineCore
import OutlineJSON
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
    source.bytes.withUnsafeBufferPointer { bytes in
      var labels = ItemLabels(bytes: bytes)
      for (index, item) in tree.items.enumerated() {
        let startLine = source.lines.line(containing: item.startTag.start)
        let endLine = source.lines.line(containing: item.fullRange.end)
        guard endLine > startLine else { continue }
        // Keep the end tag's line visible when it has one of its own.
        open(startLine, item.endTag != nil ? max(startLine, endLine - 1) : endLine)
        let children = tree.childCount(of: index)
        json.raw(",\"collapsedText\":")
        labels.appendQuoted(
          item,
          suffix: children > 0 ? Array(" (\(children) \(children == 1 ? "child" : "children"))".utf8) : [],
          to: &json)
        json.raw("}")
      }
    }
    for comment in tree.comments {
      let startLine = source.lines.line(containing: comment.start)
      let endLine = source.lines.line(containing: comment.end)
      guard endLine > startLine else { continue }
      open(startLine, endLine)
      // LSP.FoldingRangeKind.comment
      json.raw(",\"kind\":\"comment\"}")
    }
    json.raw("]")
    return json.value
  }
}
