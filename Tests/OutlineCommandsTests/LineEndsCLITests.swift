import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineCommands

/// A document's lines end with `\n`, `\r\n` or a lone `\r` (classic Mac
/// files, and OPML exported from old Mac apps): every face counts the same
/// lines, as XML normalizes line ends and as the Language Server Protocol
/// counts them. The same document written with each kind of line end gets
/// its problems at the same lines and columns.
@Suite struct LineEndsCLITests {
  /// `line:character` of each diagnostic the server publishes, in order.
  static func places(_ diagnostics: JSONValue?) -> [String] {
    (diagnostics?["diagnostics"]?.arrayValue ?? []).map { diagnostic in
      let start = diagnostic["range"]?["start"]
      let end = diagnostic["range"]?["end"]
      return
        "\(start?["line"]?.intValue ?? -1):\(start?["character"]?.intValue ?? -1)-\(end?["line"]?.intValue ?? -1):\(end?["character"]?.intValue ?? -1)"
    }.sorted()
  }

  @Test func theServerCountsALoneCRAsALineEndAndFollowsEditsThatJoinOrPartThem() throws {
    let client = try LSPClient.initialized(root: nil)
    defer { _ = client.close() }
    let lfURI = "file:///tmp/outline-line-ends/lf.outline"
    let crURI = "file:///tmp/outline-line-ends/cr.outline"
    client.open(lfURI, LineEndDocument.text)
    let lf = Self.places(client.diagnostics(lfURI))
    client.open(crURI, LineEndDocument.written("\r"))
    #expect(Self.places(client.diagnostics(crURI)) == lf)
    #expect(lf.count >= 3)

    // A `\n` typed after the `\r` that ends line 0 makes them one line end (no new line); an
    // empty line typed; then line 0's `\r\n` made a lone `\r` again.
    var text = LineEndDocument.written("\r")
    let edits: [(line: Int, character: Int, endLine: Int, endCharacter: Int, text: String)] = [
      (1, 0, 1, 0, "\n"),  // joins the `\r` of line 0 and this `\n`: still line 1 after it
      (2, 0, 2, 0, "\r\n"),  // a new empty line 2
      (0, 38, 1, 0, "\r"),  // replaces line 0's `\r\n` with a lone `\r`
    ]
    for (index, edit) in edits.enumerated() {
      let version = index + 2
      client.notify(
        "textDocument/didChange",
        [
          "textDocument": ["uri": .string(crURI), "version": .int(version)],
          "contentChanges": [
            [
              "range": [
                "start": ["line": .int(edit.line), "character": .int(edit.character)],
                "end": ["line": .int(edit.endLine), "character": .int(edit.endCharacter)],
              ],
              "text": .string(edit.text),
            ]
          ],
        ])
      let source = SourceText(text)
      let start = source.offset(of: SourcePosition(line: edit.line, column: edit.character), unit: .utf16)
      let end = source.offset(of: SourcePosition(line: edit.endLine, column: edit.endCharacter), unit: .utf16)
      var bytes = Array(text.utf8)
      bytes.replaceSubrange(start..<end, with: Array(edit.text.utf8))
      text = String(decoding: bytes, as: UTF8.self)
      let edited = Self.places(client.diagnostics(crURI, version: version))
      // The same text opened afresh: the same places.
      let fresh = "file:///tmp/outline-line-ends/fresh\(version).outline"
      client.open(fresh, text)
      #expect(
        edited == Self.places(client.diagnostics(fresh)), "after edit \(index): \(text.debugDescription)")
    }
  }

  /// A multi-line comment or processing instruction keeps its bytes through whole-document
  /// formatting of a CRLF or CR document, but for its line ends, of whatever kind: `\n`, as
  /// `outline fmt` writes every line end (XML reads them all as one); formatting again changes
  /// nothing.
  @Test(arguments: ["\r\n", "\r"])
  func formattingKeepsCommentsAndIsIdempotent(ending: String) throws {
    let client = try LSPClient.initialized(root: nil)
    defer { _ = client.close() }
    var text = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<!-- multi\r\nline\rthree\nfour -->",
      "<outline version=\"1\">", "<?pi a\r\nb?>", "  <Item   title=\"a\" order=\"0\"/>", "</outline>", "",
    ].joined(separator: ending)
    for round in 1...3 {
      let uri = "file:///tmp/outline-line-ends/idem\(round).outline"
      client.open(uri, text)
      _ = client.diagnostics(uri)
      let reply = client.request(
        "textDocument/formatting",
        ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 2, "insertSpaces": true]])
      let formatted = applyLSPEdits(reply?["result"]?.arrayValue ?? [], to: text)
      #expect(
        formatted.contains("<!-- multi\nline\nthree\nfour -->") && formatted.contains("<?pi a\nb?>"),
        "\(formatted.debugDescription)")
      #expect(!formatted.contains("\r"), "\(formatted.debugDescription)")
      if round > 1 { #expect(formatted == text, "round \(round)") }
      text = formatted
    }
  }

  /// `outline fmt` writes every line end `\n`, a comment's and a processing instruction's
  /// included (`\r\n` and a lone `\r` alike, as XML reads them): no `\r` is left, nothing else
  /// in them changes, and a second run changes nothing.
  @Test(arguments: ["\r\n", "\r"])
  func fmtWritesCommentLineEndsAsLF(ending: String) throws {
    let folder = try CLI.temporaryFolder()
    let text = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<outline version=\"1\">",
      "  <!-- one\r\ntwo\rthree\n\tfour  &amp; -->", "  <?pi a\r\rb?>", "  <Item title=\"a\" order=\"0\"/>",
      "</outline>", "",
    ].joined(separator: ending)
    try CLI.write(["a.outline": text], in: folder)
    let first = try CLI.run("outline", ["fmt", "a.outline"], in: folder)
    #expect(first.status == 0, "\(first.stderr)")
    let url = folder.appendingPathComponent("a.outline")
    let formatted = try Data(contentsOf: url)
    #expect(
      String(decoding: formatted, as: UTF8.self) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <outline version="1">
          <!-- one
        two
        three
        \tfour  &amp; -->
          <?pi a

        b?>
          <Item order="0" title="a"/>
        </outline>

        """)
    #expect(try CLI.run("outline", ["fmt", "--check", "a.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["fmt", "a.outline"], in: folder).status == 0)
    #expect(try Data(contentsOf: url) == formatted)
  }

  /// Whole-document formatting of a document of lone `\r` line ends gives what it gives its LF
  /// twin: `outline fmt`'s text, whose lines end with `\n`.
  @Test func formattingALoneCRDocumentGivesFmtsText() throws {
    let client = try LSPClient.initialized(root: nil)
    defer { _ = client.close() }
    func formatted(_ text: String, _ name: String) -> String {
      let uri = "file:///tmp/outline-line-ends/\(name).outline"
      client.open(uri, text)
      _ = client.diagnostics(uri)
      let reply = client.request(
        "textDocument/formatting",
        ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 2, "insertSpaces": true]])
      return applyLSPEdits(reply?["result"]?.arrayValue ?? [], to: text)
    }
    let text =
      "<outline version=\"1\">\n<Item   title=\"a\" order=\"0\"/>\n   <Item title=\"b\" order=\"1\"/>\n</outline>\n"
    let lf = formatted(text, "lf")
    #expect(lf.contains("\n  <Item"))
    let cr = formatted(text.replacingOccurrences(of: "\n", with: "\r"), "cr")
    #expect(Array(cr.utf8) == Array(lf.utf8), "\(cr.debugDescription)")
  }
}

/// `migrate` finds the lines of what it lists by reading the file in 1 MiB
/// chunks: the same lines the index counts, with a `\r\n` split by a chunk's end.
@Suite struct MigratePositionLineEndsTests {
  @Test func positionsCountEveryLineEndAcrossChunks() throws {
    var text: [UInt8] = []
    var line = 0
    let endings: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D]]
    while text.count < (1 << 20) + 4_096 {
      text += Array("<Item title=\"é\(line)\" order=\"0\"/>".utf8) + endings[line % 3]
      line += 1
      // A `\r\n` split by the first chunk's end.
      if text.count > (1 << 20) - 64 && text.count < (1 << 20) - 1 {
        text += repeatElement(0x20, count: (1 << 20) - 1 - text.count) + [0x0D, 0x0A]
      }
    }
    #expect(text[(1 << 20) - 1] == 0x0D && text[1 << 20] == 0x0A)
    let folder = try CLI.temporaryFolder()
    let path = folder.appendingPathComponent("lines.outline").path
    try Data(text).write(to: URL(fileURLWithPath: path))
    let offsets = (0..<text.count).filter { text[$0] == UInt8(ascii: "<") }
    let found = MigrationReport.positions(of: offsets, path: path, limit: 1 << 30)
    let index = LineIndex(text)
    var wrong: [Int] = []
    for offset in offsets {
      let line = index.line(containing: offset)
      let column = String(decoding: text[index.start(ofLine: line)..<offset], as: UTF8.self).unicodeScalars
        .count
      if found[offset].map({ $0.line != line + 1 || $0.column != column + 1 }) ?? true {
        wrong.append(offset)
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) of \(offsets.count) wrong, first at \(wrong.first ?? -1)")
  }
}
