import Foundation
import OutlineJSON
import TestSupport
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

  /// Quick fixes act only on diagnostics the server still reports: with the
  /// code on, a fix for the diagnostic the client sends back; off in the
  /// configuration or by a comment (a stale diagnostic sent anyway), none.
  @Test(arguments: ["OL401", "OL206", "OL510"])
  func serverQuickFixesOnlyActOnReportedDiagnostics(_ code: String) throws {
    let folder = try CLI.temporaryFolder()
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model>
          <entity name="Account">
              <attribute name="login" attributeType="String"/>
              <attribute name="order" optional="YES" attributeType="Integer 64"/>
              <attribute name="length" attributeType="Integer 64" derived="YES" derivationExpression="login.length"/>
              <relationship name="children" optional="YES" toMany="YES" destinationEntity="Account" inverseName="parent" inverseEntity="Account"/>
              <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Account" inverseName="children" inverseEntity="Account"/>
          </entity>
      </model>

      """
    let body: String
    switch code {
    case "OL401": body = #"<Account login="a" order="0"/><Account login="b" order="0"/>"#
    case "OL206": body = #"<Account login="a" order="0" length="1"/>"#
    default: body = #"<Account login="a" order="0" xml:id="1st"/>"#
    }
    try CLI.write(["A.xcdatamodel/contents": model], in: folder)
    func quickFixes(_ text: String, configuration: String? = nil, sendBack stale: JSONValue? = nil) throws
      -> [String]
    {
      let project = try CLI.temporaryFolder()
      try FileManager.default.copyItem(
        at: folder.appendingPathComponent("A.xcdatamodel"),
        to: project.appendingPathComponent("A.xcdatamodel"))
      if let configuration { try CLI.write([".outline.json": configuration], in: project) }
      let uri = project.appendingPathComponent("doc.outline").absoluteString
      let client = try LSPClient()
      defer { _ = client.close() }
      _ = client.initialize()
      client.open(uri, text)
      let published = client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
      let sent = published.filter { $0["code"]?.stringValue == code }
      let diagnostics: [JSONValue] = sent.isEmpty ? (stale.map { [$0] } ?? []) : sent
      guard let first = diagnostics.first, let start = first["range"]?["start"] else { return [] }
      return client.codeActions(
        uri, line: start["line"]!.intValue!, character: start["character"]!.intValue!,
        diagnostics: .array(diagnostics)
      )
      .filter { $0["kind"]?.stringValue == "quickfix" }.compactMap { $0["title"]?.stringValue }
    }
    let text = "<outline version=\"1\" model=\"A.xcdatamodel\">\(body)</outline>\n"
    // On: the published diagnostic gets its quick fix.
    let on = try quickFixes(text)
    #expect(!on.isEmpty, "\(code): no quick fix")
    // The same diagnostic, as the client had it before the user turned the code off.
    let published = try Self.published(code, text: text, model: folder)
    let off = try quickFixes(text, configuration: "{\"rules\": {\"\(code)\": \"off\"}}", sendBack: published)
    #expect(off.isEmpty, "\(code) off: \(off)")
    let commented = text.replacingOccurrences(
      of: "<outline version=\"1\" model=\"A.xcdatamodel\">",
      with: "<outline version=\"1\" model=\"A.xcdatamodel\"><!-- outline-disable \(code) -->")
    let offset = "<!-- outline-disable \(code) -->".utf16.count
    var shifted = published
    if case .object(var members) = published, let range = published["range"] {
      func moved(_ point: JSONValue?) -> JSONValue {
        ["line": point?["line"] ?? 0, "character": .int((point?["character"]?.intValue ?? 0) + offset)]
      }
      members = members.map {
        $0.0 == "range" ? ("range", ["start": moved(range["start"]), "end": moved(range["end"])]) : $0
      }
      shifted = .object(members)
    }
    let disabled = try quickFixes(commented, sendBack: shifted)
    #expect(disabled.isEmpty, "\(code) disabled: \(disabled)")
  }

  /// The diagnostic with `code` the server publishes for `text` (model in `model`).
  static func published(_ code: String, text: String, model: URL) throws -> JSONValue {
    let project = try CLI.temporaryFolder()
    try FileManager.default.copyItem(
      at: model.appendingPathComponent("A.xcdatamodel"), to: project.appendingPathComponent("A.xcdatamodel"))
    let uri = project.appendingPathComponent("doc.outline").absoluteString
    let client = try LSPClient()
    defer { _ = client.close() }
    _ = client.initialize()
    client.open(uri, text)
    let all = client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
    return try #require(all.first { $0["code"]?.stringValue == code }, "\(all)")
  }
}
