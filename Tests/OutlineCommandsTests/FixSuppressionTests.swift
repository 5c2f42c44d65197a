import Foundation
import Testing

/// Fixes follow suppression (issue 16, item 8): `--fix` and the server's
/// fix-all change only what is reported after the configuration's rules and
/// the suppression comments, for every fixable code.
@Suite struct FixSuppressionTests {
  /// One fixable problem alone in a document, and what the fixed document says.
  struct Case: CustomTestStringConvertible, Sendable {
    var code: String
    var children: String
    var fixed: String
    var testDescription: String { code }
  }

  static let cases = [
    Case(
      code: "OL400", children: #"<Item title="a" order="0"/><Item title="b"/>"#,
      fixed: #"<Item title="a" order="0"/><Item order="1" title="b"/>"#),
    Case(
      code: "OL401", children: #"<Item title="a" order="0"/><Item title="b" order="0"/>"#,
      fixed: #"<Item title="a" order="0"/><Item title="b" order="1"/>"#),
    Case(
      code: "OL402", children: #"<Item title="a" order="0"/><Item title="b" order="7"/>"#,
      fixed: #"<Item title="a" order="0"/><Item title="b" order="1"/>"#),
  ]

  static func document(_ children: String, comment: String = "") -> String {
    "<outline version=\"1\">\(comment)\(children)</outline>\n"
  }

  @Test(arguments: cases)
  func lintFixOnlyTouchesWhatIsReported(_ fix: Case) throws {
    let folder = try CLI.temporaryFolder()
    // On: fixed.
    try CLI.write(["on/x.outline": Self.document(fix.children)], in: folder)
    let on = try CLI.run("outline-lint", ["--fix", "on/x.outline"], in: folder)
    #expect(on.status == 0, "\(on.stdout)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("on/x.outline"), encoding: .utf8)
        == Self.document(fix.fixed))
    // Off in the configuration: not reported, not touched.
    let off = Self.document(fix.children)
    try CLI.write(
      ["off/.outline.json": "{\"rules\": {\"\(fix.code)\": \"off\"}}", "off/x.outline": off], in: folder)
    let configured = try CLI.run("outline-lint", ["--fix", "off/x.outline"], in: folder)
    #expect(configured.status == 0 && !configured.stdout.contains(fix.code), "\(configured.stdout)")
    #expect(try String(contentsOf: folder.appendingPathComponent("off/x.outline"), encoding: .utf8) == off)
    // Off by a comment: not reported, not touched.
    let commented = Self.document(fix.children, comment: "<!-- outline-disable \(fix.code) -->")
    try CLI.write(["comment/x.outline": commented], in: folder)
    let disabled = try CLI.run("outline-lint", ["--fix", "comment/x.outline"], in: folder)
    #expect(disabled.status == 0 && !disabled.stdout.contains(fix.code), "\(disabled.stdout)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("comment/x.outline"), encoding: .utf8) == commented
    )
  }

  @Test(arguments: cases)
  func serverFixAllOnlyTouchesWhatIsReported(_ fix: Case) throws {
    func fixAll(_ text: String) throws -> [String] {
      let client = try LSPClient.withOpenDocument("file:///tmp/fix-\(fix.code).outline", text)
      defer { _ = client.close() }
      return client.codeActions("file:///tmp/fix-\(fix.code).outline", line: 0, character: 0)
        .filter { $0["kind"]?.stringValue == "source.fixAll" }.compactMap { $0["title"]?.stringValue }
    }
    #expect(try fixAll(Self.document(fix.children)) == ["Renumber every broken sibling group"])
    let commented = Self.document(fix.children, comment: "<!-- outline-disable \(fix.code) -->")
    #expect(try fixAll(commented).isEmpty)
  }
}
