import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineXML
import Testing

/// The validator's lane (``ItemLaneTable``) against its general way: every document validated
/// both ways must report the same, with the lane taking the tags it is for.
@Suite struct ItemLaneTests {
  /// A model with names longer than eight bytes (compared whole), a required attribute and
  /// typed ones, beside the test model and the default one.
  static let longNames: Model = {
    let text = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="ChecklistEntry" representedClassName="ChecklistEntry" syncable="YES">
              <attribute name="order" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
              <attribute name="description" optional="YES" attributeType="String"/>
              <attribute name="requiredNote" attributeType="String"/>
              <attribute name="doneAtLeastOnce" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
              <attribute name="title" optional="YES" attributeType="String" maxValueString="8"/>
              <relationship name="entries" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="ChecklistEntry" inverseName="owner" inverseEntity="ChecklistEntry"/>
              <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="ChecklistEntry" inverseName="entries" inverseEntity="ChecklistEntry"/>
          </entity>
      </model>
      """
    return ModelLoader.load(SourceText(text), path: "/models/LongNames.xcdatamodel/contents")
  }()

  /// Each model with the element most of its documents' items are, and what they always write.
  static let models: [(name: String, model: Model, element: String, always: [String])] = [
    ("test", Fixtures.testModel, "Item", []), ("default", ModelLoader.defaultModel, "Item", []),
    ("long names", longNames, "ChecklistEntry", ["requiredNote=\"n\""]),
  ]

  /// Validates `text` against `model` with the lane on or off.
  static func run(_ text: String, model: Model, lane: Bool, tree: Bool = false) -> OutlineValidator {
    let validator = OutlineValidator(modelProvider: fixedModel(model), buildTree: tree)
    validator.usesLane = lane
    XMLEventParser.parse(Array(text.utf8), handler: validator)
    validator.finish()
    return validator
  }

  @Test func clean_items_take_the_lane_and_report_nothing() {
    let text = GeneratedOutline.twoLevels(parents: 30, children: 20)
    let fast = Self.run(text, model: ModelLoader.defaultModel, lane: true)
    let general = Self.run(text, model: ModelLoader.defaultModel, lane: false)
    #expect(fast.diagnostics.isEmpty && general.diagnostics.isEmpty)
    // Each parent's first child follows an element of another kind (the root); the rest, and
    // every later parent, take the lane.
    #expect(fast.laneTags >= 30 * 21 - 2)
    #expect(general.laneTags == 0)
  }

  @Test(arguments: 0..<3)
  func every_generated_document_reports_the_same_both_ways(modelIndex: Int) {
    let (name, model, element, always) = Self.models[modelIndex]
    var taken = 0
    for seed in 0..<150 {
      var random = SeededGenerator(seed: UInt64(seed * 7 + modelIndex))
      let text = Self.document(&random, element: element, always: always)
      let fast = Self.run(text, model: model, lane: true, tree: seed % 3 == 0)
      let general = Self.run(text, model: model, lane: false, tree: seed % 3 == 0)
      #expect(fast.diagnostics == general.diagnostics, "model \(name), seed \(seed):\n\(text)")
      #expect(fast.silencedErrors == general.silencedErrors, "model \(name), seed \(seed)")
      #expect(fast.childrenInOrder == general.childrenInOrder, "model \(name), seed \(seed)")
      #expect(
        String(describing: fast.tree?.items) == String(describing: general.tree?.items),
        "model \(name), seed \(seed)")
      taken += fast.laneTags
    }
    // The documents are mostly ordinary items: the comparison is about the lane, not around it.
    #expect(taken > 1000, "model \(name): the lane took \(taken) tags")
  }

  /// A document of nested items, each with attributes drawn from a vocabulary of the ordinary
  /// and the wrong: orders in sequence or not, ids good, bad and repeated, unknown names,
  /// relationships, typed values, other entities, comments that turn checks off, stray text.
  static func document(_ random: inout SeededGenerator, element main: String, always: [String]) -> String {
    func pick<T>(_ options: [T]) -> T { options.randomElement(using: &random)! }
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    let unusual = [
      "foo=\"1\"", "tags=\"t1\"", "parent=\"i1\"", "children=\"i2\"", "count=\"5\"", "count=\"11\"",
      "ratio=\"x\"", "flag=\"YES\"", "when=\"2020-01-01T00:00:00Z\"", "code=\"ABC\"", "code=\"abcd\"",
      "nick=\"\"", "cache=\"c\"", "xmlns:p=\"urn:x\"", "p:foo=\"1\"", "description=\"a long one\"",
      "requiredNote=\"n\"", "doneAtLeastOnce=\"maybe\"", "entries=\"i3\"", "owner=\"i4\"",
      "title=\"far too long for eight\"", "relatedBy=\"i5\"", "related=\"i1 i2 i3\"",
    ]
    let badOrders = ["-1", "abc", "99999", "+1", " 1", "", "00", "1.0", "12345678901234567890"]
    let names = [
      main, main, main, main, "Item", "Note", "Tag", "Circle", "Shape", "Unknown", "ChecklistEntry",
    ]
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n"
    var open: [(name: String, next: Int, left: Int)] = [
      ("outline", 0, Int.random(in: 5..<40, using: &random))
    ]
    var ids = 0
    var element = main
    while !open.isEmpty {
      if open[open.count - 1].left == 0 {
        let closing = open.removeLast()
        if !open.isEmpty || closing.name == "outline" { text += "</\(closing.name)>\n" }
        continue
      }
      open[open.count - 1].left -= 1
      if chance(3) { text += "<!-- outline-disable-next \(pick(["OL203", "OL401", "OL300", "OL500"])) -->\n" }
      if chance(2) { text += "stray text\n" }
      if chance(10) { element = pick(names) }
      var attributes = chance(90) ? always : []
      let order = open[open.count - 1].next
      open[open.count - 1].next += 1
      if !chance(4) {
        attributes.append("order=\"\(chance(6) ? pick(badOrders) : String(chance(3) ? order + 1 : order))\"")
      }
      if chance(85) { attributes.append("title=\"\(pick(["a", "a &amp; b", "é 中文", "", "x"]))\"") }
      if chance(25) {
        ids += 1
        attributes.append("xml:id=\"\(chance(5) ? pick(["1bad", "a b", "i1", "x&amp;y"]) : "i\(ids)")\"")
      }
      if chance(8) { attributes.append(pick(unusual)) }
      if chance(5) { attributes.append("requiredNote=\"n\"") }
      if chance(3) { attributes.append("description=\"d\"") }
      attributes.shuffle(using: &random)
      let tag = "<\(element) \(attributes.joined(separator: " "))"
      if open.count < 6 && chance(20) {
        text += tag + ">\n"
        open.append((element, 0, Int.random(in: 0..<12, using: &random)))
      } else {
        text += tag + "/>\n"
      }
    }
    return text
  }
}
