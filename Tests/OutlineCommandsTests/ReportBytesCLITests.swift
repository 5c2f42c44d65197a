import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// The exact bytes of `--format json` and `--format sarif` through the binaries, pinned by
/// snapshots in Tests/Fixtures/reports: several files and codes, related locations, a baseline's
/// new, unchanged and absent problems, a fix that could not be written, paths that could not be
/// checked, and Unicode, quotes, backslashes and control characters in paths and messages.
/// Key order, escaping, indentation and numbers are all in the bytes. What depends on the machine
/// is put in words before comparing: the working folder, the tool's version and the rules (the
/// whole catalog, which grows with every code), whose content and `ruleIndex`es are checked
/// against the catalog here instead.
///
/// `OUTLINE_RECORD_REPORTS=1` writes the snapshots anew (look at the diff before committing).
@Suite struct ReportBytesCLITests {
  static let snapshots = CLI.repository.appendingPathComponent("Tests/Fixtures/reports")
  static let record = ProcessInfo.processInfo.environment["OUTLINE_RECORD_REPORTS"] == "1"
  /// Links in SARIF point here, wherever the binary was built.
  static let environment = ["OUTLINE_DOCUMENTATION_URL": "https://docs.invalid/outline/"]

  /// Before the baseline: an unknown attribute that will go (absent) and one that stays (unchanged).
  static let original = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="Wörk">
      <Item order="0" title="Café ☕"/>
      <Item order="1" title="b" x="1"/>
      <Item order="2" cafè="1" title="c"/>
    </outline>

    """

  /// After it: a value with a tab and a newline, a duplicate order with its related place.
  static let edited = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="Wörk">
      <Item order="1" title="Café ☕"/>
      <Item order="x&#9;y&#10;z" title="b"/>
      <Item order="2" cafè="1" title="c">
        <Item order="0"/><Item order="0" title="ü"/>
      </Item>
    </outline>

    """

  /// Two problems of one code on one line (a second occurrence of its line hash).
  static let twice = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item order="0"/>
      <Item order="0" ü="1" ß="2"/>
    </outline>

