import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineModel

/// The names of a model: OM218 for every entity, attribute and relationship name a document
/// cannot spell as an XML name (an error), OM219 for Core Data's naming conventions and OM220
/// for names Core Data reserves (warnings), each once, where the name is written.
@Suite struct ModelNamesTests {
  static let legal = [
    "a", "_", "_x", "Item", "größe", "Ärchiv", "項目", "ǅemal", "a.b", "a-b", "a·b", "x2", "e\u{0301}tude",
    "naïve_value", String(repeating: "long", count: 250), "ω", "\u{10000}x",
  ]
  static let illegal = [
    "has space", "x:y", ":x", "x:", "x:y:z", "1abc", "-x", ".x", "a½", "a!", "a/b", "a\u{2028}b", "a\u{0}b",
    "\u{0301}a", "·a",
    "a b", "é\u{00A0}",
  ]

  @Test(arguments: legal)
  func legalNamesAreNCNames(_ name: String) {
    #expect(ModelNames.isNCName(name))
    #expect(ModelNames.notNCName(name) == nil)
  }

  @Test(arguments: illegal)
  func illegalNamesSayWhy(_ name: String) {
    #expect(!ModelNames.isNCName(name))
    let reason = ModelNames.notNCName(name) ?? ""
    #expect(reason.contains("cannot"), "\(reason)")
  }

