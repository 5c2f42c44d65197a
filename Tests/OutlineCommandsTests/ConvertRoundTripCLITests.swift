import Foundation
import Testing

/// XML -> JSON -> XML through the binary keeps files the reader can read back: the root's
/// format attributes stay the format's when the root entity has properties of those names,
/// and a to-one reference that names nothing is left out rather than written `null`.
@Suite struct ConvertRoundTripCLITests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Doc"><attribute name="version" optional="YES" attributeType="Integer 16"/>
        <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="doc" inverseEntity="Item"/></entity>
      <entity name="Item">
        <relationship name="doc" optional="YES" maxCount="1" destinationEntity="Doc" inverseName="items" inverseEntity="Doc"/>
        <relationship name="friend" optional="YES" maxCount="1" destinationEntity="Item" inverseName="friendOf" inverseEntity="Item"/>
        <relationship name="friendOf" optional="YES" toMany="YES" destinationEntity="Item" inverseName="friend" inverseEntity="Item"/>
      </entity>
    </model>

    """

  @Test(arguments: [
    "<outline version=\"1\" model=\"V.xcdatamodel\"><Item/></outline>\n",
    "<outline version=\"1\" model=\"V.xcdatamodel\"><Item friend=\"\"/><Item xml:id=\"b\" friend=\" \"/></outline>\n",
  ])
  func xmlToJSONToXMLReadsBack(document: String) throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["V.xcdatamodel/contents": Self.model, "a.outline": document], in: folder)
    #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).status == 0)
    let toJSON = try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder)
    #expect(toJSON.status == 0, "\(toJSON.stderr)")
    let json = try String(contentsOf: folder.appendingPathComponent("a.json"), encoding: .utf8)
    #expect(!json.contains("null") && !json.contains("\"version\""), "\(json)")
    let back = try CLI.run("outline", ["convert", "a.json", "-o", "b.outline"], in: folder)
    #expect(back.status == 0, "\(json)\n\(back.stdout)\(back.stderr)")
    #expect(try CLI.run("outline-lint", ["b.outline"], in: folder).status == 0)
  }

  /// Converting into another folder writes the model reference relative to the output, naming
  /// the same model, both ways (`@model` is relative to the file it is in); into the same
  /// folder it stays as written.
  @Test func theModelReferenceFollowsTheOutputsFolder() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "src/V.xcdatamodel/contents": Self.model,
        "src/a.outline": "<outline version=\"1\" model=\"V.xcdatamodel\"><Item/></outline>\n",
      ], in: folder)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("out/deeper"), withIntermediateDirectories: true)
    let out = try CLI.run("outline", ["convert", "src/a.outline", "-o", "out/deeper/a.json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let json = try String(contentsOf: folder.appendingPathComponent("out/deeper/a.json"), encoding: .utf8)
    #expect(json.contains("\"@model\":\"../../src/V.xcdatamodel\""), "\(json)")
    #expect(try CLI.run("outline-lint", ["out/deeper/a.json"], in: folder).status == 0)
    let back = try CLI.run("outline", ["convert", "out/deeper/a.json", "-o", "src/b.outline"], in: folder)
    #expect(back.status == 0, "\(back.stderr)")
    let xml = try String(contentsOf: folder.appendingPathComponent("src/b.outline"), encoding: .utf8)
    #expect(xml.contains("model=\"V.xcdatamodel\""), "\(xml)")
    #expect(try CLI.run("outline", ["convert", "src/a.outline", "-o", "src/c.json"], in: folder).status == 0)
    let same = try String(contentsOf: folder.appendingPathComponent("src/c.json"), encoding: .utf8)
    #expect(same.contains("\"@model\":\"V.xcdatamodel\""), "\(same)")
  }
}