    """

  /// A model with an error and a warning.
  static let model = ModelFixtures.model(
    """
    <entity name="Item"><attribute name="order" attributeType="Integer 64"/>
    <attribute name="has space" optional="YES" attributeType="String"/>
    <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item"/></entity>
    """)

  /// The folder of every run: `w` (the working folder) and, beside it, a file and a model outside it.
  static func folder() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "w/a.outline": original,
        "w/dé jà/q\"uo\\te\tx.outline": twice,
        "w/dé jà/c\u{1}tl.outline":
          "<?xml version=\"1.0\"?>\n<outline version=\"1\"><Item order=\"0\"/></outline>\n",
        "w/dé jà/z.outline": "<?xml version=\"1.0\"?>\n<outline version=\"1\">\u{1}<Item/>\n</outline>\n",
        "w/e.outline": "<outline version=\"1\">\n<Item order=\"1\"/><Item order=\"0\"/>\n</outline>\n",
        "w/fix.outline": twice,
        "w/ro.outline": twice,
        "out.outline": "<outline version=\"1\">\n  <Item order=\"1\"/>\n</outline>\n",
        "m/Bad.xcdatamodel/contents": model,
      ], in: folder)
    let notUTF8 = StreamingMapOrderTests.make(
      Array("dé jà/b".utf8) + [0xFF] + Array(".outline".utf8), in: folder.appendingPathComponent("w"))
    #expect(notUTF8, "the file system takes names that are not UTF-8")
    chmod(folder.appendingPathComponent("w/ro.outline").path, 0o444)
    return folder
  }

  /// The runs pinned, each with its snapshot's name: a lint with a baseline, a `--fix` that
  /// cannot write one file, and a model check.
  static func runs(_ format: String, in folder: URL) throws -> [(String, CLI.Output)] {
    let work = folder.appendingPathComponent("w")
    let written = try CLI.run("outline-lint", ["--write-baseline", "base.json", "a.outline"], in: work)
    #expect(written.status == 0, "\(written.stderr)")
    try CLI.write(["a.outline": edited], in: work)
    let paths = ["a.outline", "dé jà", "e.outline", "../out.outline", "gone\t.outline"]
    let baseline = try CLI.run(
      "outline-lint", ["--baseline", "base.json", "--format", format] + paths, in: work,
      environment: environment)
    let fix = try CLI.run(
      "outline-lint", ["--fix", "--format", format, "fix.outline", "ro.outline"], in: work,
      environment: environment)
    let model = try CLI.run(
      "outline", ["model", "check", "--format", format, "../m/Bad.xcdatamodel", "gone.xcdatamodel"], in: work,
      environment: environment)
    return [("lint-baseline", baseline), ("lint-fix", fix), ("model-check", model)]
  }

  @Test(arguments: ["json", "sarif"])
  func reportsKeepTheirBytes(format: String) throws {
    let folder = try Self.folder()
    for (name, output) in try Self.runs(format, in: folder) {
      #expect(output.status == 2, "\(name): \(output.stderr)")
      let normalized = try Self.normalized(output.stdout, format: format, folder: folder)
      let snapshot = Self.snapshots.appendingPathComponent("\(name).\(format)")
      if Self.record {
        try FileManager.default.createDirectory(at: Self.snapshots, withIntermediateDirectories: true)
        try Data(normalized.utf8).write(to: snapshot)
        continue
      }
      let expected = try String(contentsOf: snapshot, encoding: .utf8)
      #expect(normalized == expected, "\(name).\(format) differs from its snapshot:\n\(normalized)")
    }
  }

  /// `text` with the working folder, the version and the rules put in words, after checking the
  /// rules and each `ruleIndex` against the catalog.
  static func normalized(_ text: String, format: String, folder: URL) throws -> String {
    var text = text
    let real = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
    for path in Set([folder.path, real]) {
      text = text.replacingOccurrences(of: encoded(path), with: "$FOLDER")
    }
    text = text.replacingOccurrences(of: "\"\(ToolVersion.current)\"", with: "\"$VERSION\"")
    guard format == "sarif" else { return text }
    let document = try JSONValue.parse(Array(text.utf8))
    let run = try #require(document["runs"]?.arrayValue?.first)
    let catalog = DiagnosticCatalog.entries
    #expect(run["tool"]?["driver"]?["rules"] == expectedRules(catalog))
    for result in run["results"]?.arrayValue ?? [] {
      let index = catalog.firstIndex { $0.code.rawValue == result["ruleId"]?.stringValue }
      #expect(result["ruleIndex"]?.intValue == index, "\(result)")
    }
    // The rules' lines, from the line that opens them to the one that closes them.
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let open = try #require(lines.firstIndex { $0.hasSuffix("\"rules\": [") })
    let indent = lines[open].prefix { $0 == " " }
    let close = try #require(lines[open...].firstIndex { $0 == indent + "]" })
    lines.replaceSubrange(open...close, with: [indent + "\"rules\": \"$RULES\""])
    text = lines.joined(separator: "\n")
    return text.replacing(/"ruleIndex": [0-9]+/, with: "\"ruleIndex\": \"$INDEX\"")
  }

  /// SARIF's rules, one for each catalog entry, in the catalog's order.
  static func expectedRules(_ catalog: [DiagnosticCatalog.Entry]) -> JSONValue {
    .array(
      catalog.map { entry in
        let name = entry.title.split { !$0.isLetter && !$0.isNumber }.map {
          $0.prefix(1).uppercased() + $0.dropFirst()
        }.joined()
        return [
          "id": .string(entry.code.rawValue),
          "name": .string(name),
          "shortDescription": ["text": .string(entry.title)],
          "fullDescription": ["text": .string(entry.help)],
          "help": ["text": .string(entry.help)],
          "helpUri": .string(
            "https://docs.invalid/outline/Diagnostics.md#" + entry.code.rawValue.lowercased()),
          "defaultConfiguration": [
            "level": .string(
              entry.severity == .error ? "error" : entry.severity == .warning ? "warning" : "note")
          ],
        ]
      })
  }

  /// `path` as SARIF's URIs spell it: every byte but unreserved characters, sub-delimiters and
  /// `/` percent-encoded.
  static func encoded(_ path: String) -> String {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=/".utf8)
    return path.utf8.map { allowed.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }
      .joined()
  }
}
