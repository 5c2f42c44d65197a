import Foundation

/// A generated document of nested sibling groups with random order values
/// (in sequence, shuffled, duplicate, missing, not a number, negative, too
/// large, past 64 bits, written `+1` or `01`), and what renumbering must make
/// of it: the guarantee of `--fix` and the editor's renumber actions
/// (Documentation/Guarantees.md), checked by ``check(fixed:)``.
///
/// Every object is an `Item` of the default model with a title of its own
/// (`t0`, `t1`, ... in document order), so the items of a fixed text are
/// found again by title; nothing else in the document is wrong, so the fixed
/// text must have no errors at all.
public struct SiblingOrderDocument: Sendable {
  /// One generated object.
  public struct Item: Sendable {
    /// Its title, `t` and its index in document order.
    public var title: String
    /// Its order value as written (nil: no order attribute).
    public var order: String?
    /// Its sibling group (an index into ``groups``).
    public var group: Int
  }

  /// The document's text.
  public var text: String
  /// The objects, in document order.
  public var items: [Item]
  /// Each sibling group's objects (indexes into ``items``), in document order.
  public var groups: [[Int]]

  /// A document from `random`: a root group of 1...6 objects, nested up to three levels.
  /// Issue 32's list: written backwards, with one duplicate. Only `fifth` must change (to 4).
  public static let reversedWithADuplicate = """
    <outline version="1">
      <Item title="third" order="2"/>
      <Item title="second" order="1"/>
      <Item title="first" order="0"/>
      <Item title="fourth" order="3"/>
      <Item title="fifth" order="3"/>
    </outline>

    """

  public static func generate(_ random: inout SeededGenerator) -> SiblingOrderDocument {
    var document = SiblingOrderDocument(text: "", items: [], groups: [])
    let lineEnd = Int.random(in: 0..<5, using: &random) == 0 ? "\r\n" : "\n"
    var text = "<outline version=\"1\">" + lineEnd
    // A pending group: its depth, its size, how many were written; the open element's name per depth.
    struct Open {
      var group: Int
      var depth: Int
      var orders: [String?]
      var written = 0
    }
    func orders(count: Int) -> [String?] {
      // A fifth of the groups are a permutation of 0..n-1 (valid, perhaps not in document order).
      if Int.random(in: 0..<5, using: &random) == 0 {
        return (0..<count).shuffled(using: &random).map { String($0) }
      }
      return (0..<count).map { position in orderValue(position: position, count: count, &random) }
    }
    func open(depth: Int, count: Int) -> Open {
      document.groups.append([])
      return Open(group: document.groups.count - 1, depth: depth, orders: orders(count: count))
    }
    var stack = [open(depth: 1, count: Int.random(in: 1...6, using: &random))]
    while let top = stack.last {
      let indent = String(repeating: "  ", count: top.depth)
      if top.written == top.orders.count {
        stack.removeLast()
        if !stack.isEmpty { text += String(repeating: "  ", count: top.depth - 1) + "</Item>" + lineEnd }
        continue
      }
      let order = top.orders[top.written]
      stack[stack.count - 1].written += 1
      let index = document.items.count
      let title = "t\(index)"
      document.items.append(Item(title: title, order: order, group: top.group))
      document.groups[top.group].append(index)
      if Int.random(in: 0..<8, using: &random) == 0 { text += indent + "<!-- before \(title) -->" + lineEnd }
      let quote = Int.random(in: 0..<6, using: &random) == 0 ? "'" : "\""
      let titleAttribute = " title=\"\(title)\""
      let orderAttribute = order.map { " order=\(quote)\($0)\(quote)" } ?? ""
      let attributes =
        Bool.random(using: &random) ? titleAttribute + orderAttribute : orderAttribute + titleAttribute
      let children =
        top.depth < 4 && Int.random(in: 0..<3, using: &random) == 0
        ? Int.random(in: 1...5, using: &random) : 0
      if children == 0 {
        text += indent + "<Item" + attributes + "/>" + lineEnd
      } else {
        text += indent + "<Item" + attributes + ">" + lineEnd
        stack.append(open(depth: top.depth + 1, count: children))
      }
    }
    document.text = text + "</outline>" + lineEnd
    return document
  }

