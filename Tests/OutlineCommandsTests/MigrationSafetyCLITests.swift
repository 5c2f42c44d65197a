import Foundation
import TestSupport
import Testing

/// Migrations and model renames meet documents with errors turned off (a rule, a comment):
/// they refuse, and write nothing, rather than write a start tag with one name twice or
/// numbers that lose the children's order; ids defined twice keep the references to the
/// object that stays.
@Suite struct MigrationSafetyCLITests {
  static let head = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    """

  static func item(title: String = "title", renaming: String? = nil) -> String {
    let identifier = renaming.map { " renamingIdentifier=\"\($0)\"" } ?? ""
    return """
        <entity name="Item" representedClassName="Item" syncable="YES">
          <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
          <attribute name="\(title)" optional="YES" attributeType="String"\(identifier)/>
          <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
          <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
        </entity>
      """
  }

  static func bundle(_ name: String, _ versions: [String]) -> [String: String] {
    var files = [
      "\(name).xcdatamodeld/.xccurrentversion":
        "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>\(name) \(versions.count).xcdatamodel</string></dict></plist>\n"
    ]
    for (index, contents) in versions.enumerated() {
      let folder = index == 0 ? name : "\(name) \(index + 1)"
      files["\(name).xcdatamodeld/\(folder).xcdatamodel/contents"] = contents
    }
    return files
  }

  /// Version 2 renames `title` to `name`; the object already has a `name` the older version
  /// did not know (OL203 turned off): the migration refuses instead of writing `name` twice.
  @Test(arguments: ["comment", "none"])
  func aRenameOntoANameTheObjectHasIsRefused(turnedOff by: String) throws {
    let folder = try CLI.temporaryFolder()
    let disable = by == "comment" ? "\n  <!-- outline-disable OL203 -->" : ""
    let document = """
      <outline version="1" model="V.xcdatamodeld" modelVersion="V">\(disable)
        <Item order="0" title="A" name="already"/>
      </outline>

      """
    var files = Self.bundle(
      "V",
      [
        Self.head + Self.item() + "</model>\n",
        Self.head + Self.item(title: "name", renaming: "title") + "</model>\n",
      ])
    files["doc.outline"] = document
    try CLI.write(files, in: folder)
    let run = try CLI.run("outline", ["migrate", "doc.outline"], in: folder)
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(
      run.stderr.contains("Item.title=\"A\" would be renamed 'name', a name its object already has"),
      "\(run.stderr)")
    #expect(try String(contentsOf: folder.appendingPathComponent("doc.outline"), encoding: .utf8) == document)
  }

  /// `model rename Item.title label` where an object already has a `label` (OL203 turned off):
  /// refused, the model and the document as they were.
  @Test func aModelRenameOntoANameAnObjectHasIsRefused() throws {
    let folder = try CLI.temporaryFolder()
    let model = Self.head + Self.item() + "</model>\n"
    let document = """
      <outline version="1" model="M.xcdatamodel">
        <!-- outline-disable OL203 -->
        <Item order="0" title="A" label="kept by the user"/>
      </outline>

      """
    try CLI.write(["M.xcdatamodel/contents": model, "doc.outline": document], in: folder)
    let run = try CLI.run(
      "outline", ["model", "rename", "M.xcdatamodel", "Item.title", "label", "."], in: folder)
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("would be renamed 'label', a name its object already has"), "\(run.stderr)")
    #expect(try String(contentsOf: folder.appendingPathComponent("doc.outline"), encoding: .utf8) == document)
    #expect(
      try String(contentsOf: folder.appendingPathComponent("M.xcdatamodel/contents"), encoding: .utf8)
        == model)
  }

  static let nodes = """
      <entity name="Node" representedClassName="Node" isAbstract="YES" syncable="YES">
        <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="children" optional="YES" toMany="YES" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
        <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Node" inverseName="children" inverseEntity="Node"/>
        <relationship name="links" optional="YES" toMany="YES" destinationEntity="Node"/>
      </entity>
      <entity name="Item" representedClassName="Item" parentEntity="Node" syncable="YES"/>
      <entity name="Root" representedClassName="Root" parentEntity="Node" syncable="YES"/>
    """

  /// A bundle whose version 2 has no `Note` entity.
  static let noteDropped = bundle(
    "W",
    [
      head + nodes + "<entity name=\"Note\" parentEntity=\"Node\" syncable=\"YES\"/></model>\n",
      head + nodes + "</model>\n",
    ])

  /// Version 2 has no `Note`: dropping one renumbers its siblings. Siblings numbered with a
  /// duplicate (OL401 turned off) have no order the new numbers could keep: refused, even with
  /// `--allow-data-loss`. Numbered 0..n-1 they are renumbered as before.
  @Test func renumberingSiblingsNotNumberedInSequenceIsRefused() throws {
    let folder = try CLI.temporaryFolder()
    var files = Self.noteDropped
    let broken = """
      <outline version="1" model="W.xcdatamodeld" modelVersion="W" entity="Root">
        <!-- outline-disable OL401 -->
        <Item order="1" title="A"/>
        <Note order="0" title="N"/>
        <Item order="1" title="B"/>
        <Item order="0" title="C"/>
      </outline>

      """
    files["broken.outline"] = broken
    files["fine.outline"] = """
      <outline version="1" model="W.xcdatamodeld" modelVersion="W" entity="Root">
        <Item order="2" title="A"/>
        <Note order="0" title="N"/>
        <Item order="1" title="B"/>
      </outline>

      """
    try CLI.write(files, in: folder)
    let refused = try CLI.run("outline", ["migrate", "broken.outline", "--allow-data-loss"], in: folder)
    #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
    #expect(refused.stderr.contains("not numbered 0..n-1"), "\(refused.stderr)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("broken.outline"), encoding: .utf8) == broken)
    let fine = try CLI.run("outline", ["migrate", "fine.outline", "--allow-data-loss"], in: folder)
    #expect(fine.status == 0, "\(fine.stdout)\(fine.stderr)")
    let migrated = try String(contentsOf: folder.appendingPathComponent("fine.outline"), encoding: .utf8)
    #expect(
      migrated.contains("order=\"1\" title=\"A\"") && migrated.contains("order=\"0\" title=\"B\""),
      "\(migrated)")
  }

  /// An id defined twice (OL500 turned off), on a dropped object and on a kept one: the
  /// references name the kept one and stay.
  @Test func referencesToAnIdTheKeptObjectAlsoHasStay() throws {
    let folder = try CLI.temporaryFolder()
    var files = Self.noteDropped
    files["a.outline"] = """
      <outline version="1" model="W.xcdatamodeld" modelVersion="W" entity="Root">
        <!-- outline-disable OL500 -->
        <Item xml:id="x" order="0" title="keep"/>
        <Note xml:id="x" order="1" title="gone"/>
        <Item order="2" title="ref" links="x"/>
      </outline>

      """
    try CLI.write(files, in: folder)
    let run = try CLI.run("outline", ["migrate", "a.outline", "--allow-data-loss"], in: folder)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let migrated = try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8)
    #expect(migrated.contains("links=\"x\""), "\(migrated)")
    #expect(!migrated.contains("gone"))
  }
}
