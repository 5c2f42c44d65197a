import Foundation
import OutlineJSON
import TestSupport
import Testing

/// Core Data semantics through `outline-lint`, as a user runs it: inverse
/// pairs, uniqueness constraints, the rest of the model language.
@Suite(.serialized) struct SemanticsCLITests {
  static let libraryModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Library">
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="library" inverseEntity="Book"/>
        </entity>
        <entity name="Author">
            <relationship name="books" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
        <entity name="Book">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="library" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="books" inverseEntity="Library"/>
            <relationship name="author" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <relationship name="books" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
        </entity>
    </model>
    """

  @Test func inverseWrittenOnOneSideOnly() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Library.xcdatamodel/contents": Self.libraryModel,
        "books.outline": """
        <outline model="Library.xcdatamodel">
          <Book title="Dune" author="a1" tags="t1"/>
          <Author xml:id="a1"/>
          <Tag xml:id="t1"/>
        </outline>

        """,
        "broken.outline": """
        <outline model="Library.xcdatamodel">
          <Book title="Dune" author="a1"/>
          <Author xml:id="a1"/>
          <Tag xml:id="t1"/>
        </outline>

        """,
      ], in: folder)
    let clean = try CLI.run("outline-lint", ["books.outline"], in: folder)
    #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
    let broken = try CLI.run("outline-lint", ["broken.outline"], in: folder)
    #expect(broken.status == 1)
    #expect(
      broken.stdout.contains(
        "broken.outline:4:16: error[OL503]: 'Tag' 't1' needs 'books' (not optional): it does not write it and no object names it through 'tags'"
      ), "\(broken.stdout)")
  }

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

  static let accountsModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Account">
            <attribute name="login" attributeType="String"/>
            <attribute name="number" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <attribute name="loginLength" attributeType="Integer 64" derived="YES" derivationExpression="login.length"/>
            <fetchedProperty name="sameNumber" optional="YES">
                <fetchRequest name="fetchedPropertyFetchRequest" entity="Account" predicateString="number == $FETCH_SOURCE.number"/>
            </fetchedProperty>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="number"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
        </entity>
        <entity name="Admin" parentEntity="Account"/>
    </model>
    """

  @Test func uniquenessConstraintDuplicates() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Accounts.xcdatamodel/contents": Self.accountsModel,
        "accounts.outline": """
        <outline model="Accounts.xcdatamodel">
          <Account login="ann" number="7"/>
          <Account login="bob" number="8"/>
          <Admin login="cy" number="007"/>
        </outline>

        """,
      ], in: folder)
    let run = try CLI.run("outline-lint", ["accounts.outline"], in: folder)
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        accounts.outline:4:29: error[OL505]: This 'Admin' has the same 'number' as an earlier object: the uniqueness constraint of 'Account' allows one
          accounts.outline:2:32: note: the first object with these values
        1 error, 0 warnings in 1 file

        """, "\(run.stdout)")
    let explain = try CLI.run("outline", ["explain", "OL505"])
    #expect(explain.status == 0 && explain.stdout.contains("Uniqueness constraint violated"))
  }

  @Test func derivedAndFetchedProperties() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Accounts.xcdatamodel/contents": Self.accountsModel,
        "clean.outline": "<outline model=\"Accounts.xcdatamodel\"><Account login=\"ann\"/></outline>\n",
        "written.outline": """
        <outline model="Accounts.xcdatamodel">
          <Account login="ann" loginLength="3" sameNumber="x"/>
        </outline>

        """,
      ], in: folder)
    // The derived loginLength is not optional and has no default, yet is never required.
    let clean = try CLI.run("outline-lint", ["clean.outline"], in: folder)
    #expect(clean.status == 0, "\(clean.stdout)")
    // Nor in the JSON form.
    try CLI.write(
      [
        "clean.json":
          "{\"@outline\":1,\"@model\":\"Accounts.xcdatamodel\",\"@objects\":[{\"@entity\":\"Account\",\"login\":\"ann\"}]}\n"
      ], in: folder)
    let converted = try CLI.run("outline", ["convert", "clean.json", "-o", "converted.outline"], in: folder)
    #expect(converted.status == 0, "\(converted.stderr)")
    let written = try CLI.run("outline-lint", ["written.outline"], in: folder)
    #expect(written.status == 1)
    #expect(
      written.stdout.contains(
        "written.outline:2:24: warning[OL206]: 'loginLength' is derived (login.length): Core Data computes it and overwrites this value; remove it"
      ), "\(written.stdout)")
    #expect(
      written.stdout.contains(
        "written.outline:2:40: error[OL203]: 'sameNumber' is a fetched property of 'Account': a saved query Core Data evaluates when it is read, never stored; remove it"
      ))
  }

  @Test func modelCheckRefusesBadConstraintsAndComposites() throws {
    let folder = try CLI.temporaryFolder()
    let broken = Self.accountsModel.replacingOccurrences(
      of: "<constraint value=\"number\"/>", with: "<constraint value=\"numbr\"/>"
    ).replacingOccurrences(
      of: "<entity name=\"Admin\" parentEntity=\"Account\"/>",
      with:
        "<entity name=\"Admin\" parentEntity=\"Account\"><attribute name=\"place\" optional=\"YES\" attributeType=\"Composite\" composite=\"Place\"/></entity>"
    )
    try CLI.write(["Broken.xcdatamodel/contents": broken], in: folder)
    let run = try CLI.run("outline", ["model", "check", "Broken.xcdatamodel"], in: folder)
    #expect(run.status == 1)
    #expect(
      run.stdout.contains("error[OM213]: The uniqueness constraint of 'Account' names 'numbr'"),
      "\(run.stdout)")
    #expect(
      run.stdout.contains("error[OM214]: composite 'Place' of 'Admin.place' is not a composite of the model"))
  }

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
