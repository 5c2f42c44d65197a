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
    var out = "["
    // Pre-order: open each item's object; close the ones whose subtree ended.
    var open: [Int] = []
    var needsComma = false
    for index in 1..<tree.items.count {
      while let last = open.last, index >= Int(tree.items[last].subtreeEnd) {
        out += "]}"
        open.removeLast()
        needsComma = true
      }
      if needsComma { out += "," }
      let item = tree.items[index]
      let name = source.string(in: item.nameRange)
      let title = item.titleRange.map { XMLEscaping.decodeAttribute(Array(source.bytes[$0.start..<$0.end])) }
      let display = title.flatMap { $0.isEmpty ? nil : $0 } ?? name
      var detail = name
      if let order = item.order { detail += " #\(order)" }
      out += "{\"name\":" + JSONText.quote(display) + ",\"detail\":" + JSONText.quote(detail)
      out += ",\"kind\":19,\"range\":" + mapper.range(item.fullRange, in: source).serialized()
      out += ",\"selectionRange\":" + mapper.range(item.nameRange, in: source).serialized()
      out += ",\"children\":["
      open.append(index)
      needsComma = false
    }
    out += String(repeating: "]}", count: open.count)
    return .raw(out + "]")
  }
}
