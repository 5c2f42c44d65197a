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
