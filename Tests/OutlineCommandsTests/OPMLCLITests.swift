import Foundation
import OutlineConvert
import TestSupport
import Testing

/// Every corpus OPML file through the binaries: the well-formed ones import,
/// lint clean, are already formatted, and export to the same data; the
/// `.MALFORMED.` and `.INVALID.` ones get an error with a position and no output.
@Suite(.serialized, .enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
struct OPMLCLITests {
  static let corpus = Corpus.folder("opml")

  static func files() -> [String] { Corpus.names(in: "opml", suffix: ".opml") }

  /// The data of an OPML file, order-insensitive where OPML is (attributes, head fields).
  struct Data: Equatable {
    var opml: [String: String]
    var head: [String: String]
    var body: [String: String]
    var outlines: [[String]]

    init(_ document: OPMLDocument) {
      opml = Dictionary(document.opmlAttributes.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
      head = Dictionary(document.head.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
      body = Dictionary(document.bodyAttributes.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
      outlines = document.outlines.map {
        ["\($0.depth)"] + $0.attributes.map { "\($0.name)=\($0.value)" }.sorted()
      }
    }
  }

  static func read(_ url: URL) throws -> OPMLDocument {
    let (result, _) = OPMLReader.read([UInt8](try Foundation.Data(contentsOf: url)))
    return try result.get()
  }

  @Test(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped)), arguments: files())
  func importLintFormatExportRoundTrip(_ name: String) throws {
    let folder = try CLI.temporaryFolder()
    let input = Self.corpus.appendingPathComponent(name).path
    let run = try CLI.run("outline", ["import", input, "-o", "doc.outline"], in: folder)
    if name.contains(".MALFORMED.") || name.contains(".INVALID.") {
      #expect(run.status == 1)
      #expect(run.stderr.contains("\(input):"), "\(run.stderr)")
      #expect(run.stderr.contains(": error: "))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
      return
    }
    #expect(run.status == 0, "\(run.stderr)")
    let lint = try CLI.run("outline-lint", ["doc.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")
    #expect(try CLI.run("outline", ["fmt", "--check", "doc.outline"], in: folder).status == 0)
    let export = try CLI.run("outline", ["export", "doc.outline", "-o", "back.opml"], in: folder)
    #expect(export.status == 0, "\(export.stderr)")
    let original = Data(try Self.read(URL(fileURLWithPath: input)))
    let back = Data(try Self.read(folder.appendingPathComponent("back.opml")))
    #expect(back == original)
    // And again: export(import(export)) is stable byte for byte.
    #expect(try CLI.run("outline", ["import", "back.opml", "-o", "again.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["export", "again.outline", "-o", "again.opml"], in: folder).status == 0)
    #expect(
      try Foundation.Data(contentsOf: folder.appendingPathComponent("again.opml"))
        == Foundation.Data(contentsOf: folder.appendingPathComponent("back.opml")))
  }
}
