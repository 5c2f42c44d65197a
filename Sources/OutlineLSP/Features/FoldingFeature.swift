import OutlineCore
import OutlineJSON
import OutlineXML

/// `textDocument/foldingRange`: every object spanning more than one line (its
/// end tag stays visible), with the title and child count as `collapsedText`,
/// and every multi-line comment. No cap.
struct FoldingFeature {
  let mapper: PositionMapper

  func ranges(_ snapshot: Snapshot, _ params: JSONValue) throws -> JSONValue {
    let analysis = snapshot.analysis
    guard let tree = analysis.tree else { return [] }
    let source = snapshot.source
    var json = JSONBytes()
    json.raw("[")
    var first = true
    func append(_ start: Int, _ end: Int, comment: Bool, collapsed: String?) {
      if !first { json.raw(",") }
      first = false
      json.raw("{\"startLine\":")
      json.int(start)
      json.raw(",\"endLine\":")
      json.int(end)
      if comment { json.raw(",\"kind\":\"comment\"") }
      if let collapsed {
        json.raw(",\"collapsedText\":")
        json.string(collapsed)
      }
      json.raw("}")
    }
    for (index, item) in tree.items.enumerated() {
      let startLine = source.lines.line(containing: item.startTag.start)
      let endLine = source.lines.line(containing: item.fullRange.end)
      guard endLine > startLine else { continue }
      // Keep the end tag's line visible when it has one of its own.
      let last = item.endTag != nil ? max(startLine, endLine - 1) : endLine
      let children = Int(item.subtreeEnd) - index - 1 > 0 ? tree.children(of: index).count : 0
      let title = item.titleRange.map { XMLEscaping.decodeAttribute(Array(source.bytes[$0.start..<$0.end])) }
      let name = source.string(in: item.nameRange)
      let label =
        (title ?? name) + (children > 0 ? " (\(children) \(children == 1 ? "child" : "children"))" : "")
      append(startLine, last, comment: false, collapsed: label)
    }
    for comment in tree.comments {
      let startLine = source.lines.line(containing: comment.start)
      let endLine = source.lines.line(containing: comment.end)
      if endLine > startLine { append(startLine, endLine, comment: true, collapsed: nil) }
    }
    json.raw("]")
    return json.value
  }
}
