import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineWorkspace

/// What `outline convert` and `outline-lint` say of files on disk, in process
/// (``InProcessConvert``, ``InProcessLint``): names the model lacks are the document's errors,
/// `@xmlns` problems at their member, integers written as character references, and a syntax
/// error no comment or rule turns off. (Exit codes and the files written stay with the binary,
/// in FmtConvertCLITests and ConvertRoundTripCLITests.)
@Suite struct ConvertInProcessTests {
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

  @Test func namesTheModelLacksAreErrorsOfTheDocument() throws {
    let folder = try Scratch.folder("convert-in-process")
    try CLI.write(
      [
        "root.json": #"{"@outline":1,"@entity":"Doc","children":[]}"#,
        "key.json": #"{"@outline":1,"children":[{"@entity":"Item","order":0,"title":"x","zzz":1}]}"#,
      ], in: folder)
    let root = InProcessConvert.run("root.json", in: folder, to: .xml)
    #expect(root.text == nil)
    #expect(
      root.errors == ["root.json:1:25: error[OL200]: 'Doc' is not an entity of the model (at $.@entity)"],
      "\(root.errors)")
    #expect(root.verdict == "has errors")
    let key = InProcessConvert.run("key.json", in: folder, to: .xml)
    #expect(key.text == nil && key.verdict == "has errors", "\(key)")
    let lint = try InProcessLint.lines("root.json", in: folder)
    #expect(lint.joined(separator: "\n").components(separatedBy: "is not an entity").count == 2, "\(lint)")
  }

  @Test func xmlnsProblemsAreReportedAtTheirMember() throws {
    let folder = try Scratch.folder("convert-in-process")
    let json = """
      {"@outline": 1, "@model": "V.xcdatamodel",
        "@xmlns": {
          "rg": "https://example.org/rg",
          "xml": "urn:x",
          "rg": "urn:again",
          "bad": "not a uri"
        }
      }

      """
    try CLI.write(["V.xcdatamodel/contents": Self.model, "ns.outline.json": json], in: folder)
    let expected = [
      "ns.outline.json:4:5: error[OL203]: 'xml' cannot be a namespace prefix (at $.@xmlns.xml)",
      "ns.outline.json:5:5: error[OL203]: The prefix 'rg' is declared twice (at $.@xmlns.rg)",
      "ns.outline.json:6:12: error[OL100]: 'not a uri' is not a URI (at $.@xmlns.bad)",
    ]
    let lint = try InProcessLint.lines("ns.outline.json", in: folder)
    #expect(Array(lint.prefix(3)) == expected, "\(lint)")
    let convert = InProcessConvert.run("ns.outline.json", in: folder, to: .xml)
    #expect(convert.text == nil)
    #expect(Array(convert.errors.prefix(3)) == expected, "\(convert.errors)")
  }

  @Test func integersWithCharacterReferences() throws {
    let folder = try Scratch.folder("convert-in-process")
    try CLI.write(
      [
        "r.outline":
          "<outline version=\"1\">\n  <Item title=\"a\" order=\"&#48;\"/>\n  <Item title=\"b\" order=\"&#x31;\"/>\n</outline>\n"
      ],
      in: folder)
    let lint = try InProcessLint.lines("r.outline", in: folder)
    #expect(!lint.contains { $0.contains("error[") }, "\(lint)")
    let convert = InProcessConvert.run("r.outline", in: folder, to: .json)
    #expect(convert.text?.contains("\"order\":1,\"title\":\"b\"") == true, "\(convert)")
  }

  /// OL100 cannot be turned off: not by a comment (it is still reported), not by a rule (the
  /// configuration's own error, OC100, and OL100 still reported).
  @Test func aSyntaxErrorCannotBeTurnedOff() throws {
    let folder = try Scratch.folder("convert-in-process")
    try CLI.write(
      [
        "comment/a.outline":
          "<!-- outline-disable OL100 -->\n<outline version=\"1\"><Item order=\"0\"></outline>\n",
        "rule/.outline.json": "{\"rules\": {\"OL100\": \"off\"}}\n",
        "rule/a.outline": "<outline version=\"1\"><Item order=\"0\"></outline>\n",
      ], in: folder)
    let comment = try InProcessLint.lines("comment/a.outline", in: folder)
    #expect(comment.contains { $0.contains("error[OL100]") }, "\(comment)")
    let rule = try InProcessLint.lines("rule/a.outline", in: folder)
    #expect(rule.contains { $0.contains("error[OL100]") }, "\(rule)")
    let configuration = try #require(
      ConfigurationFinder().configuration(for: folder.appendingPathComponent("rule/a.outline").path))
    let problems = configuration.diagnostics.map { "\($0.severity)[\($0.code)]: \($0.message)" }
    #expect(problems.contains { $0.hasPrefix("error[OC100]: OL100 cannot be changed") }, "\(problems)")
  }

  /// The JSON form carries the model version both ways.
  @Test func theJSONFormCarriesTheVersion() throws {
    let folder = try Scratch.folder("convert-in-process")
    try FileManager.default.copyItem(
      at: CLI.repository.appendingPathComponent("Tests/Fixtures/versions/Tasks.xcdatamodeld"),
      to: folder.appendingPathComponent("Tasks.xcdatamodeld"))
    try CLI.write(
      [
        "j.outline":
          "<outline model=\"Tasks.xcdatamodeld\" modelVersion=\"Tasks 4\" version=\"1\" owner=\"me\"><Task owner=\"me\" order=\"0\"/></outline>\n"
      ], in: folder)
    let json = try #require(InProcessConvert.run("j.outline", in: folder, to: .json).text)
    #expect(
      json.hasPrefix(
        "{\"@outline\":1,\"@model\":\"Tasks.xcdatamodeld\",\"@modelVersion\":\"Tasks 4\",\"@entity\":\"Task\""
      ), "\(json)")
    try CLI.write(["j.outline.json": json], in: folder)
    let back = InProcessConvert.run("j.outline.json", in: folder, to: .xml)
    #expect(
      back.text?.contains(
        "<outline version=\"1\" model=\"Tasks.xcdatamodeld\" modelVersion=\"Tasks 4\" owner=\"me\">") == true,
      "\(back)")
  }
}
