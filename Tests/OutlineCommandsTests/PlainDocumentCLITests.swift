import Foundation
import TestSupport
import Testing

/// outline-lint checks a plain document without libxml2 (`XMLEventParser.feedWhole`); no
/// switch turns that off, but a comment after the root makes a document not plain without
/// moving a byte before it: both must be reported alike.
@Suite struct PlainDocumentCLITests {
  static let model = ModelFixtures.model(ModelFixtures.item(priority: ""))

  /// Documents the plain scan takes, each with something it must report as libxml2 would
  /// be read: line ends in values and between tags, C1 controls, xml:id, quotes, `>`.
  static let documents: [[UInt8]] = [
    Array(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<outline version=\"1\" model=\"D.xcdatamodeld\">\r\n  <Item title=\"a\r\nb\tc\" order=\"x\"/>\r\n  <Nope order=\"1\"/>\r\n</outline>\r\n"
        .utf8),
    Array(
      "<outline version=\"1\" model=\"D.xcdatamodeld\">\r  <Item xml:id=\"i 1\" title='\u{85}\">' order=\"1\"/>\r  <Item xml:id=\"i 1\" order=\"1\" bad=\"2\"/>\r</outline>\r"
        .utf8),
    Array(
      "<outline version=\"1\" model=\"D.xcdatamodeld\"><Item order=\"0\"><Item order=\"0\"></Item  ></Item\n></outline>"
        .utf8),
  ]

  @Test func lintReportsAPlainDocumentAsLibxml2sParseOfIt() throws {
    for document in Self.documents {
      var reports: [String] = []
      for suffix in [[], Array("<!---->".utf8)] {
        let folder = try CLI.temporaryFolder()
        defer { Scratch.remove(folder.path) }
        try CLI.write(["D.xcdatamodeld/D.xcdatamodel/contents": Self.model], in: folder)
        try Data(document + suffix).write(to: folder.appendingPathComponent("doc.outline"))
        let run = try CLI.run("outline-lint", ["--format", "json", "--no-cache", "doc.outline"], in: folder)
        reports.append(run.stdout + run.stderr)
      }
      #expect(reports[0] == reports[1], "\(String(decoding: document, as: UTF8.self).debugDescription)")
      #expect(reports[0].contains("\"range\"") || reports[0].contains("line"), "\(reports[0])")
    }
  }
}
