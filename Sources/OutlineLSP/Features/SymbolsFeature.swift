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
    // Pre-order: open each item's object; close the ones whose subtree ended.
    var open: [Int] = []
    var needsComma = false
    for index in 1..<tree.items.count {
      while let last = open.last, index >= Int(tree.items[last].subtreeEnd) {
        json.raw("]}")
        open.removeLast()
        needsComma = true
      }
      if needsComma { json.raw(",") }
      let item = tree.items[index]
      let name = source.string(in: item.nameRange)
      let title = item.titleRange.map { XMLEscaping.decodeAttribute(Array(source.bytes[$0.start..<$0.end])) }
      json.raw("{\"name\":")
      json.string(title.flatMap { $0.isEmpty ? nil : $0 } ?? name)
      json.raw(",\"detail\":")
      json.string(item.order.map { "\(name) #\($0)" } ?? name)
      json.raw(",\"kind\":19,\"range\":")
      mapper.append(item.fullRange, in: source, to: &json)
      json.raw(",\"selectionRange\":")
      mapper.append(item.nameRange, in: source, to: &json)
      json.raw(",\"children\":[")
      open.append(index)
      needsComma = false
    }
    for _ in open { json.raw("]}") }
    json.raw("]")
    return json.value
  }
}
