import Foundation
import TestSupport
import Testing

/// `outline migrate` renumbers the siblings left by dropped objects, reports them, and leaves migrated files alone.
@Suite struct MigrateRenumberCLITests {
  static let item = """
    <attribute name="title" optional="YES" attributeType="String"/>
        <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
        <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
        <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
    """

  static func model(_ entities: String) -> String { ModelFixtures.model(entities) }

  /// A folder with `Notes.xcdatamodeld` (version `Notes` holds Item and its sub-entity Note,
  /// `Notes 2` removes Note) and `doc.outline` for the first version.
  static func project() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Notes.xcdatamodeld/Notes.xcdatamodel/contents": model(
          "<entity name=\"Item\">\(item)</entity>\n<entity name=\"Note\" parentEntity=\"Item\"><attribute name=\"body\" optional=\"YES\" attributeType=\"String\"/></entity>"
        ),
        "Notes.xcdatamodeld/Notes 2.xcdatamodel/contents": model("<entity name=\"Item\">\(item)</entity>"),
        "Notes.xcdatamodeld/.xccurrentversion": """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Notes 2.xcdatamodel</string></dict></plist>
        """,
        "doc.outline": """
        <?xml version="1.0" encoding="UTF-8"?>
        <outline version="1" model="Notes.xcdatamodeld" modelVersion="Notes" title="Home">
          <Item title="a" order="0"/>
          <Note body="x" order="1"/>
          <Item title="b" order="2">
            <Note body="y" order="0"/>
            <Item title="b1" order="1"/>
          </Item>
          <Item title="c" order="3"/>
        </outline>

        """,
      ], in: folder)
    return folder
  }

  @Test func siblingsOfDroppedObjectsAreRenumberedAndListed() throws {
    let folder = try Self.project()
    let original = try String(contentsOf: folder.appendingPathComponent("doc.outline"), encoding: .utf8)
    let check = try CLI.run(
      "outline", ["migrate", "--check", "--allow-data-loss", "doc.outline"], in: folder)
    #expect(check.status == 1)
    #expect(check.stdout.contains("doc.outline:5:3: renumbered 1 child of Item 'b'"), "\(check.stdout)")
    #expect(check.stdout.contains("doc.outline:2:1: renumbered 2 children of the root"))
    #expect(check.stdout.contains("doc.outline: migration pending from 'Notes' to 'Notes 2'"))
    let run = try CLI.run("outline", ["migrate", "--allow-data-loss", "doc.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("doc.outline:4:3: dropped Note object"))
    let migrated = try String(contentsOf: folder.appendingPathComponent("doc.outline"), encoding: .utf8)
    #expect(
      migrated
        == original.replacingOccurrences(of: "modelVersion=\"Notes\"", with: "modelVersion=\"Notes 2\"")
        .replacingOccurrences(of: "\n  <Note body=\"x\" order=\"1\"/>", with: "")
        .replacingOccurrences(of: "\n    <Note body=\"y\" order=\"0\"/>", with: "")
        .replacingOccurrences(of: "title=\"b\" order=\"2\"", with: "title=\"b\" order=\"1\"")
        .replacingOccurrences(of: "title=\"b1\" order=\"1\"", with: "title=\"b1\" order=\"0\"")
        .replacingOccurrences(of: "title=\"c\" order=\"3\"", with: "title=\"c\" order=\"2\""))
    #expect(try CLI.run("outline", ["lint", "doc.outline"], in: folder).status == 0)
  }

  @Test func theJSONReportListsWhatWasDroppedAndRenumbered() throws {
    let folder = try Self.project()
    let run = try CLI.run(
      "outline", ["migrate", "--check", "--allow-data-loss", "--format", "json", "doc.outline"], in: folder)
    #expect(run.status == 1)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    let files = try #require(json["files"] as? [[String: Any]])
    #expect(files.count == 1)
    let file = files[0]
    #expect(file["path"] as? String == "doc.outline" && file["status"] as? String == "pending")
    #expect(file["from"] as? String == "Notes" && file["to"] as? String == "Notes 2")
    let dropped = try #require(file["dropped"] as? [[String: Any]])
    #expect(dropped.map { $0["what"] as? String } == ["Note object", "Note object"])
    let renumbered = try #require(file["renumbered"] as? [[String: Any]])
    #expect(renumbered.map { $0["parent"] as? String } == ["Item 'b'", "the root"])
    #expect(renumbered.map { $0["count"] as? Int } == [1, 2])
    #expect(renumbered.map { $0["line"] as? Int } == [5, 2])
    // Without --allow-data-loss the file is refused, and the JSON says why.
    let refused = try CLI.run("outline", ["migrate", "--format", "json", "doc.outline"], in: folder)
    #expect(refused.status == 1)
    #expect(
      refused.stdout.contains("\"status\": \"refused\"") && refused.stdout.contains("--allow-data-loss"))
  }

  @Test func aMigratedDocumentIsLeftAloneAndCheckSaysNothingIsPending() throws {
    let folder = try Self.project()
    #expect(try CLI.run("outline", ["migrate", "--allow-data-loss", "doc.outline"], in: folder).status == 0)
    let migrated = try String(contentsOf: folder.appendingPathComponent("doc.outline"), encoding: .utf8)
    let url = folder.appendingPathComponent("doc.outline")
    let stamp = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
    for arguments in [["migrate", "doc.outline"], ["migrate", "--allow-data-loss", "doc.outline"]] {
      let again = try CLI.run("outline", arguments, in: folder)
      #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty, "\(again.stderr)")
    }
    let check = try CLI.run("outline", ["migrate", "--check", "doc.outline"], in: folder)
    #expect(check.status == 0 && check.stdout.isEmpty)
    let json = try CLI.run("outline", ["migrate", "--check", "--format", "json", "doc.outline"], in: folder)
    #expect(json.status == 0 && json.stdout.contains("\"status\": \"unchanged\""))
    // Naming the target it is already at changes nothing either.
    #expect(try CLI.run("outline", ["migrate", "--to", "Notes 2", "doc.outline"], in: folder).status == 0)
    #expect(try String(contentsOf: url, encoding: .utf8) == migrated)
    #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date == stamp)
  }

  @Test func groupsThatBecomeOneAreNumberedOneAfterTheOther() throws {
    // In `Notes` an Item holds notes apart from its children; in `Notes 2` a Note is an Item among them.
    let folder = try CLI.temporaryFolder()
    let order = "<attribute name=\"order\" attributeType=\"Integer 64\" defaultValueString=\"0\"/>"
    try CLI.write(
      [
        "Notes.xcdatamodeld/Notes.xcdatamodel/contents": Self.model(
          """
          <entity name="Item">\(Self.item)
          <relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note" inverseName="owner" inverseEntity="Note"/></entity>
          <entity name="Note">\(order)
          <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Item" inverseName="notes" inverseEntity="Item"/></entity>
          """),
        "Notes.xcdatamodeld/Notes 2.xcdatamodel/contents": Self.model(
          "<entity name=\"Item\">\(Self.item)</entity><entity name=\"Note\" parentEntity=\"Item\"/>"),
        "doc.outline": """
        <outline version="1" model="Notes.xcdatamodeld" modelVersion="Notes" title="Home">
          <Item title="a" order="1"/>
          <Note order="0"/>
          <Item title="b" order="0"/>
          <Note order="1"/>
        </outline>

        """,
      ], in: folder)
    let run = try CLI.run("outline", ["migrate", "doc.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "doc.outline:1:1: renumbered 2 children of the root\n")
    let migrated = try String(contentsOf: folder.appendingPathComponent("doc.outline"), encoding: .utf8)
    #expect(
      migrated.contains("<Note order=\"2\"/>\n  <Item title=\"b\" order=\"0\"/>\n  <Note order=\"3\"/>"))
    let lint = try CLI.run("outline", ["lint", "doc.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")
  }
}
