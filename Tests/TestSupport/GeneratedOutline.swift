/// Outlines generated inside tests, so large inputs are never committed.
public enum GeneratedOutline {
  /// `parents` items of `children` leaves each, all numbered correctly.
  public static func twoLevels(parents: Int, children: Int) -> String {
    var text = "<outline>\n"
    text.reserveCapacity(parents * (children + 1) * 40)
    for parent in 0..<parents {
      text += "<Item title=\"p\(parent)\" order=\"\(parent)\">\n"
      for child in 0..<children { text += " <Item title=\"c\(child)\" order=\"\(child)\"/>\n" }
      text += "</Item>\n"
    }
    return text + "</outline>\n"
  }
}

extension GeneratedOutline {
  /// A document that parses and holds no text, laid out carelessly, repeatably from `seed`:
  /// line ends `\n`, `\r\n`, a lone `\r` or a mix of them; a byte order mark or not; no XML
  /// declaration, the canonical one or another; blank lines, tabs and attributes split over
  /// lines; comments and processing instructions (some over several lines) before, inside and
  /// after the root at every depth; `<a></a>` elements; titles with escapes, accents and
  /// characters outside the Basic Multilingual Plane; with or without a line end at the end.
  public static func untidy(seed: UInt64) -> String {
    var random = SeededGenerator(seed: seed)
    let endings = ["\n", "\r\n", "\r"]
    let style = Int.random(in: 0..<4, using: &random)
    func lineEnd() -> String {
      style < 3 ? endings[style] : endings.randomElement(using: &random)!
    }
    func space() -> String {
      switch Int.random(in: 0..<7, using: &random) {
      case 0: ""
      case 1: " "
      case 2: "\t  "
      case 3: lineEnd() + lineEnd() + "      "
      default: lineEnd() + String(repeating: " ", count: Int.random(in: 0..<7, using: &random))
      }
    }
    func markup() -> String {
      switch Int.random(in: 0..<5, using: &random) {
      case 0: "<!-- note  \(Int.random(in: 0..<100, using: &random)) -->"
      case 1: "<!--" + lineEnd() + "  several" + lineEnd() + "lines -->"
      case 2: "<?pi a=\"1\"?>"
      case 3: "<?tool run" + lineEnd() + "  twice?>"
      default: "<!---->"
      }
    }
    let titles = ["a", "a &amp; b", "é", "😀 x", "&lt;tag&gt;", "  spaced  ", "中文"]
    var text = Bool.random(using: &random) ? "\u{FEFF}" : ""
    switch Int.random(in: 0..<4, using: &random) {
    case 0: break
    case 1: text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + space()
    case 2: text += "<?xml version=\"1.0\"?>" + space()
    default: text += "<?xml version='1.0'  encoding='utf-8' standalone=\"yes\" ?>" + lineEnd()
    }
    for _ in 0..<Int.random(in: 0..<3, using: &random) { text += markup() + space() }
    text += "<outline" + space() + " version=\"1\"" + space() + " title=\"Root\">"
    // Items as a stack of how many children each open one still gets.
    var open: [Int] = [Int.random(in: 1..<4, using: &random)]
    var orders: [Int] = [0]
    while let remaining = open.last {
      text += space()
      if Int.random(in: 0..<4, using: &random) == 0 { text += markup() + space() }
      if remaining == 0 {
        open.removeLast()
        orders.removeLast()
        text += open.isEmpty ? "</outline>" : "</Item" + (Bool.random(using: &random) ? " " : "") + ">"
        continue
      }
      open[open.count - 1] -= 1
      let order = orders[orders.count - 1]
      orders[orders.count - 1] += 1
      var attributes = [
        "order=\"\(order)\"", "title=\"\(titles.randomElement(using: &random)!)\"",
      ]
      if Bool.random(using: &random) { attributes.reverse() }
      let tag = "<Item" + attributes.map { space() + " " + $0 }.joined()
      let children = open.count < 5 ? Int.random(in: 0..<4, using: &random) : 0
      if children > 0 {
        text += tag + ">"
        open.append(children)
        orders.append(0)
      } else if Bool.random(using: &random) {
        text += tag + (Bool.random(using: &random) ? "/>" : " />")
      } else {
        text += tag + ">" + (Bool.random(using: &random) ? "" : space()) + "</Item>"
      }
    }
    for _ in 0..<Int.random(in: 0..<3, using: &random) { text += space() + markup() }
    if Bool.random(using: &random) { text += space() }
    return text
  }
}
