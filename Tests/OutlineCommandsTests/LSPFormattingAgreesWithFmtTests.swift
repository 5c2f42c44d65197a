import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// What the server formats is what `outline fmt` writes, byte for byte: `textDocument/formatting`
/// and `textDocument/rangeFormatting` over the whole document, applied as an editor applies
/// them, give the bytes of the same file after `outline fmt` (its declaration, `\n` line ends
/// whatever the document had, no byte order mark, processing instructions indented, the model
/// version recorded); and a partial range formats its lines as `fmt` writes them.
@Suite struct LSPFormattingAgreesWithFmtTests {
  /// The edits applied as an editor applies them: each position must name a place in the text
  /// (a line it has, a UTF-16 column within that line's text and not inside a surrogate
  /// pair), and the edits come in order without overlapping. Nil, with an issue, when not.
  static func appliedAsAnEditor(_ edits: [JSONValue], to text: String) -> String? {
    var units = Array(text.utf16)
    // Each line's start and the end of its text (before its line end).
    var lines: [(start: Int, end: Int)] = []
    var start = 0
    var index = 0
    while index < units.count {
      if units[index] == 0x0A || units[index] == 0x0D {
        let length = units[index] == 0x0D && index + 1 < units.count && units[index + 1] == 0x0A ? 2 : 1
        lines.append((start, index))
        index += length
        start = index
      } else {
        index += 1
      }
    }
    lines.append((start, units.count))
    func offset(_ position: JSONValue?) -> Int? {
      guard let line = position?["line"]?.intValue, let character = position?["character"]?.intValue,
        line >= 0, line < lines.count, character >= 0, character <= lines[line].end - lines[line].start
      else { return nil }
      let at = lines[line].start + character
      if at > 0 && at < units.count && UTF16.isTrailSurrogate(units[at])
        && UTF16.isLeadSurrogate(units[at - 1])
      {
        return nil
      }
      return at
    }
    var ranges: [(Int, Int, String)] = []
    for edit in edits {
      guard let from = offset(edit["range"]?["start"]), let to = offset(edit["range"]?["end"]), from <= to,
        let newText = edit["newText"]?.stringValue
      else {
        Issue.record("an edit an editor cannot apply: \(edit)")
        return nil
      }
      if let last = ranges.last, last.1 > from {
        Issue.record("edits out of order or overlapping: \(edits)")
        return nil
      }
      ranges.append((from, to, newText))
    }
    for (from, to, newText) in ranges.reversed() {
      units.replaceSubrange(from..<to, with: Array(newText.utf16))
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// The position just past the last character of `text`, in UTF-16.
  static func end(of text: String) -> JSONValue {
    let source = SourceText(text)
    let position = source.position(of: source.bytes.count, unit: .utf16)
    return ["line": .int(position.line), "character": .int(position.column)]
  }

  static func formatting(_ client: LSPClient, _ uri: String) -> [JSONValue] {
    client.request(
      "textDocument/formatting",
      ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 4, "insertSpaces": false]]
    )?["result"]?.arrayValue ?? []
  }

  static func rangeFormatting(_ client: LSPClient, _ uri: String, from start: JSONValue, to end: JSONValue)
    -> [JSONValue]
  {
    client.request(
      "textDocument/rangeFormatting",
      [
        "textDocument": ["uri": .string(uri)], "range": ["start": start, "end": end],
        "options": ["tabSize": 4, "insertSpaces": false],
      ])?["result"]?.arrayValue ?? []
  }

