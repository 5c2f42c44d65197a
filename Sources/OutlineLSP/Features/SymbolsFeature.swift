import Foundation
import OutlineCore
import OutlineJSON
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// `textDocument/documentSymbol`: the item tree as hierarchical symbols, named
/// by the title attribute (cut to a label). Written as JSON text with an explicit stack, so a
/// 100,000-deep chain needs no recursion; symbols nest down to ``ReplyLimits/symbolLevels``,
/// deeper items are listed flat under the symbol at that level, so no client's decoder meets
/// a reply nested deeper than it reads. No cap on the number: a million items are
/// written on two cores, in 1 MiB pieces sent from where they are.
struct SymbolsFeature {
  let mapper: PositionMapper

  /// `[DocumentSymbol]`, written as JSON text.
  func symbols(_ snapshot: Snapshot) -> LSPAny {
    LSPAny(json(snapshot))
  }

  /// `[DocumentSymbol]`; with a `token`, streamed as partial results instead:
  /// the root's children go out in `$/progress` batches of whole subtrees, in
  /// document order, while the rest is still being written (the first batch is
  /// small, so its first byte leaves within milliseconds of the request), and
  /// the reply is `[]` (a cancelled request stops between batches). The batches' arrays, joined, are the unstreamed result.
  func symbols(_ snapshot: Snapshot, streamingOn token: LSPAny?, context: RequestContext) throws -> LSPAny {
    guard let token, let tree = snapshot.analysis.tree, tree.items.count > 1 else {
      return symbols(snapshot)
    }
    var start = 1
    var batch = 1 << 10
    while start < tree.items.count {
      try context.cancellation.check()
      // Whole subtrees of the root's children, at least `batch` items (or the rest).
      var end = start
      while end < tree.items.count && end - start < batch { end = Int(tree.items[end].subtreeEnd) }
      var json = JSONBytes()
      json.raw("[")
      json.append(write(start..<end, of: tree, in: snapshot.source))
      json.raw("]")
      context.notify("$/progress", ["token": token.value, "value": json.value])
      start = end
      batch = min(batch * 4, 1 << 16)
    }
    return LSPAny([])
  }

  private func json(_ snapshot: Snapshot) -> JSONValue {
    let analysis = snapshot.analysis
    guard let tree = analysis.tree, tree.items.count > 1 else { return [] }
    let source = snapshot.source
    // A large tree is written in two halves at once, split between two of the
    // root's children (each half's text closes what it opened).
    var split = tree.items.count
    if tree.items.count >= 1 << 16 {
      var child = 1
      while child < tree.items.count && child < tree.items.count / 2 {
        child = Int(tree.items[child].subtreeEnd)
      }
      if child < tree.items.count { split = child }
    }
    let ranges = split < tree.items.count ? [1..<split, split..<tree.items.count] : [1..<tree.items.count]
    let halves = [JSONBytes](concurrentlyMaking: ranges.count) { part in
      write(ranges[part], of: tree, in: source)
    }
    var json = JSONBytes()
    json.raw("[")
    for (part, half) in halves.enumerated() {
      if part > 0 { json.raw(",") }
      json.append(half)
    }
    json.raw("]")
    return json.value
  }

  /// The symbols of the items in `range` (whole subtrees of the root's children), comma-separated.
  /// Symbols nest down to ``ReplyLimits/symbolLevels``; the items below a symbol of that level
  /// are its children, flat, each detail saying its level and its parent.
  private func write(_ range: Range<Int>, of tree: ItemTree, in source: SourceText) -> JSONBytes {
    var json = JSONBytes()
    source.bytes.withByteView { bytes in
      var labels = ItemLabels(bytes: bytes)
      var detail: [UInt8] = []
      // Pre-order: open each item's object; close the ones whose subtree ended.
      var open: [Int] = []
      // The items below the deepest level whose subtrees are still open: their levels.
      var flattened: [Int] = []
      var needsComma = false
      // Items come in document order: each starts on the line of the one before, or later.
      var line = 0
      for index in range {
        while let last = open.last, index >= Int(tree.items[last].subtreeEnd) {
          json.raw("]}")
          open.removeLast()
          needsComma = true
        }
        while let last = flattened.last, index >= Int(tree.items[last].subtreeEnd) { flattened.removeLast() }
        if needsComma { json.raw(",") }
        json.checkpoint()
        let item = tree.items[index]
        json.raw("{\"name\":")
        labels.appendQuoted(item, to: &json)
        // The detail: the entity and the order; below the deepest level, where the item is.
        detail.removeAll(keepingCapacity: true)
        detail.append(contentsOf: labels.slice(item.nameRange))
        ReplyLimits.cut(&detail)
        if let order = item.order { detail += Array(" #\(order)".utf8) }
        let isFlat = open.count == ReplyLimits.symbolLevels
        if isFlat {
          let level = open.count + flattened.count + 1
          detail += Array(" · level \(level), in ".utf8)
          let start = detail.count
          labels.append(tree.items[Int(item.parent)], to: &detail)
          ReplyLimits.cut(&detail, from: start, limit: Excerpt.limit)
        }
        json.raw(",\"detail\":")
        json.string(bytes: detail)
        json.raw(",\"kind\":")
        json.int(LSP.SymbolKind.object.rawValue)
        json.raw(",\"range\":")
        line = mapper.append(item.fullRange, in: source, lineHint: line, to: &json)
        json.raw(",\"selectionRange\":")
        mapper.append(item.nameRange, in: source, lineHint: line, to: &json)
        // A leaf has no `children` (the key is optional): a million leaves are 14 MB less to send.
        if Int(item.subtreeEnd) == index + 1 {
          json.raw("}")
          needsComma = true
        } else if isFlat {
          json.raw("}")
          flattened.append(index)
          needsComma = true
        } else {
          json.raw(",\"children\":[")
          open.append(index)
          needsComma = false
        }
      }
      for _ in open { json.raw("]}") }
    }
    return json
  }
}
