import Foundation
import OutlineCore
import TestSupport
import Testing

/// What `outline-lint` reports for files on disk, in process (``InProcessLint``): a pattern
/// matched against the whole value in XML and in the JSON form, a configuration's `models` glob
/// matched by character, and OL108 turned off by a document's own comments.
@Suite struct LintInProcessTests {
  static let testModel: String = {
    let url = CLI.repository.appendingPathComponent("Tests/Fixtures/models/Test.xcdatamodel/contents")
    return try! String(contentsOf: url, encoding: .utf8)
  }()

  static func outline(_ items: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\" model=\"Test.xcdatamodel\">\n\(items)</outline>\n"
  }

  /// A regular expression matches the whole value, as Core Data's MATCHES does: a line end
  /// after the match is not part of it, in XML (`&#10;`) and in the JSON form (`\n`).
  @Test func aLineEndAfterAPatternsMatchIsNotMatched() throws {
    let folder = try Scratch.folder("lint-in-process")
    try CLI.write(
      [
        "Test.xcdatamodel/contents": Self.testModel,
        "a.outline": Self.outline(
          "  <Item order=\"0\" code=\"ABC&#10;\"/>\n  <Item order=\"1\" code=\"ABC\"/>\n"),
        "b.outline.json":
          #"{"@model":"Test.xcdatamodel","children":[{"@entity":"Item","order":0,"code":"ABC\n"}]}"#,
      ], in: folder)
    let xml = try InProcessLint.lines("a.outline", in: folder)
    #expect(xml.contains { $0.hasPrefix("a.outline:3:25: error[OL302]") }, "\(xml)")
    #expect(!xml.contains { $0.hasPrefix("a.outline:4:") }, "\(xml)")
    let json = try InProcessLint.lines("b.outline.json", in: folder)
    #expect(json.contains { $0.hasPrefix("b.outline.json:1:") && $0.contains("OL302") }, "\(json)")
  }

