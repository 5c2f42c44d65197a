import Foundation
import OutlineModel
import TestSupport
import Testing

/// `outline export` writes documents in the OPML model; one that holds what `outline import`
/// would not read back (other entities, relationships, typed attributes) is refused with each
/// place named, and nothing is written.
@Suite struct OPMLExportCLITests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Item">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>
            <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
    </model>

    """

  @Test func aDocumentInAnotherModelIsRefusedAndNothingIsWritten() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "T.xcdatamodel/contents": Self.model,
        "a.outline":
          "<outline model=\"T.xcdatamodel\">\n  <Item order=\"0\" title=\"a\" tags=\"t1\"/>\n  <Tag xml:id=\"t1\" label=\"urgent\"/>\n</outline>\n",
        "old.opml": "old\n",
      ], in: folder)
    #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).status == 0)
    for output in ["a.opml", "old.opml", "-"] {
      let run = try CLI.run("outline", ["export", "a.outline", "-o", output], in: folder)
      #expect(run.status == 1, "\(run.stderr)")
      #expect(run.stdout.isEmpty)
      #expect(
        run.stderr == """
          a.outline:1:2: error: The root is 'Item', not 'OPML': export writes documents in the OPML model, as `outline import` makes them
          a.outline:2:4: error: 'Item' objects have no place in OPML, which holds 'Outline' objects only (each an <outline> element)
          a.outline:2:29: error: 'tags' relates this 'Item' to other objects by id, which OPML cannot say: its attributes are text, and `outline import` reads them back as String attributes
          a.outline:3:4: error: 'Tag' objects have no place in OPML, which holds 'Outline' objects only (each an <outline> element)
          outline: a.outline cannot be exported as OPML without losing data; nothing was written (`outline convert` writes the JSON form, which keeps everything)

          """)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.opml").path))
    #expect(try String(contentsOf: folder.appendingPathComponent("old.opml"), encoding: .utf8) == "old\n")
  }

  /// The default model's `Item` objects are not OPML's `Outline` objects either.
  @Test func aDocumentInTheDefaultModelIsRefused() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "a.outline":
          "<outline title=\"T\">\n  <Item order=\"0\" title=\"a\"/>\n  <Item order=\"1\" title=\"b\"/>\n</outline>\n"
      ],
      in: folder)
    let run = try CLI.run("outline", ["export", "a.outline"], in: folder)
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr.contains("a.outline:2:4: error: 'Item' objects have no place in OPML"), "\(run.stderr)")
    #expect(run.stderr.contains("(and 1 more place like it)"), "\(run.stderr)")
  }
}