  /// An order value for the child at `position` of `count` siblings.
  static func orderValue(position: Int, count: Int, _ random: inout SeededGenerator) -> String? {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<35: return String(position)
    case 35..<55: return String(Int.random(in: 0..<count, using: &random))
    case 55..<65: return nil
    case 65..<73:
      return ["abc", "1.5", "", " 2", "x", "1e2", "--1", "٣", "0x1", "2 "].randomElement(using: &random)!
    case 73..<81:
      return ["-1", "-0", String(-Int.random(in: 1...50, using: &random)), "-9223372036854775808"]
        .randomElement(using: &random)!
    case 81..<92:
      return [
        String(count + Int.random(in: 0...1000, using: &random)), "1000000000000", "9223372036854775807",
        "99999999999999999999",
      ].randomElement(using: &random)!
    default:
      let value = Int.random(in: 0..<count, using: &random)
      return Bool.random(using: &random) ? "+\(value)" : "0\(value)"
    }
  }

  /// The integer an order value means as the linter reads it (an optional
  /// sign, then decimal digits, within 64 bits), else nil.
  public static func integer(_ text: String) -> Int64? {
    var digits = Substring(text)
    var negative = false
    if let first = digits.first, first == "+" || first == "-" {
      negative = first == "-"
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    var magnitude: UInt64 = 0
    for byte in digits.utf8 {
      let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - 0x30))
      if overflow1 || overflow2 { return nil }
      magnitude = sum
    }
    if negative {
      return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
    }
    return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
  }

  /// Each item's order after renumbering: its group sorted by (the value it
  /// holds, else its position among its siblings; then its position), numbered 0..n-1.
  public var expectedOrders: [Int64] {
    var result = [Int64](repeating: -1, count: items.count)
    for group in groups {
      let sorted = group.enumerated().sorted { a, b in
        let keyA = Self.integer(items[a.element].order ?? "") ?? Int64(a.offset)
        let keyB = Self.integer(items[b.element].order ?? "") ?? Int64(b.offset)
        return (keyA, a.offset) < (keyB, b.offset)
      }
      for (rank, entry) in sorted.enumerated() { result[entry.element] = Int64(rank) }
    }
    return result
  }

  /// Whether every group is numbered 0..n-1 already (nothing to fix).
  public var isValid: Bool {
    groups.allSatisfy { group in
      Set(group.compactMap { items[$0].order.flatMap(Self.integer) }) == Set((0..<Int64(group.count)))
    }
  }

  /// The title and written order value (nil when none) of each `<Item` start tag of `text`, in document order.
  public static func orders(in text: String) -> [(title: String, order: String?)] {
    var result: [(title: String, order: String?)] = []
    var rest = Substring(text)
    while let start = rest.range(of: "<Item") {
      rest = rest[start.upperBound...]
      guard let end = rest.firstIndex(of: ">") else { break }
      let tag = rest[..<end]
      rest = rest[end...]
      var title = ""
      var order: String?
      var scan = tag
      while let equals = scan.firstIndex(of: "=") {
        let name = scan[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
        let afterEquals = scan.index(after: equals)
        guard afterEquals < scan.endIndex else { break }
        let quote = scan[afterEquals]
        let valueStart = scan.index(after: afterEquals)
        guard let valueEnd = scan[valueStart...].firstIndex(of: quote) else { break }
        let value = String(scan[valueStart..<valueEnd])
        if name == "title" { title = value }
        if name == "order" { order = value }
        scan = scan[scan.index(after: valueEnd)...]
      }
      result.append((title, order))
    }
    return result
  }

  /// `text` without its order attributes (` order="..."` with the space before it).
  public static func withoutOrders(_ text: String) -> String {
    var output = ""
    var rest = Substring(text)
    while let found = rest.range(of: " order=") {
      output += rest[..<found.lowerBound]
      let quoteIndex = found.upperBound
      guard quoteIndex < rest.endIndex,
        let close = rest[rest.index(after: quoteIndex)...].firstIndex(of: rest[quoteIndex])
      else {
        rest = rest[found.upperBound...]
        continue
      }
      rest = rest[rest.index(after: close)...]
    }
    return output + rest
  }

  /// What is wrong with `fixed` as the renumbering of this document, or nil:
  /// only order values changed; each group is numbered 0..n-1; siblings with
  /// integer values keep their relative order (equal values: document order);
  /// an item is edited only when its number changes (a value written `+1`
  /// that stays 1 is not touched); and the numbers are exactly the ones of
  /// ``expectedOrders``.
  public func check(fixed: String) -> String? {
    if Self.withoutOrders(fixed) != Self.withoutOrders(text) { return "more than order values changed" }
    let found = Self.orders(in: fixed)
    guard found.count == items.count else {
      return "\(found.count) items after the fix, \(items.count) before"
    }
    var new = [Int64](repeating: -1, count: items.count)
    for (index, item) in items.enumerated() {
      guard found[index].title == item.title else {
        return "item \(index) is \(found[index].title) after the fix"
      }
      guard let written = found[index].order, let value = Self.integer(written) else {
        return "\(item.title) has order \(found[index].order ?? "none") after the fix"
      }
      new[index] = value
      let old = item.order.flatMap(Self.integer)
      if old == value, written != item.order {
        return "\(item.title) was rewritten from \(item.order!) to \(written) though its number stays"
      }
      if old != value, written != String(value) {
        return "\(item.title) got \(written), not the plain number \(value)"
      }
    }
    for group in groups {
      if Set(group.map { new[$0] }) != Set(0..<Int64(group.count)) {
        return "the group of \(group.map { items[$0].title }) is numbered \(group.map { new[$0] })"
      }
      for (position, a) in group.enumerated() {
        guard let valueA = items[a].order.flatMap(Self.integer) else { continue }
        for b in group[(position + 1)...] {
          guard let valueB = items[b].order.flatMap(Self.integer) else { continue }
          if (valueA <= valueB) != (new[a] < new[b]) {
            return
              "\(items[a].title) (order \(items[a].order!)) and \(items[b].title) (order \(items[b].order!)) became \(new[a]) and \(new[b])"
          }
        }
      }
    }
    let expected = expectedOrders
    if new != expected {
      let first = new.indices.first { new[$0] != expected[$0] }!
      return "\(items[first].title) got \(new[first]), expected \(expected[first])"
    }
    return nil
  }
}
