import Foundation
import OutlineJSON
import TestSupport
import Testing

/// A document missing its end tags (a file cut short in the middle of nested items) is said to
/// end while its elements are open, at its end, with a note at the innermost one's start tag: in
/// every face (lint as text, JSON and SARIF, fmt, convert, the language server, a model in `model
/// check`) and at exact positions whatever the line ends. libxml2's push parser called it "Extra
/// content at the end of the document"; content after the root element still is.
@Suite struct TruncatedDocumentCLITests {
  static let message =
    "The document ends while 2 elements are still open: the innermost, <Item>, has no end tag"

  static func document(_ ending: String) -> String {
    ["<outline>", "  <Item order=\"0\" title=\"a\">", "    <Item order=\"0\"/>", ""].joined(separator: ending)
  }

  @Test(arguments: ["\n", "\r\n", "\r"])
  func everyFaceSaysTheDocumentEndsWithElementsOpen(ending: String) throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["cut.outline": Self.document(ending)], in: folder)
    let error = "cut.outline:4:1: error[OL100]: \(Self.message)"
    let note = "  cut.outline:2:4: note: the element left open"

    let lint = try CLI.run("outline-lint", ["cut.outline"], in: folder)
    #expect(lint.status == 1)
    #expect(lint.stdout == "\(error)\n\(note)\n1 error, 0 warnings in 1 file\n", "\(lint.stdout)")
    #expect(!lint.stdout.contains("Extra content"))

    let json = try CLI.run("outline-lint", ["--format", "json", "cut.outline"], in: folder)
    let report = try JSONValue.parse(Array(json.stdout.utf8), maximumDepth: 64)
    let diagnostic = report["files"]?.arrayValue?.first?["diagnostics"]?.arrayValue?.first
    #expect(diagnostic?["message"] == .string(Self.message))
    #expect(diagnostic?["range"]?["start"]?["line"] == 4 && diagnostic?["range"]?["start"]?["column"] == 1)
    let related = diagnostic?["related"]?.arrayValue?.first
    #expect(related?["message"] == "the element left open")
    #expect(related?["range"]?["start"]?["line"] == 2 && related?["range"]?["start"]?["column"] == 4)

    let sarif = try CLI.run("outline-lint", ["--format", "sarif", "cut.outline"], in: folder)
    let log = try JSONValue.parse(Array(sarif.stdout.utf8), maximumDepth: 64)
    let result = log["runs"]?.arrayValue?.first?["results"]?.arrayValue?.first
    #expect(result?["message"]?["text"] == .string(Self.message))
    let region = result?["locations"]?.arrayValue?.first?["physicalLocation"]?["region"]
    #expect(region?["startLine"] == 4 && region?["startColumn"] == 1, "\(sarif.stdout)")
    let relatedLocation = result?["relatedLocations"]?.arrayValue?.first
    #expect(relatedLocation?["message"]?["text"] == "the element left open")
    let relatedRegion = relatedLocation?["physicalLocation"]?["region"]
    #expect(relatedRegion?["startLine"] == 2 && relatedRegion?["startColumn"] == 4, "\(sarif.stdout)")

    let fmt = try CLI.run("outline", ["fmt", "cut.outline"], in: folder)
    #expect(fmt.status == 1)
    #expect(fmt.stderr.contains("cut.outline:4:1: OL100: \(Self.message)"), "\(fmt.stderr)")

    let convert = try CLI.run("outline", ["convert", "cut.outline", "-o", "cut.json"], in: folder)
    #expect(convert.status == 1)
    #expect(convert.stderr.contains("\(error)\n\(note)\n"), "\(convert.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("cut.json").path))
  }

  @Test(arguments: ["\n", "\r\n", "\r"])
  func theLanguageServerSaysItToo(ending: String) throws {
    let uri = "file:///tmp/truncated-document.outline"
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, Self.document(ending))
    let diagnostics = client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
    let diagnostic = diagnostics.first { $0["message"] == .string(Self.message) }
    #expect(diagnostic != nil, "\(diagnostics)")
    #expect(diagnostic?["range"]?["start"]?["line"] == 3 && diagnostic?["range"]?["start"]?["character"] == 0)
    let related = diagnostic?["relatedInformation"]?.arrayValue?.first
    #expect(related?["message"] == "the element left open")
    let start = related?["location"]?["range"]?["start"]
    #expect(start?["line"] == 1 && start?["character"] == 3, "\(String(describing: related))")
    #expect(client.request("shutdown")?["result"] == .null)
    client.notify("exit", .null)
    #expect(client.close() == 0)
  }
}
