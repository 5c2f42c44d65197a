import Foundation
import OutlineJSON
import TestSupport
import Testing

/// The server and `outline-lint` say the same about a document: the same
/// codes at the same places, for the Core Data semantics and the value rules
/// (inverses from either side, uniqueness, derived attributes, dates,
/// numbers, ids, a model that cannot be read).
@Suite struct ServerAgreesWithLintTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model>
        <entity name="Library">
            <relationship name="authors" optional="YES" toMany="YES" destinationEntity="Author" inverseName="library" inverseEntity="Author"/>
            <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="library" inverseEntity="Tag"/>
        </entity>
        <entity name="Author">
            <attribute name="login" attributeType="String"/>
            <attribute name="born" optional="YES" attributeType="Date"/>
            <attribute name="rating" optional="YES" attributeType="Float"/>
            <attribute name="loginLength" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="login.length"/>
            <relationship name="library" optional="YES" maxCount="1" destinationEntity="Library" inverseName="authors" inverseEntity="Library"/>
            <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="login"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Book">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <relationship name="library" optional="YES" maxCount="1" destinationEntity="Library" inverseName="tags" inverseEntity="Library"/>
            <relationship name="books" toMany="YES" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
        </entity>
    </model>
    """

  static let documents: [String: String] = [
    // t1 is named from the book's side (enough, as Core Data keeps both sides); t2 by nobody.
    "inverse": """
    <outline model="Authors.xcdatamodel">
      <Author login="frank"><Book title="Dune" tags="t1"/></Author>
      <Tag xml:id="t1"/>
      <Tag xml:id="t2"/>
    </outline>

    """,
    "uniqueness": """
    <outline model="Authors.xcdatamodel">
      <Author login="frank"><Book title="Dune"/></Author>
      <Author login="frank"><Book title="Emma"/></Author>
    </outline>

    """,
    "values": """
    <outline model="Authors.xcdatamodel">
      <Author xml:id="1st" login="frank" born="2023-02-29T10:00Z" rating="1e39" loginLength="5"/>
    </outline>

    """,
    "model": """
    <outline model="Missing.xcdatamodel"><Author login="x"/></outline>

    """,
  ]

  /// The codes each document must get (so the comparison is about something).
  static let expected: [String: Set<String>] = [
    "inverse": ["OL503"], "uniqueness": ["OL505"], "values": ["OL206", "OL300", "OL510"], "model": ["OL102"],
  ]

  @Test(arguments: documents.keys.sorted())
  func sameCodesAtTheSamePlaces(_ name: String) throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["Authors.xcdatamodel/contents": Self.model, "\(name).outline": Self.documents[name]!], in: folder)
    let (fromLint, fromServer) = try Self.diagnostics("\(name).outline", Self.documents[name]!, in: folder)
    #expect(Set(fromLint.map { String($0.prefix(5)) }) == Self.expected[name]!, "\(name): \(fromLint)")
    #expect(fromServer.sorted() == fromLint.sorted(), "\(name)")
  }

  /// The diagnostics of the file `name` in `folder`, holding `text`, as `outline-lint --format
  /// json` reports them (it must find an error) and as the server publishes them for `text`
  /// opened: `code line:column`, 0-based, then the message when `messages`. (ASCII documents:
  /// UTF-16 characters are the same as the linter's columns.)
  static func diagnostics(_ name: String, _ text: String, in folder: URL, messages: Bool = false) throws
    -> (lint: [String], server: [String])
  {
    let lint = try CLI.run("outline-lint", ["--format", "json", name], in: folder)
    #expect(lint.status == 1, "\(lint.stdout)\(lint.stderr)")
    let report = try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as! [String: Any]
    let file = (report["files"] as! [[String: Any]])[0]
    let fromLint = (file["diagnostics"] as! [[String: Any]]).map { diagnostic -> String in
      let start = (diagnostic["range"] as! [String: Any])["start"] as! [String: Any]
      return "\(diagnostic["code"]!) \(start["line"] as! Int - 1):\(start["column"] as! Int - 1)"
        + (messages ? " \(diagnostic["message"]!)" : "")
    }
    let uri = folder.appendingPathComponent(name).absoluteString
    let client = try LSPClient()
    defer { _ = client.close() }
    _ = client.initialize()
    client.open(uri, text)
    let published = client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
    let fromServer = published.map { diagnostic in
      let start = diagnostic["range"]!["start"]!
      return
        "\(diagnostic["code"]!.stringValue!) \(start["line"]!.intValue!):\(start["character"]!.intValue!)"
        + (messages ? " \(diagnostic["message"]!.stringValue!)" : "")
    }
    return (fromLint, fromServer)
  }
}
