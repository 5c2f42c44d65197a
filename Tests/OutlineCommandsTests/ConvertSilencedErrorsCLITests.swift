import Foundation
import TestSupport
import Testing

/// A rule or an `outline-disable` comment turns an error off for lint, not for a conversion
/// that cannot write what the error points at: text in an object, an unknown attribute or
/// entity, a value not of its type and orders the JSON form's arrays cannot keep stop
/// `convert` (and `export`) all the same, each said at its place; nothing is dropped or
/// changed silently. Errors whose value is written as it stands (a bound, a pattern, a
/// reference, a required attribute left out) are written through and read back the same.
@Suite struct ConvertSilencedErrorsCLITests {
  /// Documents of the default model, each with one error that no conversion can carry.
  static let unwritable: [(code: String, document: String)] = [
    ("OL105", "<outline version=\"1\"><Item title=\"a\" order=\"0\">hello</Item></outline>\n"),
    ("OL203", "<outline version=\"1\"><Item title=\"a\" order=\"0\" colour=\"red\"/></outline>\n"),
    ("OL200", "<outline version=\"1\"><Item title=\"a\" order=\"0\"/><Thing x=\"1\"/></outline>\n"),
    ("OL300", "<outline version=\"1\"><Item title=\"a\" order=\"x\"/></outline>\n"),
    (
      "OL401",
      "<outline version=\"1\"><Item title=\"a\" order=\"0\"/><Item title=\"b\" order=\"0\"/></outline>\n"
    ),
    (
      "OL402",
      "<outline version=\"1\"><Item title=\"a\" order=\"0\"/><Item title=\"b\" order=\"5\"/></outline>\n"
    ),
    ("OL400", "<outline version=\"1\"><Item title=\"a\" order=\"0\"/><Item title=\"b\"/></outline>\n"),
  ]