  /// The globs of `.outline.json` match characters, not bytes: `?` in `models` matches `é`.
  @Test func aModelsGlobMatchesByCharacter() throws {
    let folder = try Scratch.folder("lint-in-process")
    let document = "<outline><Item order=\"1\"/></outline>"
    try CLI.write(
      [
        ".outline.json": #"{"models": [{"files": "?.outline", "model": "M.xcdatamodel"}]}"#,
        "M.xcdatamodel/contents": """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model><entity name="Thing"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/></entity></model>
        """,
        "é.outline": document, "a.outline": document,
      ], in: folder)
    for name in ["a.outline", "é.outline"] {
      let lines = try InProcessLint.lines(name, in: folder)
      #expect(
        lines.contains("\(name):1:11: error[OL200]: 'Item' is not an entity of the model"), "\(lines)")
    }
  }

  static func third(comment: String) -> String {
    """
    \(comment)
    <outline version="1" model="Tasks.xcdatamodeld" modelVersion="Tasks 3" title="Home" owner="me">
      <Task title="A" order="0" owner="me" summary="s"/>
    </outline>

    """
  }

  /// OL108 obeys the document's own `outline-disable` comments, as every other code does.
  @Test(arguments: [
    ("<!-- outline-disable OL108 -->", false),
    ("<!-- outline-disable-next OL108 -->", false),
    ("<!-- outline-disable OL206 -->", true),
    ("<!-- outline-disable-next OL101 -->", true),
    ("<!-- a comment -->", true),
  ])
  func aCommentTurnsOL108OffForItsDocument(comment: String, reported: Bool) throws {
    let folder = try Scratch.folder("lint-in-process")
    try FileManager.default.copyItem(
      at: CLI.repository.appendingPathComponent("Tests/Fixtures/versions/Tasks.xcdatamodeld"),
      to: folder.appendingPathComponent("Tasks.xcdatamodeld"))
    try CLI.write(["doc.outline": Self.third(comment: comment)], in: folder)
    let lines = try InProcessLint.lines("doc.outline", in: folder)
    #expect(!lines.contains { $0.contains("error[") }, "\(lines)")
    #expect(lines.contains { $0.contains("[OL108]") } == reported, "\(comment): \(lines)")
  }

  /// A document declared US-ASCII keeps its positions, streamed (over a megabyte) or read
  /// whole; a byte that is not ASCII contradicts the declaration, at its place.
  @Test func anASCIIDeclarationKeepsPositions() throws {
    let folder = try Scratch.folder("lint-in-process")
    var large = "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<outline version=\"1\" title=\"T\">\n"
    for index in 0..<30_000 {
      large += "  <Item xml:id=\"i\(index)\" title=\"item \(index)\" order=\"\(index)\"/>\n"
    }
    large += "  <Item order=\"30000\" bogus=\"x\"/>\n</outline>\n"
    let small =
      "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<outline version=\"1\" title=\"T\">\n"
      + "  <Item order=\"0\" bogus=\"x\"/>\n</outline>\n"
    try CLI.write(["large.outline": large, "small.outline": small], in: folder)
    #expect(large.utf8.count > 1 << 20)
    let lines =
      try InProcessLint.lines("large.outline", in: folder) + InProcessLint.lines("small.outline", in: folder)
    #expect(lines.contains { $0.hasPrefix("large.outline:30003:23: error[OL203]") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("small.outline:3:19: error[OL203]") }, "\(lines)")
    #expect(lines.filter { $0.contains("error[") }.count == 2, "\(lines)")
    try CLI.write(
      [
        "accent.outline": small.replacingOccurrences(
          of: "order=\"0\"", with: "title=\"caf\u{E9}\" order=\"0\"")
      ],
      in: folder)
    let accent = try InProcessLint.lines("accent.outline", in: folder)
    #expect(
      accent.contains {
        $0.hasPrefix(
          "accent.outline:3:19: error[OL100]: The file declares US-ASCII, but this byte (0xC3) is not ASCII")
      }, "\(accent)")
  }

  /// A model the document names outside its project is the document's error, at its `model`.
  @Test func aModelTheDocumentNamesOutsideTheProjectIsItsError() throws {
    let folder = try Scratch.folder("lint-in-process")
    try CLI.write(
      [
        "models/M.xcdatamodel/contents": "<model/>",
        "proj/a.outline": "<outline model=\"../models/M.xcdatamodel\"><Item order=\"0\"/></outline>\n",
        "proj/.outline.json": "{}",
      ], in: folder)
    let lines = try InProcessLint.lines("proj/a.outline", in: folder)
    #expect(
      lines.contains {
        $0.hasPrefix("proj/a.outline:1:17: error[OL106]: The model '../models/M.xcdatamodel' is outside")
      }, "\(lines)")
  }

  /// Real OPML files are not outline files, but the linter takes every one (malformed, other
  /// encodings, HTML) with a diagnostic and never a crash: each is not an outline (OL101) or not
  /// well-formed or not UTF-8 (OL100).
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func everyCorpusOPMLFileGetsDiagnosticsNotACrash() throws {
    let corpus = Corpus.folder("opml")
    let names = Corpus.names(in: "opml").sorted()
    #expect(names.count >= 30)
    for name in names {
      let lines = try InProcessLint.lines(name, in: corpus)
      #expect(lines.contains { $0.contains("[OL101]") || $0.contains("[OL100]") }, "\(name): \(lines)")
    }
  }

  /// A file with no root element says so, as xmllint does, at the place it is about: empty or
  /// white space only, text where a tag should start, only a declaration and a comment.
  @Test(arguments: [
    ("", "1:1: error[OL100]: Document is empty"),
    ("  \n\n", "3:1: error[OL100]: Document is empty"),
    ("\n  hello <outline/>", "2:3: error[OL100]: Start tag expected, '<' not found"),
    ("{}", "1:1: error[OL100]: Start tag expected, '<' not found"),
    ("<?xml version=\"1.0\"?>\n<!-- c -->\n", "3:1: error[OL100]: The document has no root element"),
  ])
  func aFileWithoutARootSaysSo(text: String, expected: String) throws {
    let folder = try Scratch.folder("lint-in-process")
    try CLI.write(["a.outline": text], in: folder)
    let lines = try InProcessLint.lines("a.outline", in: folder)
    #expect(lines.first == "a.outline:" + expected, "\(lines)")
  }
}