  /// A property may have a prefixed name, which a document writes under a declaration of its
  /// prefix (as `outline import` writes OPML's namespaced attributes); nothing else with a colon.
  @Test func aPropertyMayHaveAPrefixedName() {
    for name in ["x:y", "xml:lang", "dc:title", "項:ω", "a.b:c-d"] {
      #expect(ModelNames.notAttributeName(name) == nil, "\(name)")
      #expect(ModelNames.isPrefixed(name))
    }
    for name in [":x", "x:", "x:y:z", "1:x", "x:1", "xmlns:x", "xmlns", "a b:c"] {
      #expect(ModelNames.notAttributeName(name) != nil, "\(name)")
    }
    #expect(
      ModelNames.notAttributeName("xmlns:x")
        == "written as an attribute, 'xmlns:x' declares a namespace prefix instead")
    #expect(
      ModelNames.notAttributeName("x:1") == "its local name '1' is not a name: a name cannot start with '1'")
    for name in ["x", "order", "größe"] { #expect(!ModelNames.isPrefixed(name)) }
  }

  @Test func theReasonNamesTheCharacter() {
    #expect(ModelNames.notNCName("has space") == "' ' (U+0020) cannot be in a name")
    #expect(ModelNames.notNCName("1abc") == "a name cannot start with '1'")
    #expect(ModelNames.notNCName("-x") == "a name cannot start with '-'")
    #expect(ModelNames.notNCName("a½") == "'½' (U+00BD) cannot be in a name")
    #expect(
      ModelNames.notNCName("x:y")
        == "':' cannot be in a name (it would make the part before it a namespace prefix)")
    #expect(ModelNames.notNCName("") == "a name cannot be empty")
  }

  /// Each name that is not an XML name is one OM218 at its value, with the name and the reason.
  @Test func everyNameADocumentCannotSpellIsAnError() {
    let marked = Marked(
      modelText(
        """
        <entity name="1️⃣My Folder"><attribute name="2️⃣has space" optional="YES" attributeType="String"/></entity>
        <entity name="Item"><attribute name="3️⃣x:y:z" optional="YES" attributeType="String"/>
        <attribute name="4️⃣1abc" optional="YES" attributeType="String"/>
        <relationship name="5️⃣a b" optional="YES" toMany="YES" destinationEntity="Item" inverseName="6️⃣xmlns"/>
        <relationship name="6️⃣xmlns" optional="YES" maxCount="1" destinationEntity="Item" inverseName="a b"/></entity>
        """))
    let model = ModelLoader.load(SourceText(marked.text))
    let errors = model.diagnostics.filter { $0.severity == .error }
    #expect(errors.allSatisfy { $0.code == .nameNotXMLName }, "\(errors.map(\.message))")
    #expect(errors.map(\.range.start) == marked.offsets, "\(errors.map(\.message))")
    #expect(
      errors.first?.message
        == "Entity 'My Folder' cannot be an XML element name, so no document can write it: ' ' (U+0020) cannot be in a name"
    )
    #expect(
      errors.map(\.message).contains(
        "Relationship 'Item.xmlns' cannot be an XML attribute name, so no document can write it: written as an attribute, 'xmlns' declares the default namespace instead"
      ))
    #expect(
      ModelNames.unwritable(in: model).map { "\($0.kind.rawValue) \($0.qualifiedName)" } == [
        "entity My Folder", "attribute My Folder.has space", "attribute Item.x:y:z", "attribute Item.1abc",
        "relationship Item.a b", "relationship Item.xmlns",
      ])
    // The validator's tables agree: these are never element or attribute names.
    let folder = model.entity(named: "My Folder")!
    #expect(!model.index.entityNameIsXMLName[folder])
    #expect(model.index.entityNameIsXMLName[model.entity(named: "Item")!])
  }

  /// The exact rule of XML 1.0 (fifth edition), as libxml2 reads names: a numeric character that
  /// is not a name character is refused, a combining mark inside a name is not.
  @Test func theIndexUsesTheExactRule() {
    let model = ModelLoader.load(
      SourceText(
        modelText(
          """
          <entity name="Item"><attribute name="a½" optional="YES" attributeType="String"/>
          <attribute name="e\u{0301}" optional="YES" attributeType="String"/></entity>
          """)))
    let item = model.entity(named: "Item")!
    #expect(model.index.keyIsXMLName[item] == [false, true])
    #expect(model.diagnostics.filter { $0.severity == .error }.map(\.code) == [.nameNotXMLName])
  }

  /// Core Data's conventions are warnings, once a name, at the name; a caseless letter keeps them.
  @Test func conventionsAndReservedNamesAreWarnings() {
    let marked = Marked(
      modelText(
        """
        <entity name="1️⃣folder"><attribute name="2️⃣Title" optional="YES" attributeType="String"/>
        <attribute name="3️⃣a.b" optional="YES" attributeType="String"/>
        <attribute name="4️⃣description" optional="YES" attributeType="String"/>
        <attribute name="5️⃣deleted" optional="YES" attributeType="Boolean"/>
        <attribute name="項目" optional="YES" attributeType="String"/>
        <attribute name="6️⃣_private" optional="YES" attributeType="String"/>
        <relationship name="7️⃣Box" optional="YES" maxCount="1" destinationEntity="項" inverseName="items"/>
        <fetchedProperty name="8️⃣Recent" optional="YES"><fetchRequest name="r" entity="folder"/></fetchedProperty></entity>
        <entity name="項"><relationship name="items" optional="YES" toMany="YES" destinationEntity="folder" inverseName="Box"/></entity>
        """))
    let model = ModelLoader.load(SourceText(marked.text))
    #expect(model.diagnostics.allSatisfy { $0.severity == .warning }, "\(model.diagnostics.map(\.message))")
    let found = model.diagnostics.map { "\($0.code)@\($0.range.start)" }
    let expected = [
      "OM219@\(marked.offsets[0])", "OM219@\(marked.offsets[1])", "OM219@\(marked.offsets[2])",
      "OM220@\(marked.offsets[3])", "OM220@\(marked.offsets[4])", "OM219@\(marked.offsets[5])",
      "OM219@\(marked.offsets[6])", "OM219@\(marked.offsets[7])",
    ]
    #expect(found == expected, "\(model.diagnostics.map(\.message))")
    let messages = model.diagnostics.map(\.message)
    #expect(
      messages.contains(
        "Relationship name 'folder.Box' starts with an upper-case letter; Core Data names a property with a lower-case first letter"
      ))
    #expect(
      messages.contains { $0.hasPrefix("Attribute name 'folder.deleted' is reserved: NSManagedObject has") })
    #expect(
      messages.contains { $0.hasPrefix("Attribute name 'folder.description' is reserved: NSObject has") })
    #expect(
      messages.contains { $0.hasPrefix("Fetched property name 'folder.Recent' starts with an upper-case") })
  }

  /// An inherited property is reported where it is declared, not in every sub-entity.
  @Test func anInheritedNameIsReportedOnce() {
    let model = ModelLoader.load(
      SourceText(
        modelText(
          """
          <entity name="Base"><attribute name="has space" optional="YES" attributeType="String"/>
          <attribute name="Upper" optional="YES" attributeType="String"/></entity>
          <entity name="Sub" parentEntity="Base"/><entity name="Leaf" parentEntity="Sub"/>
          """)))
    #expect(model.diagnostics.map(\.code) == [.nameNotXMLName, .nameConvention])
  }

  /// Property: a model whose entity, attribute and relationship names are generated, legal or not,
  /// gets an error at exactly the names that are not XML names (OM218, or OM101 for an empty
  /// one), and none elsewhere.
  @Test func anErrorForExactlyTheIllegalNames() throws {
    try Property.check("model check errs exactly at illegal names", cases: 300) { random, _ in
      var used = Set<String>()
      func fresh(allowEmpty: Bool, entity: Bool = false) -> ModelNameGenerator.Name {
        while true {
          var name = ModelNameGenerator.name(illegalPercent: 30, allowEmpty: allowEmpty, using: &random)
          if Int.random(in: 0..<100, using: &random) < 12 {
            // A prefixed name: a property's, never an entity's.
            name = .init(text: ModelNameGenerator.prefixed(using: &random), flaw: entity ? .colon : nil)
          }
          if name.text == "xmlns" || (!name.text.isEmpty && used.contains(name.text)) { continue }
          used.insert(name.text)
          return name
        }
      }
      var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model>\n"
      var expected: [Int: String] = [:]
      func add(_ name: ModelNameGenerator.Name, tag: String, rest: String) {
        let head = "<\(tag) name=\""
        let start = text.utf8.count + head.utf8.count
        if !name.isLegal {
          // An empty name is OM101 at the element's name.
          expected[name.text.isEmpty ? text.utf8.count + 1 : start] = name.description
        }
        text += head + ModelNameGenerator.escaped(name.text) + "\"" + rest
      }
      let entity = fresh(allowEmpty: true, entity: true)
      add(entity, tag: "entity", rest: ">\n")
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let before = expected
        add(fresh(allowEmpty: true), tag: "attribute", rest: " optional=\"YES\" attributeType=\"String\"/>\n")
        // An entity without a name is not read, and nothing in it either.
        if entity.text.isEmpty { expected = before }
      }
      text += "</entity>\n"
      // A relationship pair of a legal entity: names never empty (the inverse must find them).
      let children = fresh(allowEmpty: false)
      let parent = fresh(allowEmpty: false)
      text += "<entity name=\"Node\">\n"
      add(
        children, tag: "relationship",
        rest:
          " optional=\"YES\" toMany=\"YES\" destinationEntity=\"Node\" inverseName=\"\(ModelNameGenerator.escaped(parent.text))\"/>\n"
      )
      add(
        parent, tag: "relationship",
        rest:
          " optional=\"YES\" maxCount=\"1\" destinationEntity=\"Node\" inverseName=\"\(ModelNameGenerator.escaped(children.text))\"/>\n"
      )
      text += "</entity>\n</model>\n"
      let model = ModelLoader.load(SourceText(text))
      let errors = model.diagnostics.filter { $0.severity == .error }
      let found = Set(errors.map(\.range.start))
      if found != Set(expected.keys) {
        return
          "errors at \(errors.map { "\($0.range.start) \($0.code) \($0.message)" }), expected at \(expected)\n\(text)"
      }
      if let stray = errors.first(where: { $0.code != .nameNotXMLName && $0.code != .modelStructure }) {
        return "unexpected \(stray.code): \(stray.message)\n\(text)"
      }
      return nil
    }
  }

  /// Real shipped models break Core Data's conventions (OpenEmu's `Image.Box`, Simplenote's
  /// `Note.deleted`): warnings, never errors; no corpus model has a name a document cannot spell.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func shippedModelsGetWarningsForTheirNames() throws {
    let corpus = Corpus.folder("xcdatamodel")
    func names(_ file: String) throws -> [String] {
      let text = try String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8)
      return ModelLoader.load(SourceText(text)).diagnostics.filter {
        [.nameNotXMLName, .nameConvention, .reservedName].contains($0.code)
      }.map {
        "\($0.code) \($0.severity): \($0.message.split(separator: " ").prefix(3).joined(separator: " "))"
      }
    }
    #expect(
      try names("OpenEmu__OpenEmu__OEDatabase-1.3.xcdatamodel.xml") == [
        "OM219 warning: Relationship name 'Image.Box'"
      ])
    #expect(
      try names("Automattic__simplenote-ios__Simplenote-7.xcdatamodel.xml") == [
        "OM220 warning: Attribute name 'Note.deleted'"
      ])
  }
}
