import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineValidation
import Testing

/// `model rename` in process: the model's edits (``ModelRename``) and the documents migrated
/// to the renamed model, as the command makes them. The rename follows every reference to the
/// property in the model: the `outline.order` and `outline.title` annotations, fetch and
/// compound indexes; an order or title attribute known by its name alone keeps its role.
/// (The command's all-or-nothing writes go through the binary in ModelRenameAllOrNothingCLITests.)
@Suite struct ModelRenameReferenceTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Item">
            <attribute name="order" attributeType="Integer 32" defaultValueString="0"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="category" optional="YES" attributeType="String"/>
            <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent"/>
            <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children"/>
            <fetchIndex name="byCategory">
                <fetchIndexElement property="category" type="Binary" order="ascending"/>
            </fetchIndex>
        </entity>
    </model>

    """

  static let document = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" model="M.xcdatamodel">
      <Item order="0" title="a" category="x">
        <Item order="0" title="b"/>
        <Item order="1" title="c"/>
      </Item>
    </outline>

    """

  /// `Entity.property` of the model `text` renamed `name`: the model's new text, and
  /// `document` as the rename rewrites it (refused: nil).
  static func rename(
    _ text: String, _ entity: String, _ property: String, to name: String, _ document: String
  )
    throws -> (model: String, document: String?)
  {
    let model = ModelLoader.load(SourceText(text))
    let edits = try ModelRename.edits(in: model, entity: entity, property: property, to: name)
    let bytes = try #require(TextEdit.apply(edits, to: model.source.bytes))
    let renamed = ModelLoader.load(SourceText(bytes: bytes))
    let step = ModelHistory(
      versions: [ModelVersion(name: "M", model: model), ModelVersion(name: "M", model: renamed)], current: 1)
    var plan = MigrationPlan(history: step, from: 0, to: 1, settings: MigrationSettings())
    plan.recordsVersion = false
    let (output, outcome) = MigrationTests.stream(document, plan)
    return (
      String(decoding: bytes, as: UTF8.self), outcome.refusal(allowDataLoss: false) == nil ? output : nil
    )
  }

  /// `model check`'s errors for the model `text`.
  static func checkErrors(_ text: String) -> [String] {
    ModelLoader.load(SourceText(text)).diagnostics.filter { $0.severity == .error }.map {
      "error[\($0.code)]: \($0.message)"
    }
  }

  /// `outline-lint`'s errors for `document` against the model `text`.
  static func lintErrors(_ document: String, model text: String) -> [Diagnostic] {
    OutlineValidator.validate(
      SourceText(document), modelProvider: fixedModel(ModelLoader.load(SourceText(text)))
    ).diagnostics.filter { $0.severity == .error }
  }

  @Test func anOrderKnownByItsNameStaysTheOrderUnderItsNewName() throws {
    let (model, renamed) = try Self.rename(Self.model, "Item", "order", to: "position", Self.document)
    #expect(model.contains(#"<entry key="outline.order" value="position"/>"#), "\(model)")
    #expect(Self.checkErrors(model).isEmpty, "\(Self.checkErrors(model))")
    let list = try #require(renamed)
    #expect(list == Self.document.replacingOccurrences(of: "order=", with: "position="))
    #expect(Self.lintErrors(list, model: model).isEmpty)
    // Still the order: two children numbered alike are still an error.
    let duplicate = list.replacingOccurrences(
      of: #"position="1" title="c""#, with: #"position="0" title="c""#)
    #expect(Self.lintErrors(duplicate, model: model).contains { $0.code.rawValue == "OL401" })
  }

  /// A sub-entity Xcode wrote as `<entity .../>` (no properties of its own) is opened up to
  /// take the annotation that keeps the inherited order; before, the rename was refused.
  @Test func aSelfClosingSubEntityIsOpenedUpForItsAnnotation() throws {
    let model = Self.model.replacingOccurrences(
      of: "    </entity>\n</model>",
      with: "    </entity>\n    <entity name=\"Task\" parentEntity=\"Item\" syncable=\"YES\"/>\n</model>")
    #expect(model.contains("<entity name=\"Task\" parentEntity=\"Item\" syncable=\"YES\"/>"))
    let document = Self.document.replacingOccurrences(
      of: #"<Item order="1" title="c"/>"#, with: #"<Task order="1" title="c"/>"#)
    let (renamed, list) = try Self.rename(model, "Item", "order", to: "position", document)
    #expect(
      renamed.contains(
        """
            <entity name="Task" parentEntity="Item" syncable="YES">
                <userInfo>
                    <entry key="outline.order" value="position"/>
                </userInfo>
            </entity>
        """), "\(renamed)")
    #expect(Self.checkErrors(renamed).isEmpty)
    let text = try #require(list)
    #expect(Self.lintErrors(text, model: renamed).isEmpty)
    #expect(text.contains(#"<Task position="1" title="c"/>"#), "\(text)")
  }

  @Test func indexesAndAnnotationsFollowAndAnIndexNamingNothingIsAnError() throws {
    var model = Self.model.replacingOccurrences(
      of: "        </entity>",
      with: """
                <userInfo>
                    <entry key="outline.title" value="title"/>
                </userInfo>
            </entity>
        """)
    var document = Self.document
    for (property, name) in [("category", "kind"), ("title", "label")] {
      let renamed = try Self.rename(model, "Item", property, to: name, document)
      model = renamed.model
      document = try #require(renamed.document)
    }
    #expect(model.contains(#"<fetchIndexElement property="kind""#))
    #expect(model.contains(#"<entry key="outline.title" value="label"/>"#))
    #expect(Self.checkErrors(model).isEmpty, "\(Self.checkErrors(model))")
    #expect(Self.lintErrors(document, model: model).isEmpty)
    let dangling = Self.checkErrors(
      model.replacingOccurrences(of: #"property="kind""#, with: #"property="gone""#))
    #expect(
      dangling.contains(
        "error[OM216]: Fetch index 'byCategory' of 'Item' names 'gone', which is not an attribute or relationship of it"
      ), "\(dangling)")
  }
}
