import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// The size rule (OL107) through every face: one limit on a value as written,
/// the same diagnostic at the value's position, never libxml2's "Huge input lookup".
@Suite struct SizeRuleTests {
  static let limit = OversizedValue.limit

  /// An outline whose second item's title is `bytes` long as written (line 3,
  /// column 16), followed by an item with a bad order (line 4), so the rest
  /// of the document is seen to be checked.
  static func outline(_ bytes: Int) -> String {
    """
    <outline version="1">
      <Item title="x" order="0"/>
      <Item title="\(OversizedValue.xml(bytes))" order="1"/>
      <Item order="\(bytes > limit ? 5 : 2)"/>
    </outline>

    """
  }

  /// The JSON form of ``outline(_:)`` with an order that is right: the title
  /// is `bytes` long as the XML would write it (`&` is `&amp;`), at line 3, column 37.
  static func json(_ bytes: Int) -> String {
    """
    {"@outline":1,"@entity":"Item","children":[
    {"@entity":"Item","order":0,"title":"x"},
    {"@entity":"Item","order":1,"title":"\(String(repeating: "a", count: bytes - 5))&"}]}

    """
  }

  static func folder(_ files: [String: String]) throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(files, in: folder)
    return folder
  }

  static func exists(_ name: String, in folder: URL) -> Bool {
    FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
  }

  static let sizesOverTheLimit = OversizedValue.sizesOverTheLimit

  @Test func aValueAtTheLimitPassesEveryFace() throws {
    let folder = try Self.folder([
      "a.outline": Self.outline(Self.limit), "b.json": Self.json(Self.limit),
      "c.opml": OversizedValue.opml(Self.limit),
    ])
    let lint = try CLI.run("outline-lint", ["a.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout.prefix(300))")
    let fmt = try CLI.run("outline", ["fmt", "a.outline"], in: folder)
    #expect(fmt.status == 0, "\(fmt.stderr.prefix(300))")
    let toJSON = try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder)
    #expect(toJSON.status == 0, "\(toJSON.stderr.prefix(300))")
    let toXML = try CLI.run("outline", ["convert", "b.json", "-o", "b.outline"], in: folder)
    #expect(toXML.status == 0, "\(toXML.stderr.prefix(300))")
    let imported = try CLI.run("outline", ["import", "c.opml", "-o", "c.outline"], in: folder)
    #expect(imported.status == 0, "\(imported.stderr.prefix(300))")
    let exported = try CLI.run("outline", ["export", "c.outline", "-o", "d.opml"], in: folder)
    #expect(exported.status == 0, "\(exported.stderr.prefix(300))")
    // What convert and import wrote lints clean: the value is still within the rule.
    let written = try CLI.run("outline-lint", ["b.outline", "c.outline"], in: folder)
    #expect(written.status == 0, "\(written.stdout.prefix(300))")
    let size = try Data(contentsOf: folder.appendingPathComponent("b.outline")).count
    #expect(size > Self.limit)
  }

  @Test(arguments: sizesOverTheLimit)
  func lintReportsTheValueAndChecksTheRest(bytes: Int) throws {
    let folder = try Self.folder(["a.outline": Self.outline(bytes)])
    let text = try CLI.run("outline-lint", ["a.outline"], in: folder)
    #expect(text.status == 1)
    #expect(
      text.stdout.contains(
        "a.outline:3:16: error[OL107]: The value of 'title' is \(bytes) bytes, over the limit of 16 MiB (16777216 bytes)"
      ), "\(text.stdout.prefix(400))")
    #expect(text.stdout.contains("a.outline:4:16: error[OL402]"))
    #expect(!text.stdout.contains("Huge") && !text.stdout.contains("internal error"))
    // The in-memory path (standard input) says the same.
    let stdin = try CLI.run(
      "outline-lint", ["-"], in: folder,
      input: try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8))
    #expect(stdin.stdout.contains("<stdin>:3:16: error[OL107]"), "\(stdin.stdout.prefix(400))")
    let json = try CLI.run("outline", ["lint", "--format", "json", "a.outline"], in: folder)
    let report = try JSONValue.parse(Array(json.stdout.utf8), maximumDepth: 64)
    let first = report["files"]?.arrayValue?.first?["diagnostics"]?.arrayValue?.first
    #expect(first?["code"]?.stringValue == "OL107")
    #expect(first?["range"]?["start"]?["line"]?.intValue == 3)
    #expect(first?["range"]?["start"]?["column"]?.intValue == 16)
    #expect(first?["range"]?["end"]?["column"]?.intValue == 16 + bytes)
  }

  @Test(arguments: sizesOverTheLimit)
  func fmtAndConvertRefuseAndWriteNothing(bytes: Int) throws {
    let folder = try Self.folder(["a.outline": Self.outline(bytes), "b.json": Self.json(bytes)])
    let before = try Data(contentsOf: folder.appendingPathComponent("a.outline"))
    let fmt = try CLI.run("outline", ["fmt", "a.outline"], in: folder)
    #expect(fmt.status == 1)
    #expect(
      fmt.stderr.contains("cannot format a.outline:3:16: OL107: The value of 'title' is \(bytes) bytes"))
    #expect(try Data(contentsOf: folder.appendingPathComponent("a.outline")) == before)

    let toJSON = try CLI.run("outline", ["convert", "a.outline", "-o", "a.json"], in: folder)
    #expect(toJSON.status == 1)
    #expect(toJSON.stderr.contains("a.outline:3:16: error[OL107]"), "\(toJSON.stderr.prefix(400))")
    #expect(!Self.exists("a.json", in: folder))

    let toXML = try CLI.run("outline", ["convert", "b.json", "-o", "b.outline"], in: folder)
    #expect(toXML.status == 1)
    #expect(
      toXML.stderr.contains(
        "b.json:3:37: error[OL107]: The value of 'title' is \(bytes) bytes, over the limit of 16 MiB (16777216 bytes) (at $.children[1].title)"
      ), "\(toXML.stderr.prefix(400))")
    #expect(!Self.exists("b.outline", in: folder))
  }

  @Test func theServerReportsTheSameDiagnostic() throws {
    let client = try LSPClient()
    _ = client.initialize()
    let documents = [
      ("file:///tmp/ok.outline", Self.limit), ("file:///tmp/over.outline", Self.limit + 1),
      ("file:///tmp/fifty.outline", OversizedValue.fiftyMegabytes),
    ]
    for (uri, bytes) in documents {
      client.open(uri, Self.outline(bytes))
      let diagnostics = client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
      let oversized = diagnostics.filter { $0["code"]?.stringValue == "OL107" }
      if bytes <= Self.limit {
        #expect(diagnostics.isEmpty)
        continue
      }
      #expect(oversized.count == 1)
      #expect(oversized.first?["range"]?["start"]?["line"]?.intValue == 2)
      #expect(oversized.first?["range"]?["start"]?["character"]?.intValue == 15)
      #expect(oversized.first?["message"]?.stringValue?.contains("is \(bytes) bytes") == true)
      #expect(diagnostics.contains { $0["code"]?.stringValue == "OL402" })
    }
    _ = client.close()
  }
}
