import Foundation
import TestSupport
import Testing

/// `outline model rename` follows every reference to the property in the model: the
/// `outline.order` and `outline.title` annotations, fetch and compound indexes, and the
/// constraints of the entities that inherit it; an order or title attribute known by its name
/// alone keeps its role. Before, the annotation was left naming the old name (OM211, every
/// document then OL103), and indexes named nothing while `model check` said the model was clean.
@Suite struct ModelRenameReferencesCLITests {
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

  @Test func anOrderKnownByItsNameStaysTheOrderUnderItsNewName() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["M.xcdatamodel/contents": Self.model, "list.outline": Self.document], in: folder)
    let run = try CLI.run(
      "outline", ["model", "rename", "M.xcdatamodel", "Item.order", "position", "."], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let model = try String(
      contentsOf: folder.appendingPathComponent("M.xcdatamodel/contents"), encoding: .utf8)
    #expect(model.contains(#"<entry key="outline.order" value="position"/>"#), "\(model)")
    #expect(try CLI.run("outline", ["model", "check", "M.xcdatamodel"], in: folder).status == 0)
    let list = try String(contentsOf: folder.appendingPathComponent("list.outline"), encoding: .utf8)
    #expect(list == Self.document.replacingOccurrences(of: "order=", with: "position="))
    #expect(try CLI.run("outline-lint", ["list.outline"], in: folder).status == 0)
    // Still the order: two children numbered alike are still an error.
    try CLI.write(
      [
        "list.outline": list.replacingOccurrences(
          of: #"position="1" title="c""#, with: #"position="0" title="c""#)
      ],
      in: folder)
    let duplicate = try CLI.run("outline-lint", ["list.outline"], in: folder)
    #expect(duplicate.status == 1 && duplicate.stdout.contains("OL401"), "\(duplicate.stdout)")
  }

  /// A sub-entity Xcode wrote as `<entity .../>` (no properties of its own) is opened up to
  /// take the annotation that keeps the inherited order; before, the rename was refused.
  @Test func aSelfClosingSubEntityIsOpenedUpForItsAnnotation() throws {
    let folder = try CLI.temporaryFolder()
    let model = Self.model.replacingOccurrences(
      of: "    </entity>\n</model>",
      with: "    </entity>\n    <entity name=\"Task\" parentEntity=\"Item\" syncable=\"YES\"/>\n</model>")
    #expect(model.contains("<entity name=\"Task\" parentEntity=\"Item\" syncable=\"YES\"/>"))
    let document = Self.document.replacingOccurrences(
      of: #"<Item order="1" title="c"/>"#, with: #"<Task order="1" title="c"/>"#)
    try CLI.write(["M.xcdatamodel/contents": model, "list.outline": document], in: folder)
    let run = try CLI.run(
      "outline", ["model", "rename", "M.xcdatamodel", "Item.order", "position", "."], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let renamed = try String(
      contentsOf: folder.appendingPathComponent("M.xcdatamodel/contents"), encoding: .utf8)
    #expect(
      renamed.contains(
        """
            <entity name="Task" parentEntity="Item" syncable="YES">
                <userInfo>
                    <entry key="outline.order" value="position"/>
                </userInfo>
            </entity>
        """), "\(renamed)")
    #expect(try CLI.run("outline", ["model", "check", "M.xcdatamodel"], in: folder).status == 0)
    #expect(try CLI.run("outline-lint", ["list.outline"], in: folder).status == 0)
    let list = try String(contentsOf: folder.appendingPathComponent("list.outline"), encoding: .utf8)
    #expect(list.contains(#"<Task position="1" title="c"/>"#), "\(list)")
  }

  @Test func indexesAndAnnotationsFollowAndAnIndexNamingNothingIsAnError() throws {
    let folder = try CLI.temporaryFolder()
    let annotated = Self.model.replacingOccurrences(
      of: "        </entity>",
      with: """
                <userInfo>
                    <entry key="outline.title" value="title"/>
                </userInfo>
            </entity>
        """)
    try CLI.write(["M.xcdatamodel/contents": annotated, "list.outline": Self.document], in: folder)
    for (property, name) in [("category", "kind"), ("title", "label")] {
      let run = try CLI.run(
        "outline", ["model", "rename", "M.xcdatamodel", "Item.\(property)", name, "."], in: folder)
      #expect(run.status == 0, "\(run.stderr)")
    }
    let model = try String(
      contentsOf: folder.appendingPathComponent("M.xcdatamodel/contents"), encoding: .utf8)
    #expect(model.contains(#"<fetchIndexElement property="kind""#))
    #expect(model.contains(#"<entry key="outline.title" value="label"/>"#))
    let check = try CLI.run("outline", ["model", "check", "M.xcdatamodel"], in: folder)
    #expect(check.status == 0, "\(check.stdout)")
    #expect(try CLI.run("outline-lint", ["list.outline"], in: folder).status == 0)

    try CLI.write(
      [
        "M.xcdatamodel/contents": model.replacingOccurrences(
          of: #"property="kind""#, with: #"property="gone""#)
      ],
      in: folder)
    let dangling = try CLI.run("outline", ["model", "check", "M.xcdatamodel"], in: folder)
    #expect(dangling.status == 1)
    #expect(
      dangling.stdout.contains(
        "error[OM216]: Fetch index 'byCategory' of 'Item' names 'gone', which is not an attribute or relationship of it"
      ), "\(dangling.stdout)")
  }
}
