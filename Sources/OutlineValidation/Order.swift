import OutlineCore

extension OutlineValidator {
  /// The order invariant for one sibling group: orders exactly `0..n-1`,
  /// each once (OL401, OL402), else a hint when valid but not in document
  /// order (OL403). Missing and non-integer orders were reported as they
  /// came (OL400, OL300); duplicates and gaps among the rest still are.
  func checkOrders(_ entries: [OrderEntry], parent: @autoclosure () -> String) {
    let count = entries.count
    guard count > 0 else { return }
    // Children numbered 0, 1, 2... as they stand: nothing to report (the usual case).
    if entries.withUnsafeBufferPointer(OrderEntry.numberedInSequence) { return }
    var firstUse = [Int32](repeating: -1, count: count)
    var outOfRange: [Int] = []
    var broken = 0
    var clean = true
    for (position, entry) in entries.enumerated() {
      guard let value = entry.value else {
        broken += 1
        clean = false
        continue
      }
      if value < 0 || value >= Int64(count) {
        outOfRange.append(position)
        clean = false
        continue
      }
      let first = firstUse[Int(value)]
      if first >= 0 {
        clean = false
        report(
          .duplicateOrder,
          "Order \(value) is used twice among the \(count) children of \(parent())",
          at: entry.range,
          related: [RelatedLocation(range: entries[Int(first)].range, message: "order \(value) is also here")]
        )
      } else {
        firstUse[Int(value)] = Int32(position)
      }
    }
    if !outOfRange.isEmpty {
      let unused = firstUse.indices.lazy.filter { firstUse[$0] < 0 }.prefix(4).map(String.init)
      let gap =
        unused.isEmpty
        ? "" : " (unused: \(unused.prefix(3).joined(separator: ", "))\(unused.count > 3 ? ", ..." : ""))"
      for position in outOfRange {
        let value = entries[position].value!
        let why = value < 0 ? "is negative" : "is too large"
        report(
          .orderOutOfSequence,
          count == 1
            ? "Order \(value) \(why): the only child of \(parent()) is numbered 0"
            : "Order \(value) \(why): the \(count) children of \(parent()) are numbered 0...\(count - 1)\(gap)",
          at: entries[position].range)
      }
    }
    guard clean else {
      inOrder = false
      return
    }
    if let position = entries.indices.first(where: { entries[$0].value! != Int64($0) }) {
      report(
        .orderNotDocumentOrder,
        "The children of \(parent()) are not in document order: child \(position + 1) has order \(entries[position].value!)",
        at: entries[position].range)
      inOrder = false
    }
  }
}

extension OrderEntry {
  /// Whether `entries` are numbered 0, 1, 2... as they stand (nothing to report).
  @inline(__always)
  static func numberedInSequence(_ entries: UnsafeBufferPointer<OrderEntry>) -> Bool {
    var position: Int64 = 0
    for entry in entries {
      guard entry.value == position else { return false }
      position += 1
    }
    return true
  }
}

extension ChildEntry {
  /// Whether the numbered ones of `children` (one parent's, in one relationship) are numbered
  /// 0, 1, 2... as they stand (nothing to report).
  @inline(__always)
  static func numberedInSequence(_ children: Slice<UnsafeBufferPointer<ChildEntry>>) -> Bool {
    var position: Int64 = 0
    for child in children where child.isNumbered {
      guard child.order.value == position else { return false }
      position += 1
    }
    return true
  }
}
