import Foundation
import OutlineCore
import OutlineWorkspace
import TestSupport
import Testing

@testable import OutlineCommands

/// A JSON document given where convert reads XML: libxml2 says only "Start tag expected";
/// a note at the `{` or `[` says the input looks like JSON and how convert reads the JSON form.
@Suite struct JSONGivenAsXMLTests {
  static let note =
    "the input starts with '{', as JSON does, but was read as XML: convert reads the JSON form when it converts to XML, with --to xml, with an output ending in .outline or .xml, or, with neither, with an input ending in .json"

  /// The note (in process) for the first error of `marked`, at marker 1️⃣.
  func notes(_ marked: String) -> [RelatedLocation] {
    let fixture = Marked(marked)
    let source = SourceText(fixture.text)
    let at = fixture.offsets.first ?? 0
    let error = Diagnostic(
      .notWellFormed, "Start tag expected, '<' not found", at: TextRange(start: at, end: at))
    return Conversion.notingJSONForm([error], lines: source).first?.related ?? []
  }

  @Test func aBraceOrBracketFirstGetsTheNote() {
    let brace = notes("\u{FEFF}\n  1️⃣{\"@outline\": 1}")
    #expect(brace.map(\.message) == [Self.note])
    let offset = Marked("\u{FEFF}\n  1️⃣{").offsets[0]
    #expect(brace.first?.range == TextRange(start: offset, end: offset + 1))
    #expect(notes("1️⃣[1]").first?.message.hasPrefix("the input starts with '[', as JSON does") == true)
    // Text that is not JSON-like, and a brace after other content, get none.
    #expect(notes("1️⃣hello {").isEmpty)
    #expect(notes("<?xml version=\"1.0\"?>1️⃣{").isEmpty)
  }

  @Test func convertSaysSoThroughTheBinary() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["x.json": "{\"@outline\":1}\n", "text.outline": "hello\n"], in: folder)
    let run = try CLI.run("outline", ["convert", "--to", "json", "x.json"], in: folder)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "x.json:1:1: error[OL100]: Start tag expected, '<' not found\n  x.json:1:1: note: \(Self.note)\noutline: x.json has errors; nothing was written\n"
    )
    let plain = try CLI.run("outline", ["convert", "text.outline"], in: folder)
    #expect(plain.status == 1 && !plain.stderr.contains("note:"), "\(plain.stderr)")
    // Read by its extension, the same file converts.
    let converted = try CLI.run("outline", ["convert", "x.json"], in: folder)
    #expect(converted.status == 0, "\(converted.stderr)")
  }
}
