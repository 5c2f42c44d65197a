/// Nested documents of `Task` objects for the incremental-analysis tests, in process and through
/// the server's store: the model they are written against, and a generator whose documents carry,
/// on request, every kind of problem a keystroke can make or mend.
public enum TaskDocument {
  /// The model the documents are written against: orders, a bounded priority, a required owner,
  /// `children`/`parent` and, with `references`, a to-many `see`/`seenBy` pair.
  public static func model(references: Bool) -> String {
    let see = """

          <relationship name="see" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="seenBy" inverseEntity="Task"/>
          <relationship name="seenBy" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="see" inverseEntity="Task"/>
      """
    return """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model>
        <entity name="Task">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
          <attribute name="title" optional="YES" attributeType="String"/>
          <attribute name="priority" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="9" usesScalarValueType="YES"/>
          <attribute name="owner" attributeType="String"/>
          <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="parent" inverseEntity="Task"/>
          <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="children" inverseEntity="Task"/>\(references ? see : "")
        </entity>
      </model>
      """
  }

  /// A nested document of `items` tasks. With `problems`, some orders are duplicated, out of range
  /// or missing, some priorities out of bounds or not numbers, some owners missing, some ids used
  /// twice and some attributes unknown; with `references`, some objects name others (some
  /// unresolved). `modelReference` names the model in the root's `model` attribute.
  public static func text(
    items: Int, problems: Bool, references: Bool = false, modelReference: String? = nil,
    using random: inout SeededGenerator
  ) -> String {
    let model = modelReference.map { " model=\"\($0)\"" } ?? ""
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\"\(model) owner=\"me\">\n"
    var open = 0
    var orders = [0]
    func chance(_ one: Int) -> Bool { problems && Int.random(in: 0..<one, using: &random) == 0 }
    for index in 0..<items {
      let title = ["Milk", "Eggs", "plan", "R&amp;D", "café", "x"].randomElement(using: &random)!
      var order = orders[open]
      orders[open] += chance(8) ? 0 : 1
      if chance(15) { order += 4 }
      var attributes = " title=\"\(title)\""
      if !chance(25) { attributes += " order=\"\(order)\"" }
      let priority = chance(6) ? ["12", "-1", "x"].randomElement(using: &random)! : String(index % 10)
      if index % 2 == 0 { attributes += " priority=\"\(priority)\"" }
      if !chance(20) { attributes += " owner=\"o\(index % 5)\"" }
      if index % 5 == 0 { attributes += " xml:id=\"t\(chance(3) ? index - 5 : index)\"" }
      if references && index % 9 == 4 { attributes += " see=\"t\(index / 10 * 5) t\(chance(4) ? 3 : 0)\"" }
      if chance(12) { attributes += " colour=\"red\"" }
      let indent = String(repeating: "  ", count: open + 1)
      if open < 4 && Int.random(in: 0...3, using: &random) == 0 {
        text += "\(indent)<Task\(attributes)>\n"
        open += 1
        if orders.count <= open { orders.append(0) } else { orders[open] = 0 }
      } else {
        text += "\(indent)<Task\(attributes)/>\n"
      }
      while open > 0 && Int.random(in: 0...4, using: &random) == 0 {
        open -= 1
        text += String(repeating: "  ", count: open + 1) + "</Task>\n"
      }
    }
    while open > 0 {
      open -= 1
      text += String(repeating: "  ", count: open + 1) + "</Task>\n"
    }
    return text + "</outline>\n"
  }
}
