import Foundation
import TestSupport
import Testing

/// XML -> JSON -> XML through the binary keeps files the reader can read back: the root's
/// format attributes stay the format's when the root entity has properties of those names,
/// and a to-one reference that names nothing is left out rather than written `null`.
@Suite struct ConvertRoundTripCLITests {
  static let model = ModelFixtures.friends

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

  /// `@xmlns` is the root's, an object of prefix: namespace name; a prefix it does not declare
  /// makes no attribute name.
  @Test func theReaderChecksXMLNS() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["V.xcdatamodel/contents": Self.model], in: folder)
    let cases: [(json: String, message: String)] = [
      (#"{"@outline":1,"@model":"V.xcdatamodel","@xmlns":"x"}"#, "'@xmlns' must be an object"),
      (
        #"{"@outline":1,"@model":"V.xcdatamodel","@xmlns":{"xml":"u"}}"#, "'xml' cannot be a namespace prefix"
      ),
      (#"{"@outline":1,"@model":"V.xcdatamodel","@xmlns":{"a":"u","a":"v"}}"#, "declared twice"),
      (
        #"{"@outline":1,"@model":"V.xcdatamodel","items":[{"@entity":"Item","@xmlns":{"a":"u"}}]}"#,
        "'@xmlns' belongs to the root object only"
      ),
      // Found by FuzzJSON: a name libxml2 does not read as a URI made an outline lint refused.
      (#"{"@outline":1,"@model":"V.xcdatamodel","@xmlns":{"rg":"u{n:rg"}}"#, "'u{n:rg' is not a valid URI"),
    ]
    for (index, (json, message)) in cases.enumerated() {
      try CLI.write(["c\(index).json": json], in: folder)
      let run = try CLI.run("outline", ["convert", "c\(index).json", "-o", "c\(index).outline"], in: folder)
      #expect(run.status == 1 && run.stderr.contains(message), "\(json): \(run.stderr)")
    }
    try CLI.write(["ok.json": #"{"@outline":1,"@model":"V.xcdatamodel","@xmlns":{"a":"urn:a"}}"#], in: folder)
    let ok = try CLI.run("outline", ["convert", "ok.json", "-o", "ok.outline"], in: folder)
    #expect(ok.status == 0, "\(ok.stderr)")
    let xml = (try? String(contentsOf: folder.appendingPathComponent("ok.outline"), encoding: .utf8)) ?? ""
    #expect(xml.contains("xmlns:a=\"urn:a\""), "\(xml)")
  }

  /// What `@xmlns` cannot say is refused, never written wrong or crashed on: declarations
  /// after the root's arrays (the server survives the document too), names XML does not allow
  /// for a prefix; `xml:` names need no declaration.
  @Test func xmlnsThatCannotBeWrittenIsRefused() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["V.xcdatamodel/contents": Self.model], in: folder)
    let cases: [(json: String, message: String)] = [
      (
        #"{"@model":"V.xcdatamodel","items":[{"@entity":"Item"}],"@xmlns":{"x":"urn:x"}}"#,
        "must come before the root's arrays"
      ),
      (
        #"{"@model":"V.xcdatamodel","items":[],"@xmlns":{"x":"urn:x"}}"#, "must come before the root's arrays"
      ),
      (#"{"@model":"V.xcdatamodel","@xmlns":{"x":""}}"#, "cannot be bound to an empty namespace name"),
      (#"{"@model":"V.xcdatamodel","@xmlns":{"x":"http://www.w3.org/XML/1998/namespace"}}"#, "is reserved"),
      (#"{"@model":"V.xcdatamodel","@xmlns":{"x":"not a uri"}}"#, "is not a URI"),
    ]
    for (index, (json, message)) in cases.enumerated() {
      try CLI.write(["n\(index).json": json], in: folder)
      let run = try CLI.run("outline", ["convert", "n\(index).json", "-o", "n\(index).outline"], in: folder)
      #expect(run.status == 1 && run.stderr.contains(message), "\(json): \(run.stderr)")
      #expect(try CLI.run("outline-lint", ["n\(index).json"], in: folder).status == 1)
    }
    let client = try LSPClient.initialized(root: folder)
    defer { _ = client.close() }
    let uri = folder.appendingPathComponent("n0.json").absoluteString
    client.open(uri, cases[0].json)
    #expect(client.diagnostics(uri) != nil, "the server answers the document")
  }

  /// A namespace declaration the root does not make the same, on another object, cannot go
  /// into the JSON form (it keeps the root's): refused. Import refuses a prefix bound twice.
  @Test func namespacesTheRootDoesNotDeclareAreRefused() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "rebound.opml": """
        <?xml version="1.0"?>
        <opml version="2.0"><head><title>t</title></head><body>
        <outline text="a" xmlns:x="urn:x" x:foo="1"/><outline text="b" xmlns:x="urn:y" x:foo="2"/>
        </body></opml>

        """,
        "lang.opml": """
        <?xml version="1.0"?>
        <opml version="2.0" xmlns:x="urn:x"><head><title>t</title></head><body>
        <outline text="a" xml:lang="fr" x:foo="1"/>
        </body></opml>

        """,
      ], in: folder)
    let rebound = try CLI.run("outline", ["import", "rebound.opml", "-o", "rebound.outline"], in: folder)
    #expect(
      rebound.status == 1 && rebound.stderr.contains("is bound to 'urn:y' here and to 'urn:x' before"),
      "\(rebound.stderr)")
    #expect(try CLI.run("outline", ["import", "lang.opml", "-o", "lang.outline"], in: folder).status == 0)
    var text = try String(contentsOf: folder.appendingPathComponent("lang.outline"), encoding: .utf8)
    // `xml:lang` goes there and back.
    #expect(try CLI.run("outline", ["convert", "lang.outline", "-o", "lang.json"], in: folder).status == 0)
    let back = try CLI.run("outline", ["convert", "lang.json", "-o", "back.outline"], in: folder)
    #expect(back.status == 0, "\(back.stderr)")
    let xml = (try? String(contentsOf: folder.appendingPathComponent("back.outline"), encoding: .utf8)) ?? ""
    #expect(xml.contains("xml:lang=\"fr\"") && xml.contains("x:foo=\"1\""), "\(xml)")
    // The same outline with a child rebinding the root's prefix.
    text = text.replacingOccurrences(of: "x:foo=\"1\"", with: "xmlns:x=\"urn:other\" x:foo=\"1\"")
    try CLI.write(["rebinds.outline": text], in: folder)
    #expect(try CLI.run("outline-lint", ["rebinds.outline"], in: folder).status == 0)
    let run = try CLI.run("outline", ["convert", "rebinds.outline", "-o", "rebinds.json"], in: folder)
    #expect(run.status == 1 && run.stderr.contains("declare it on the root"), "\(run.stderr)")
  }
}
