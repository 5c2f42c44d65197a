import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Core Data semantics where the binaries add something of their own: a real
/// model from outside the project (`modelRoots`) and the server's fix and
/// hover. The rules themselves are tested in process, in
/// OutlineValidationTests (SemanticsTests) and OutlineModelTests.
@Suite(.serialized) struct SemanticsCLITests {
  /// A real model whose change objects have two required parents: one by
  /// nesting, the other written as an id; the event's required revision is
  /// written only from the revision's side.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func corpusModelWithOneSideWritten() throws {
    let model = Corpus.folder("xcdatamodel").appendingPathComponent(
      "drewmccormack__ensembles__CDEEventStoreModel.xcdatamodeld/CDEEventStoreModel_2.xcdatamodel/contents"
    ).path
    let folder = try CLI.temporaryFolder()
    let document = """
      <outline model="\(model)" entity="CDEStoreModificationEvent" xml:id="ev" timestamp="2024-01-01T00:00Z">
        <CDEEventRevision persistentStoreIdentifier="store" storeModificationEvent="ev"/>
        <CDEObjectChange nameOfEntity="Person" globalIdentifier="g1"/>
        <CDEGlobalIdentifier xml:id="g1" globalIdentifier="x" nameOfEntity="Person"/>
      </outline>

      """
    try CLI.write(
      [
        // The model lives outside this project: the configuration allows it, as a user's would.
        ".outline.json": "{\"modelRoots\": [\"\(Corpus.folder("xcdatamodel").path)\"]}",
        "events.outline": document,
        "no-revision.outline": document.replacingOccurrences(of: " storeModificationEvent=\"ev\"", with: ""),
        "no-identifier.outline": document.replacingOccurrences(of: " globalIdentifier=\"g1\"", with: ""),
      ], in: folder)
    let clean = try CLI.run("outline-lint", ["events.outline"], in: folder)
    #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
    let noRevision = try CLI.run("outline-lint", ["--format", "json", "no-revision.outline"], in: folder)
    #expect(noRevision.status == 1)
    #expect(noRevision.stdout.components(separatedBy: "\"OL503\"").count == 2, "\(noRevision.stdout)")
    #expect(noRevision.stdout.contains("needs 'eventRevision'"))
    let noIdentifier = try CLI.run("outline-lint", ["no-identifier.outline"], in: folder)
    #expect(noIdentifier.status == 1)
    #expect(noIdentifier.stdout.contains("error[OL503]: 'CDEObjectChange' needs 'globalIdentifier'"))
  }

  static let accountsModel = ModelFixtures.numberedAccounts

  /// The server: the derived value's diagnostic has a quick fix that removes
  /// it, and an object's hover lists its entity's fetched properties.
  @Test func serverFixesDerivedValuesAndShowsFetchedProperties() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["Accounts.xcdatamodel/contents": Self.accountsModel], in: folder)
    let uri = folder.appendingPathComponent("open.outline").absoluteString
    let text =
      "<outline model=\"Accounts.xcdatamodel\">\n  <Account login=\"ann\" loginLength=\"3\"/>\n</outline>\n"
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, text)
    let published = client.diagnostics(uri, version: 1)?["diagnostics"]
    let diagnostics = published?.arrayValue ?? []
    #expect(diagnostics.map { $0["code"]?.stringValue } == ["OL206"], "\(String(describing: published))")
    let actions = client.codeActions(uri, line: 1, character: 24, diagnostics: published ?? [])
    let fix = try #require(actions.first { $0["kind"] == "quickfix" })
    let edits = workspaceEdits(fix["edit"])
    #expect(
      applyLSPEdits(edits, to: text)
        == "<outline model=\"Accounts.xcdatamodel\">\n  <Account login=\"ann\"/>\n</outline>\n")
    let hover = client.request(
      "textDocument/hover",
      ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 4]])
    let markdown = hover?["result"]?["contents"]?["value"]?.stringValue ?? ""
    #expect(markdown.contains("**sameNumber** → Account: `number == $FETCH_SOURCE.number`"), "\(markdown)")
    #expect(client.request("shutdown")?["result"] == .null)
    client.notify("exit", .null)
    #expect(client.close() == 0)
  }
}
