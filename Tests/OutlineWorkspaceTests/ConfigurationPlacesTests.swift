import Foundation
import OutlineCore
import TestSupport
import Testing

@testable import OutlineWorkspace

/// What a configuration file's reader says of it, in process, at its places as `outline-lint`
/// prints them (`.outline.json:line:col: error[OC100]: message`): a key written twice, a rule
/// for a code no document has, a long key quoted short and escaped. (That such a configuration
/// is exit 2 goes through the binary in ConfigurationCLITests.)
@Suite struct ConfigurationPlacesTests {
  /// The configuration that applies to `name` in `folder`.
  static func configuration(for name: String, in folder: URL) throws -> Configuration {
    try #require(ConfigurationFinder().configuration(for: folder.appendingPathComponent(name).path))
  }

  /// Its problems, one line each as the text output writes them.
  static func problems(_ configuration: Configuration) -> [String] {
    configuration.diagnostics.map { diagnostic in
      let position = configuration.source.position(of: diagnostic.range.start, unit: .scalar)
      return
        ".outline.json:\(position.line + 1):\(position.column + 1): \(diagnostic.severity)[\(diagnostic.code)]: \(MessageText.singleLine(diagnostic.message))"
    }
  }

  @Test func aKeyWrittenTwiceIsAProblemAtTheSecond() throws {
    let folder = try Scratch.folder("configuration-places")
    try CLI.write(
      [
        ".outline.json": """
        {"rules": {"OL402": "off", "OL402": "error"},
         "models": [{"files": "*.outline", "model": "A.xcdatamodel", "files": "x"}],
         "exclude": [], "exclude": ["b"]}

        """,
        "a.outline": "<outline/>\n",
      ], in: folder)
    let problems = Self.problems(try Self.configuration(for: "a.outline", in: folder))
    #expect(
      problems.contains(
        ".outline.json:1:28: error[OC100]: 'OL402' is written twice in this object; keep one"),
      "\(problems)")
    #expect(problems.contains { $0.hasPrefix(".outline.json:2:62: error[OC100]: 'files' is written twice") })
    #expect(
      problems.contains { $0.hasPrefix(".outline.json:3:17: error[OC100]: 'exclude' is written twice") })
  }

  @Test func aRuleForACodeNoDocumentHasIsAConfigurationProblem() throws {
    let folder = try Scratch.folder("configuration-places")
    try CLI.write(
      [
        "a.outline": "<outline version=\"1\"><Item order=\"0\" title=\"a\"/></outline>\n",
        ".outline.json": #"{"rules": {"OM200": "off"}}"#,
      ], in: folder)
    let problems = Self.problems(try Self.configuration(for: "a.outline", in: folder))
    #expect(
      problems.contains { $0.contains("OC100") && $0.contains("rules set the level of OL codes only") },
      "\(problems)")
  }

  /// A key of 500 characters holding an escape sequence is quoted as 60 characters then `...`,
  /// the escape written out.
  @Test func messagesQuoteShortEscapedExcerpts() throws {
    let folder = try Scratch.folder("configuration-places")
    let key = "evil\\u001b[31m" + String(repeating: "k", count: 500)
    try CLI.write([".outline.json": "{\"\(key)\": 1}", "a.outline": "<outline/>\n"], in: folder)
    let problems = Self.problems(try Self.configuration(for: "a.outline", in: folder))
    let line = problems.first { $0.contains("OC100") } ?? ""
    #expect(
      line.contains("Unknown key 'evil\\u{1B}[31m" + String(repeating: "k", count: 51) + "...'"), "\(line)")
    #expect(!problems.joined().contains("\u{1B}"))
    #expect(!line.contains(String(repeating: "k", count: 52)))
  }

  /// Text after the configuration's object is an OC100 at that text; the documents are still
  /// checked, with the default configuration.
  @Test(arguments: [
    (#"{"rules":{"OL401":"off"}}}"#, 26),
    (#"{"rules":{"OL401":"off"}} {"rules":{}}"#, 27),
  ])
  func textAfterTheConfigurationObject(configuration: String, column: Int) throws {
    let folder = try Scratch.folder("configuration-places")
    let broken = """
      <?xml version="1.0" encoding="UTF-8"?>
      <outline version="1">
        <Item order="0" title="a"/>
        <Item order="0" title="b"/>
      </outline>

      """
    try CLI.write([".outline.json": configuration, "a.outline": broken], in: folder)
    let problems = Self.problems(try Self.configuration(for: "a.outline", in: folder))
    #expect(
      problems.contains(
        ".outline.json:1:\(column): error[OC100]: Invalid JSON (the default configuration applies): "
          + "Unexpected text after the JSON value"), "\(problems)")
    let lines = try InProcessLint.lines("a.outline", in: folder)
    #expect(lines.contains { $0.hasPrefix("a.outline:4:") }, "\(lines)")
  }
}
