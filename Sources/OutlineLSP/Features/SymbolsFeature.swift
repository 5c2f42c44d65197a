import OutlineCore
import OutlineJSON
import OutlineXML

/// `textDocument/documentSymbol`: the item tree as hierarchical symbols, named
/// by the title attribute. Written as JSON text with an explicit stack, so a
/// 100,000-deep chain needs no recursion. No cap.
struct SymbolsFeature {
  let mapper: PositionMapper

  func symbols(_ snapshot: Snapshot, _ params: JSONValue) throws -> JSONValue {
    let analysis = snapshot.analysis
    guard let tree = analysis.tree, !tree.items.isEmpty else { return [] }
    let source = snapshot.source
    var json = JSONBytes()
    json.raw("[")
    source.bytes.withUnsafeBufferPointer { bytes in
      var labels = ItemLabels(bytes: bytes)
      // Pre-order: open each item's object; close the ones whose subtree ended.
      var open: [Int] = []
      var needsComma = false
      // Items come in document order: each starts on the line of the one before, or later.
      var line = 0
      for index in 1..<tree.items.count {
        while let last = open.last, index >= Int(tree.items[last].subtreeEnd) {
          json.raw("]}")
          open.removeLast()
          needsComma = true
        }
        if needsComma { json.raw(",") }
        json.checkpoint()
        let item = tree.items[index]
        json.raw("{\"name\":")
        labels.appendQuoted(item, to: &json)
        // The detail: the entity (an XML name: nothing to escape) and the order.
        json.raw(",\"detail\":\"")
        json.plain(labels.slice(item.nameRange))
        if let order = item.order {
          json.raw(" #")
          json.int(Int(order))
        }
        json.raw("\",\"kind\":19,\"range\":")
        line = mapper.append(item.fullRange, in: source, lineHint: line, to: &json)
        json.raw(",\"selectionRange\":")
        mapper.append(item.nameRange, in: source, lineHint: line, to: &json)
        json.raw(",\"children\":[")
        open.append(index)
        needsComma = false
      }
      for _ in open { json.raw("]}") }
    }
    json.raw("]")
    return json.value
  }
}
