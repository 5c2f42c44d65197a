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
  static let model = ModelFixtures.friends

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

  /// The model and root attributes written after the children are read, in the JSON form; a
  /// key the model lacks is an error at its place, a `@model` that cannot be read is said, and
  /// nothing is converted.
  @Test func modelAndAttributesAfterTheChildrenAreHonoured() throws {
    let folder = try Scratch.folder("convert-in-process")
    try FileManager.default.copyItem(
      at: CLI.repository.appendingPathComponent("examples/playlist/Playlist.xcdatamodel"),
      to: folder.appendingPathComponent("Playlist.xcdatamodel"))
    let json = """
      {"@outline":1,"tracks":[{"@entity":"Track","title":"Jóga","seconds":305},{"@entity":"Track","seconds":151,"title":"Roygbiv"}],"name":"Road trip","@model":"Playlist.xcdatamodel"}
      """
    try CLI.write(["trip.json": json], in: folder)
    let trip = InProcessConvert.run("trip.json", in: folder, to: .xml)
    #expect(
      trip.text == """
        <?xml version="1.0" encoding="UTF-8"?>
        <outline version="1" model="Playlist.xcdatamodel" name="Road trip">
          <Track title="Jóga" seconds="305"/>
          <Track title="Roygbiv" seconds="151"/>
        </outline>

        """, "\(trip)")
    try CLI.write(["trip.outline": try #require(trip.text)], in: folder)
    #expect(!(try InProcessLint.lines("trip.outline", in: folder)).contains { $0.contains("error[") })
    // Without the @model the default model does not know 'tracks'.
    try CLI.write(
      ["plain.json": json.replacingOccurrences(of: #","@model":"Playlist.xcdatamodel""#, with: "")],
      in: folder)
    let refused = InProcessConvert.run("plain.json", in: folder, to: .xml)
    #expect(refused.text == nil)
    #expect(
      refused.errors.contains {
        $0.contains("'tracks' is not an attribute or relationship of 'Item' (at $.tracks)")
      },
      "\(refused.errors)")
    // A @model that cannot be read is said, whether it comes first or last.
    try CLI.write(
      ["missing.json": json.replacingOccurrences(of: "Playlist.xcdatamodel", with: "Missing.xcdatamodel")],
      in: folder)
    let unreadable = InProcessConvert.run("missing.json", in: folder, to: .xml)
    #expect(unreadable.text == nil)
    #expect(unreadable.verdict.hasPrefix("the model cannot be read"), "\(unreadable.verdict)")
  }

  /// A character XML cannot hold, or a byte that is not UTF-8, is refused at its value.
  @Test func charactersXMLCannotHoldAreRefusedAtTheirByte() throws {
    let folder = try Scratch.folder("convert-in-process")
    try CLI.write(["control.json": #"{"@outline":1,"title":"a\u0001b"}"#], in: folder)
    let control = InProcessConvert.run("control.json", in: folder, to: .xml)
    #expect(control.text == nil)
    #expect(
      control.errors.contains(
        "control.json:1:25: error[OL100]: 'title': U+0001 cannot stand in an XML file (at $.title)"),
      "\(control.errors)")
    let bytes = Array(#"{"@outline":1,"title":"ok "#.utf8) + [0xFF] + Array(#""}"#.utf8)
    try Data(bytes).write(to: folder.appendingPathComponent("bytes.json"))
    let notUTF8 = InProcessConvert.run("bytes.json", in: folder, to: .xml)
    #expect(notUTF8.text == nil)
    #expect(
      notUTF8.errors.contains { $0.contains("error[OL100]: 'title': Byte 0xFF is not UTF-8 (at $.title)") },
      "\(notUTF8.errors)")
  }

  /// An outline with errors is refused, each at its place, and nothing is converted.
  @Test func invalidXMLIsReportedAndNothingIsWritten() throws {
    let folder = try Scratch.folder("convert-in-process")
    try CLI.write(["dup.outline": "<outline><Item order=\"0\"/><Item order=\"0\"/></outline>\n"], in: folder)
    let run = InProcessConvert.run("dup.outline", in: folder, to: .json)
    #expect(run.text == nil)
    #expect(run.errors.contains { $0.hasPrefix("dup.outline:1:40: error[OL401]") }, "\(run.errors)")
  }

  /// XML -> JSON -> XML reads back: the root's format attributes stay the format's when the
  /// root entity has properties of those names, and a to-one reference that names nothing is
  /// left out rather than written `null`.
  @Test(arguments: [
    "<outline version=\"1\" model=\"V.xcdatamodel\"><Item/></outline>\n",
    "<outline version=\"1\" model=\"V.xcdatamodel\"><Item friend=\"\"/><Item xml:id=\"b\" friend=\" \"/></outline>\n",
  ])
  func xmlToJSONToXMLReadsBack(document: String) throws {
    let folder = try Scratch.folder("convert-in-process")
    try CLI.write(["V.xcdatamodel/contents": Self.model, "a.outline": document], in: folder)
    #expect(!(try InProcessLint.lines("a.outline", in: folder)).contains { $0.contains("error[") })
    let json = try #require(InProcessConvert.run("a.outline", in: folder, to: .json).text)
    #expect(!json.contains("null") && !json.contains("\"version\""), "\(json)")
    try CLI.write(["a.json": json], in: folder)
    let back = InProcessConvert.run("a.json", in: folder, to: .xml)
    let xml = try #require(back.text, "\(json)\n\(back)")
    try CLI.write(["b.outline": xml], in: folder)
    #expect(!(try InProcessLint.lines("b.outline", in: folder)).contains { $0.contains("error[") })
  }
}
