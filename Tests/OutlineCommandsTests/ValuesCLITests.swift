import Foundation
import TestSupport
import Testing

/// Values, ids and the JSON form as the binaries see them (issue 16, items 4-6).
@Suite(.serialized) struct ValuesCLITests {
  static let model: String = {
    let url = CLI.repository.appendingPathComponent("Tests/Fixtures/models/Test.xcdatamodel/contents")
    return try! String(contentsOf: url, encoding: .utf8)
  }()

  static func project(_ files: [String: String]) throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(files.merging(["Test.xcdatamodel/contents": model]) { $1 }, in: folder)
    return folder
  }

  static func outline(_ items: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\" model=\"Test.xcdatamodel\">\n\(items)</outline>\n"
  }

  // MARK: Item 4: values

  @Test func convertWritesCanonicalIntegersBothWays() throws {
    let folder = try Self.project([
      "a.outline": Self.outline("  <Item order=\"+0\" count=\"007\"/>\n"),
      "b.json": #"{"@model":"Test.xcdatamodel","children":[{"@entity":"Item","order":-0,"count":-0}]}"#,
    ])
    let toJSON = try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder)
    #expect(toJSON.status == 0, "\(toJSON.stderr)")
    let json = try String(contentsOf: folder.appendingPathComponent("a.json"), encoding: .utf8)
    #expect(json.contains(#""order":0,"count":7"#), "\(json)")
    let toXML = try CLI.run("outline", ["convert", "b.json", "-o", "b.outline"], in: folder)
    #expect(toXML.status == 0, "\(toXML.stderr)")
    let xml = try String(contentsOf: folder.appendingPathComponent("b.outline"), encoding: .utf8)
    #expect(xml.contains(#"<Item order="0" count="0"/>"#), "\(xml)")
    #expect(try CLI.run("outline-lint", ["b.outline"], in: folder).status == 0)
  }

  @Test func convertRefusesJSONValuesLintWouldRefuse() throws {
    let folder = try Self.project([
      "c.json":
        #"{"@model":"Test.xcdatamodel","children":[{"@entity":"Item","order":0,"when":"2023-02-29T00:00Z"}]}"#
    ])
    let run = try CLI.run("outline", ["convert", "c.json", "-o", "c.outline"], in: folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("February 2023 has 28 days, not 29"), "\(run.stderr)")
    #expect(run.stderr.contains("(at $.children[0].when)"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.outline").path))
  }

  // MARK: Item 5: ids

  static let badIDs = outline(
    """
      <Item order="0" xml:id="1st" related="a:b"/>
      <Item order="1" xml:id="a:b" related="1st"/>
      <Item order="2" xml:id="a_b"/>

    """)

  @Test func theServerRenamesABadIdAndEveryReference() throws {
    let folder = try Self.project(["a.outline": Self.badIDs])
    let uri = folder.appendingPathComponent("a.outline").absoluteString
    let client = try LSPClient()
    defer { _ = client.close() }
    _ = client.initialize()
    client.open(uri, Self.badIDs)
    let diagnostics = client.diagnostics(uri)?["diagnostics"]?.arrayValue ?? []
    let bad = diagnostics.filter { $0["code"] == "OL510" }
    #expect(bad.count == 4, "\(diagnostics)")
    // At the definition of a:b (line 3, 0-based), and at a reference to 1st.
    let atDefinition = client.codeActions(uri, line: 3, character: 26, diagnostics: .array([bad[2]]))
    let rename = atDefinition.first { $0["kind"] == "quickfix" }
    #expect(rename?["title"] == "Rename id 'a:b' to 'a_b-2'", "\(atDefinition)")
    var fixed = applyLSPEdits(workspaceEdits(rename?["edit"]), to: Self.badIDs)
    #expect(
      fixed.contains(#"xml:id="1st" related="a_b-2""#) && fixed.contains(#"xml:id="a_b-2" related="1st""#))
    let atReference = client.codeActions(uri, line: 3, character: 40, diagnostics: .array([bad[3]]))
    let second = atReference.first { $0["kind"] == "quickfix" }
    #expect(second?["title"] == "Rename id '1st' to '_1st'")
    // Every place sent at once (each id at its definition and at a reference): one fix an id,
    // carrying both of its diagnostics, not the same fix twice.
    let all = client.codeActions(uri, line: 2, character: 26, diagnostics: .array(bad))
    let renames = all.filter {
      $0["kind"] == "quickfix" && ($0["title"]?.stringValue ?? "").hasPrefix("Rename id")
    }
    #expect(renames.count == 2, "\(all)")
    #expect(renames.allSatisfy { $0["diagnostics"]?.arrayValue?.count == 2 }, "\(renames)")
    // Both fixes were offered for the same version; an editor applying both gets:
    fixed = applyLSPEdits(workspaceEdits(rename?["edit"]) + workspaceEdits(second?["edit"]), to: Self.badIDs)
    #expect(
      fixed.contains(#"xml:id="_1st" related="a_b-2""#) && fixed.contains(#"xml:id="a_b-2" related="_1st""#))
    try CLI.write(["a.outline": fixed], in: folder)
    let lint = try CLI.run("outline-lint", ["a.outline"], in: folder)
    #expect(lint.status == 0, "\(fixed)\n\(lint.stdout)")
  }

  // MARK: Item 6: the JSON form, as tolerant as XML

  static let brokenJSON = """
    {"@model":"Test.xcdatamodel","children":[
    {"@entity":"Item","order":0,"title":5},
    7,
    {"@entity":"Nope","order":1},
    {"@entity":"Item","order":1,"when":"2024-02-30T00:00Z","bogus":[1,2]},
    {"@entity":"Item","order":1,"xml":1,"related":["a"]},
    {"@entity":"Item","order":3,"cache":"kept?"}
    ]}

    """

  static let expectedJSONLint = [
    "list.outline.json:2:37: error[OL300]: 'title' must be a string (at $.children[0].title)",
    "list.outline.json:3:1: error[OL300]: 'children' holds objects only (at $.children[1])",
    "list.outline.json:4:12: error[OL200]: 'Nope' is not an entity of the model (at $.children[2].@entity)",
    "list.outline.json:5:36: error[OL300]: 'when': '2024-02-30T00:00Z': February 2024 has 29 days, not 30 (at $.children[3].when)",
    "list.outline.json:5:56: error[OL203]: 'bogus' is not an attribute or relationship of 'Item' (at $.children[3].bogus)",
    "list.outline.json:6:29: error[OL203]: 'xml' is not an attribute or relationship of 'Item' (at $.children[4].xml)",
    "list.outline.json:6:27: error[OL401]: Order 1 is used twice among the 4 children of the root object (at $.children[4].order)",
    "list.outline.json:6:47: error[OL501]: 'related' names 'a', which no object in the file has as its id (at $.children[4].related)",
    "list.outline.json:7:37: warning[OL205]: 'cache' is transient: Core Data does not store it, so the value would be lost (at $.children[5].cache)",
  ]

  @Test func outlineLintReadsTheJSONFormAndReportsEveryProblem() throws {
    let folder = try Self.project(["list.outline.json": Self.brokenJSON])
    let run = try CLI.run("outline-lint", ["list.outline.json"], in: folder)
    #expect(run.status == 1)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    for expected in Self.expectedJSONLint {
      #expect(lines.contains(expected), "\(expected)\n\(run.stdout)")
    }
    #expect(lines.count == Self.expectedJSONLint.count + 1, "\(run.stdout)")
    // convert reports the same errors, and writes nothing.
    let convert = try CLI.run("outline", ["convert", "list.outline.json", "-o", "list.outline"], in: folder)
    #expect(convert.status == 1)
    #expect(
      convert.stderr.split(separator: "\n").filter { $0.contains(": error[") }.count == 8,
      "\(convert.stderr)")
    #expect(
      convert.stderr.contains(
        "list.outline.json:3:1: error[OL300]: 'children' holds objects only (at $.children[1])"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("list.outline").path))
    // A valid file lints clean, a syntax error is one positioned OL100, the configuration applies.
    try CLI.write(
      [
        "ok.outline.json": #"{"@model":"Test.xcdatamodel","children":[{"@entity":"Item","order":0}]}"#,
        "syntax.outline.json":
          "{\"@model\":\"Test.xcdatamodel\",\n \"children\":[{\"@entity\":\"Item\" \"order\":0}]}",
      ], in: folder)
    let ok = try CLI.run("outline-lint", ["ok.outline.json"], in: folder)
    #expect(ok.status == 0 && ok.stdout.hasPrefix("0 errors"), "\(ok.stdout)")
    let syntax = try CLI.run("outline-lint", ["syntax.outline.json"], in: folder)
    #expect(syntax.status == 1)
    #expect(
      syntax.stdout.hasPrefix("syntax.outline.json:2:32: error[OL100]: Invalid JSON: Expected"),
      "\(syntax.stdout)")
    try CLI.write([".outline.json": #"{"rules":{"OL205":"off"}}"#], in: folder)
    let configured = try CLI.run("outline-lint", ["list.outline.json"], in: folder)
    #expect(!configured.stdout.contains("OL205"), "\(configured.stdout)")
  }

  @Test func theServerGivesTheLintersDiagnosticsForAnOpenJSONForm() throws {
    let folder = try Self.project(["list.outline.json": Self.brokenJSON])
    let lint = try CLI.run("outline-lint", ["--format", "json", "list.outline.json"], in: folder)
    let uri = folder.appendingPathComponent("list.outline.json").absoluteString
    let client = try LSPClient()
    defer { _ = client.close() }
    _ = client.initialize()
    client.open(uri, Self.brokenJSON)
    let published = client.diagnostics(uri)?["diagnostics"]?.arrayValue ?? []
    // code, 1-based line:column and message, as the linter prints them.
    let fromServer = published.map { diagnostic -> String in
      let start = diagnostic["range"]?["start"]
      let line = (start?["line"]?.intValue ?? -1) + 1
      let column = (start?["character"]?.intValue ?? -1) + 1
      return
        "\(line):\(column) \(diagnostic["code"]?.stringValue ?? "") \(diagnostic["message"]?.stringValue ?? "")"
    }
    let fromLint = Self.expectedJSONLint.map { line -> String in
      let parts = line.split(separator: ":", maxSplits: 3)
      let rest = parts[3].drop(while: { $0 == " " })
      let code = rest.split(separator: "[")[1].prefix(5)
      let message = rest.split(separator: "]: ", maxSplits: 1)[1]
      return "\(parts[1]):\(parts[2]) \(code) \(message)"
    }
    #expect(fromServer.sorted() == fromLint.sorted(), "\(fromServer)")
    #expect(lint.stdout.contains("\"code\"") || lint.stdout.contains("OL300"))
    // Formatting a JSON document is not the XML layout: no edit.
    let format = client.request(
      "textDocument/formatting",
      ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 2, "insertSpaces": true]])
    #expect(format?["result"]?.arrayValue?.isEmpty == true, "\(String(describing: format))")
  }
}