  @Test(arguments: ["rule", "comment"])
  func anErrorTurnedOffStillStopsAConversionThatWouldLoseIt(by means: String) throws {
    for (code, document) in Self.unwritable {
      let folder = try CLI.temporaryFolder()
      var text = document
      if means == "rule" {
        try CLI.write([".outline.json": "{\"rules\": {\"\(code)\": \"off\"}}"], in: folder)
      } else {
        text = text.replacingOccurrences(
          of: "<outline version=\"1\">", with: "<outline version=\"1\"><!-- outline-disable \(code) -->")
      }
      try CLI.write(["a.outline": text], in: folder)
      let lint = try CLI.run("outline-lint", ["a.outline"], in: folder)
      #expect(!lint.stdout.contains(code), "\(code) by \(means): \(lint.stdout)")
      let run = try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder)
      #expect(run.status == 1, "\(code) by \(means): \(run.stdout)\(run.stderr)")
      #expect(
        run.stderr.contains("error[\(code)]") && run.stderr.contains("turned off, but a conversion"),
        "\(code) by \(means): \(run.stdout)\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.json").path))
    }
  }

  static let model = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Doc">
        <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="doc" inverseEntity="Item"/></entity>
      <entity name="Item">
        <attribute name="priority" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="5"/>
        <attribute name="code" optional="YES" attributeType="String" regularExpressionString="[A-Z]+"/>
        <attribute name="needed" attributeType="String"/>
        <relationship name="doc" optional="YES" maxCount="1" destinationEntity="Doc" inverseName="items" inverseEntity="Doc"/>
        <relationship name="friend" optional="YES" maxCount="1" destinationEntity="Item" inverseName="friendOf" inverseEntity="Item"/>
        <relationship name="friendOf" optional="YES" toMany="YES" destinationEntity="Item" inverseName="friend" inverseEntity="Item"/>
      </entity>
    </model>

    """

  /// Errors whose values a conversion writes as they stand: turned off, XML -> JSON -> XML
  /// gives back every value.
  @Test func errorsAConversionWritesAsTheyStandGoThrough() throws {
    let cases: [(code: String, item: String)] = [
      ("OL301", "<Item needed=\"n\" priority=\"9\"/>"),
      ("OL302", "<Item needed=\"n\" code=\"lower\"/>"),
      ("OL204", "<Item code=\"AB\"/>"),
      ("OL501", "<Item needed=\"n\" friend=\"nobody\"/>"),
    ]
    for (code, item) in cases {
      let folder = try CLI.temporaryFolder()
      let document = "<outline version=\"1\" model=\"V.xcdatamodel\">\(item)</outline>\n"
      try CLI.write(
        [
          "V.xcdatamodel/contents": Self.model, "a.outline": document,
          ".outline.json": "{\"rules\": {\"\(code)\": \"off\"}}",
        ], in: folder)
      let lint = try CLI.run("outline-lint", ["a.outline"], in: folder)
      #expect(lint.status == 0, "\(code): \(lint.stdout)")
      try CLI.write([".outline.json": "{}"], in: folder)
      #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).stdout.contains(code), "\(code)")
      try CLI.write([".outline.json": "{\"rules\": {\"\(code)\": \"off\"}}"], in: folder)
      let toJSON = try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder)
      #expect(toJSON.status == 0, "\(code): \(toJSON.stdout)\(toJSON.stderr)")
      let back = try CLI.run("outline", ["convert", "a.json", "-o", "b.outline"], in: folder)
      #expect(back.status == 0, "\(code): \(back.stdout)\(back.stderr)")
      let xml = (try? String(contentsOf: folder.appendingPathComponent("b.outline"), encoding: .utf8)) ?? ""
      let values = item.split(separator: " ").dropFirst().map { $0.replacingOccurrences(of: "/>", with: "") }
      for value in values {
        #expect(xml.contains(value), "\(code): \(value) lost in \(xml)")
      }
    }
  }

  /// A to-one holding two ids (OL503) cannot be written as one reference: refused, even off.
  @Test func aToOneHoldingTwoIdsIsRefusedEvenOff() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "V.xcdatamodel/contents": Self.model, ".outline.json": "{\"rules\": {\"OL503\": \"off\"}}",
        "a.outline":
          "<outline version=\"1\" model=\"V.xcdatamodel\"><Item needed=\"n\" xml:id=\"a\" friend=\"a b\"/><Item needed=\"n\" xml:id=\"b\"/></outline>\n",
      ], in: folder)
    #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).status == 0)
    let run = try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder)
    #expect(run.status == 1 && run.stderr.contains("error[OL503]"), "\(run.stderr)")
  }

  /// `fmt` writes no text inside objects: with OL105 turned off (a rule, a comment) it still
  /// refuses such a file rather than drop the text, and the server's formatting offers no edit.
  @Test(arguments: ["rule", "comment"])
  func formattingNeverDropsTextTurnedOff(by means: String) throws {
    let folder = try CLI.temporaryFolder()
    var text = "<outline version=\"1\">\n<Item title=\"a\"   order=\"0\">hello</Item>\n</outline>\n"
    if means == "rule" {
      try CLI.write([".outline.json": "{\"rules\": {\"OL105\": \"off\"}}"], in: folder)
    } else {
      text = "<!-- outline-disable OL105 -->\n" + text
    }
    try CLI.write(["a.outline": text], in: folder)
    #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).status == 0)
    let fmt = try CLI.run("outline", ["fmt", "a.outline"], in: folder)
    #expect(fmt.status == 1 && fmt.stderr.contains("OL105"), "\(fmt.stdout)\(fmt.stderr)")
    let kept = try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8)
    #expect(kept == text)
    #expect(try CLI.run("outline", ["fmt", "--check", "a.outline"], in: folder).status == 1)

    let client = try LSPClient.initialized(root: folder)
    defer { _ = client.close() }
    let uri = folder.appendingPathComponent("a.outline").absoluteString
    client.open(uri, text)
    _ = client.diagnostics(uri)
    let reply = client.request(
      "textDocument/formatting",
      ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 2, "insertSpaces": true]])
    #expect(reply?["result"]?.arrayValue?.isEmpty == true, "\(String(describing: reply))")
  }
}