  /// The bytes of `text` written to `name` in `folder` and formatted there by `outline fmt`.
  static func fmt(_ text: String, _ name: String, in folder: URL) throws -> [UInt8] {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    let run = try CLI.run("outline", ["fmt", name], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    return Array(try Data(contentsOf: url))
  }

  /// The tester's document (no declaration, a start tag over three lines), documents with CRLF,
  /// lone CR and mixed line ends, a byte order mark, declarations, processing instructions
  /// and comments at every depth, character references between tags, and generated ones.
  static let documents: [String] =
    [
      "<outline>\n<Item title=\"a\"\n   order=\"0\"><Item\norder=\"0\"/></Item>\n</outline>\n",
      "<outline>\r\n<Item title=\"a\" order=\"0\">\r\n<!-- c\r\n d -->\r\n<?pi x?>\r\n        <?pi y?><Item order=\"0\"/></Item>\r\n</outline>\r\n",
      "<?xml version=\"1.0\"?>\r<outline>\r<Item title=\"a\" order=\"0\">\r   <?pi x?>\r<Item order=\"0\"/></Item>\r</outline>",
      "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline>\r\n<Item title=\"😀\" order=\"0\">\r   <?pi x?>\n<Item order=\"0\"/></Item>\n</outline>\n\n\n",
      "<?xml-stylesheet href=\"a\"?>\n<outline>\n  <!-- x -->\n<Item order=\"0\"/>\n</outline>\n<!-- after -->\n   <?after x?>",
      // Character references to white space between tags: lines of their own, kept as written.
      "<outline>\r\n<Item title=\"a\"   order=\"0\">&#32;</Item>\r\n   <Item order=\"1\" title=\"b\"/>&#10;\n</outline>\n",
    ] + (0..<12).map { GeneratedOutline.untidy(seed: 1000 + $0) }

  @Test func formattingAndTheWholeRangeGiveFmtsBytes() throws {
    let folder = try CLI.temporaryFolder()
    let client = try LSPClient.initialized(root: folder)
    defer { _ = client.close() }
    for (index, text) in Self.documents.enumerated() {
      let expected = try Self.fmt(text, "fmt\(index).outline", in: folder)
      let uri = folder.appendingPathComponent("open\(index).outline").absoluteString
      client.open(uri, text)
      _ = client.diagnostics(uri)
      let whole = Self.appliedAsAnEditor(Self.formatting(client, uri), to: text)
      #expect(whole.map { Array($0.utf8) } == expected, "formatting \(text.debugDescription)")
      let edits = Self.rangeFormatting(
        client, uri, from: ["line": 0, "character": 0], to: Self.end(of: text))
      let ranged = Self.appliedAsAnEditor(edits, to: text)
      #expect(
        ranged.map { Array($0.utf8) } == expected,
        "range formatting \(text.debugDescription) gives \(ranged.debugDescription)")
      // A range past the end (the tester's request) is the same.
      let past = Self.rangeFormatting(
        client, uri, from: ["line": 0, "character": 0], to: ["line": 999, "character": 0])
      #expect(past == edits)
    }
  }

  /// Formatting one line after another, from the last to the first, as an editor sends each
  /// change back, ends at `fmt`'s bytes: a partial range formats its lines as `fmt` writes them.
  @Test func lineByLineGivesFmtsBytes() throws {
    let folder = try CLI.temporaryFolder()
    let client = try LSPClient.initialized(root: folder)
    defer { _ = client.close() }
    for (index, original) in Self.documents.enumerated() where index % 4 == 1 {
      let expected = try Self.fmt(original, "fmt\(index).outline", in: folder)
      let uri = folder.appendingPathComponent("open\(index).outline").absoluteString
      client.open(uri, original)
      var text = original
      var version = 1
      for line in (0..<SourceText(original).lines.lineCount).reversed() {
        let position: JSONValue = ["line": .int(line), "character": 0]
        let edits = Self.rangeFormatting(client, uri, from: position, to: position)
        guard !edits.isEmpty, let edited = Self.appliedAsAnEditor(edits, to: text) else { continue }
        text = edited
        version += 1
        client.notify(
          "textDocument/didChange",
          [
            "textDocument": ["uri": .string(uri), "version": .int(version)],
            "contentChanges": [["text": .string(text)]],
          ])
      }
      #expect(Array(text.utf8) == expected, "\(original.debugDescription) gives \(text.debugDescription)")
    }
  }

  /// A document that fits the current version of a bundle of several versions and records none:
  /// `fmt` records it on the root, and so do formatting and range formatting.
  @Test func theModelVersionIsRecordedAsFmtRecordsIt() throws {
    let folder = try CLI.temporaryFolder()
    let bundle = CLI.repository.appendingPathComponent("Tests/Fixtures/versions/Tasks.xcdatamodeld")
    try FileManager.default.copyItem(at: bundle, to: folder.appendingPathComponent("Tasks.xcdatamodeld"))
    let text =
      "<outline version=\"1\" model=\"Tasks.xcdatamodeld\" owner=\"me\">\r\n<Task title=\"x\" order=\"0\" owner=\"me\" priority=\"1\"/>\r\n</outline>"
    let expected = try Self.fmt(text, "fmt.outline", in: folder)
    #expect(String(decoding: expected, as: UTF8.self).contains("modelVersion=\"Tasks 4\""))
    let client = try LSPClient.initialized(root: folder)
    defer { _ = client.close() }
    let uri = folder.appendingPathComponent("open.outline").absoluteString
    client.open(uri, text)
    _ = client.diagnostics(uri)
    #expect(Self.appliedAsAnEditor(Self.formatting(client, uri), to: text).map { Array($0.utf8) } == expected)
    let edits = Self.rangeFormatting(client, uri, from: ["line": 0, "character": 0], to: Self.end(of: text))
    #expect(Self.appliedAsAnEditor(edits, to: text).map { Array($0.utf8) } == expected)
  }
}
