import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineModel

/// Builds a model file around entity declarations.
func modelText(_ entities: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
  <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
  \(entities)
  </model>
  """
}

struct ModelCase: CustomTestStringConvertible, Sendable {
  let code: String
  let severity: Severity
  let entities: String
  var testDescription: String { "\(code) \(severity)" }
}

@Suite struct ModelCheckTests {
  static let item = """
    <entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
    <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent"/>
    <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children"/></entity>
    """

  static let cases: [ModelCase] = [
    ModelCase(code: "OM100", severity: .error, entities: "<entity name=\"A\"></model>1️⃣"),
    ModelCase(
      code: "OM200", severity: .error,
      entities: "<entity name=\"A\"><attribute name=\"a\" attributeType=\"1️⃣Integer 128\"/></entity>"),
    ModelCase(
      code: "OM200", severity: .error, entities: "<entity name=\"A\"><attribute name=\"1️⃣a\"/></entity>"),
    ModelCase(code: "OM201", severity: .error, entities: "<entity name=\"A\"/><entity name=\"1️⃣A\"/>"),
    ModelCase(
      code: "OM202", severity: .error,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"String\"/><attribute name=\"1️⃣a\" attributeType=\"String\"/></entity>"
    ),
    ModelCase(
      code: "OM202", severity: .error,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"String\"/></entity><entity name=\"B\" parentEntity=\"A\"><attribute name=\"1️⃣a\" attributeType=\"String\"/></entity>"
    ),
    ModelCase(
      code: "OM203", severity: .error,
      entities:
        "<entity name=\"A\"><relationship name=\"r\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"1️⃣Nope\"/></entity>"
    ),
    ModelCase(
      code: "OM204", severity: .error,
      entities:
        "<entity name=\"A\"><relationship name=\"r\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"B\" inverseName=\"1️⃣s\"/></entity><entity name=\"B\"/>"
    ),
    ModelCase(
      code: "OM204", severity: .error,
      entities:
        "<entity name=\"A\"><relationship name=\"r\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"B\" inverseName=\"1️⃣s\"/></entity><entity name=\"B\"><relationship name=\"s\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"A\" inverseName=\"other\"/><relationship name=\"other\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"A\" inverseName=\"s\"/></entity>"
    ),
    ModelCase(code: "OM205", severity: .error, entities: "<entity name=\"A\" parentEntity=\"1️⃣Nope\"/>"),
    ModelCase(
      code: "OM205", severity: .error,
      entities: "<entity name=\"A\" parentEntity=\"1️⃣B\"/><entity name=\"B\" parentEntity=\"A\"/>"),
    ModelCase(
      code: "OM206", severity: .error,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"Integer 16\" minValueString=\"1️⃣5\" maxValueString=\"1\"/></entity>"
    ),
    ModelCase(
      code: "OM207", severity: .error,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"Integer 16\" minValueString=\"0\" maxValueString=\"5\" defaultValueString=\"1️⃣9\"/></entity>"
    ),
    ModelCase(
      code: "OM207", severity: .error,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"Double\" defaultValueString=\"1️⃣abc\"/></entity>"
    ),
    ModelCase(
      code: "OM208", severity: .warning,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"Boolean\" defaultValueString=\"1️⃣0.0\"/></entity>"
    ),
    ModelCase(
      code: "OM208", severity: .warning,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"Integer 32\" defaultValueString=\"1️⃣NO\"/></entity>"
    ),
    ModelCase(
      code: "OM208", severity: .warning,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"Date\" minValueString=\"1️⃣12/4/2013\"/></entity>"
    ),
    ModelCase(
      code: "OM209", severity: .error,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"String\" regularExpressionString=\"1️⃣[a-z\"/></entity>"
    ),
    ModelCase(
      code: "OM210", severity: .warning,
      entities:
        "<entity name=\"A\"><relationship name=\"1️⃣r\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"A\"/></entity>"
    ),
    ModelCase(
      code: "OM211", severity: .error,
      entities:
        "<entity name=\"A\"><attribute name=\"a\" attributeType=\"String\"/><userInfo><entry key=\"outline.order\" value=\"1️⃣a\"/></userInfo></entity>"
    ),
    ModelCase(
      code: "OM212", severity: .warning,
      entities: """
        <entity name="A"><relationship name="x" optional="YES" toMany="YES" destinationEntity="B" inverseName="xa"/>
        <relationship name="1️⃣y" optional="YES" toMany="YES" destinationEntity="B" inverseName="ya"/></entity>
        <entity name="B"><relationship name="xa" optional="YES" maxCount="1" destinationEntity="A" inverseName="x"/>
        <relationship name="ya" optional="YES" maxCount="1" destinationEntity="A" inverseName="y"/></entity>
        """),
    // The default root entity's `version`: the root element's `version` is the format's.
    ModelCase(
      code: "OM217", severity: .warning,
      entities: """
        <entity name="A"><attribute name="1️⃣version" attributeType="String"/>
        <relationship name="x" optional="YES" toMany="YES" destinationEntity="B" inverseName="a"/></entity>
        <entity name="B"><relationship name="a" optional="YES" maxCount="1" destinationEntity="A" inverseName="x"/></entity>
        """),
  ]

  @Test(arguments: cases)
  func reportsCheckAtMarker(_ testCase: ModelCase) {
    let marked = Marked(modelText(testCase.entities))
    let model = ModelLoader.load(SourceText(marked.text))
    let hit = model.diagnostics.first { $0.code.rawValue == testCase.code }
    #expect(hit != nil, "got \(model.diagnostics.map { "\($0.code) \($0.message)" })")
    #expect(hit?.range.start == marked.offsets.first, "\(hit?.message ?? "")")
    #expect(hit?.severity == testCase.severity)
  }

  @Test func cleanModelHasNoDiagnostics() {
    let model = ModelLoader.load(SourceText(modelText(Self.item)))
    #expect(model.diagnostics.isEmpty)
    let item = model.entity(named: "Item")!
    #expect(model.entities[item].orderAttribute == 0)
    #expect(model.entities[item].containments == [0])
    #expect(model.defaultRootEntity == item)
  }

  @Test func markedContainmentResolvesAmbiguity() {
    let text = modelText(
      """
      <entity name="A"><relationship name="x" optional="YES" toMany="YES" destinationEntity="B" inverseName="xa"/>
      <relationship name="y" optional="YES" toMany="YES" destinationEntity="B" inverseName="ya"><userInfo><entry key="outline.containment" value="YES"/></userInfo></relationship></entity>
      <entity name="B"><relationship name="xa" optional="YES" maxCount="1" destinationEntity="A" inverseName="x"/>
      <relationship name="ya" optional="YES" maxCount="1" destinationEntity="A" inverseName="y"/></entity>
      """)
    let model = ModelLoader.load(SourceText(text))
    #expect(model.diagnostics.isEmpty)
    let a = model.entity(named: "A")!
    #expect(model.containment(of: a, holding: model.entity(named: "B")!) == .relationship(1))
  }

  @Test func subEntitiesInheritProperties() {
    let text = modelText(
      """
      <entity name="Base" isAbstract="YES"><attribute name="title" optional="YES" attributeType="String"/></entity>
      <entity name="Leaf" parentEntity="Base"><attribute name="size" optional="YES" attributeType="Integer 32"/></entity>
      """)
    let model = ModelLoader.load(SourceText(text))
    let leaf = model.entities[model.entity(named: "Leaf")!]
    #expect(leaf.attributes.map(\.name) == ["title", "size"])
    #expect(leaf.titleAttribute == 0)
  }

  @Test func unknownElementsAndAttributesAreTolerated() {
    let text = modelText(
      """
      <entity name="A" codeGenerationType="class" newThing="1"><attribute name="a" optional="YES" attributeType="String" spotlight="YES"/>
      <fetchIndex name="byA"><fetchIndexElement property="a" type="Binary" order="ascending"/></fetchIndex>
      <uniquenessConstraints><uniquenessConstraint><constraint value="a"/></uniquenessConstraint></uniquenessConstraints></entity>
      <fetchRequest name="F" entity="A" predicateString="a == $x"/><configuration name="Local"/><elements><element name="A" positionX="1"/></elements>
      <composite name="C"><attribute name="inner" attributeType="String"/></composite>
      """)
    #expect(ModelLoader.load(SourceText(text)).diagnostics.isEmpty)
  }

  @Test func shippedDefaultModelMatchesTheFileInSchema() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(
        "schema/Outline.xcdatamodeld/Outline.xcdatamodel/contents")
    let onDisk = try String(contentsOf: url, encoding: .utf8)
    #expect(onDisk == ShippedModels.outline)
    let model = ModelLoader.defaultModel
    #expect(model.diagnostics.isEmpty)
    let item = model.entities[model.entity(named: "Item")!]
    let order = item.attributes[item.attributeIndex["order"]!]
    #expect(order.type == .integer64 && order.defaultValue == "0" && !order.isOptional)
    #expect(item.relationships[item.relationshipIndex["children"]!].deletionRule == .cascade)
    #expect(item.relationships[item.relationshipIndex["parent"]!].deletionRule == .nullify)
  }

  @Test func shippedOPMLModelMatchesTheFileInSchema() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(
        "schema/OPML.xcdatamodeld/OPML.xcdatamodel/contents")
    #expect(try String(contentsOf: url, encoding: .utf8) == ShippedModels.opml)
    let model = ModelLoader.load(SourceText(ShippedModels.opml))
    // OPML's own attribute `description` is a name Core Data reserves (OM220, a warning): the
    // model serves documents, never a store (Models.md, the shipped models).
    #expect(model.diagnostics.map { "\($0.code) \($0.severity)" } == ["OM220 warning"])
    #expect(
      model.diagnostics.first?.message.hasPrefix("Attribute name 'Outline.description' is reserved") == true)
    #expect(model.defaultRootEntity == model.entity(named: "OPML"))
  }
}

/// A model file cut short is said to end with its elements open, at its end, with a note at the
/// innermost one, exact whatever the line ends.
@Suite struct TruncatedModelTests {
  @Test(arguments: ["\n", "\r\n", "\r"])
  func aModelCutShortEndsWithItsElementsOpen(ending: String) throws {
    let text = [
      "<?xml version=\"1.0\"?>", "<model type=\"com.apple.IDECoreDataModeler.DataModel\">",
      "  <entity name=\"A\">", "    <attribute name=\"a\" attributeType=\"String\"/>", "",
    ].joined(separator: ending)
    let model = ModelLoader.load(SourceText(text))
    let diagnostic = try #require(model.diagnostics.first { $0.code == .modelNotWellFormed })
    #expect(
      diagnostic.message
        == "The document ends while 2 elements are still open: the innermost, <entity>, has no end tag")
    #expect(diagnostic.range == TextRange(at: text.utf8.count))
    let entity =
      (["<?xml version=\"1.0\"?>", "<model type=\"com.apple.IDECoreDataModeler.DataModel\">", ""]
      .joined(separator: ending) + "  <").utf8.count
    #expect(
      diagnostic.related == [
        RelatedLocation(range: TextRange(start: entity, end: entity + 6), message: "the element left open")
      ])
  }
}
