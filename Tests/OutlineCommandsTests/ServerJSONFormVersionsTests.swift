import Foundation
import OutlineJSON
import TestSupport
import Testing

extension ServerAgreesWithLintTests {
  /// A document in the JSON form written for an older version (recorded, then
  /// inferred): OL108 from `outline-lint` and from the server at the same place.
  @Test(arguments: ["recorded", "inferred"])
  func aVersionedJSONDocumentGetsTheSameOL108(_ how: String) throws {
    var text = MigrateJSONFormCLITests.v1
    if how == "inferred" { text = text.replacingOccurrences(of: "\"@modelVersion\":\"Tasks\",", with: "") }
    let folder = try MigrateJSONFormCLITests.project(["doc.json": text])
    let lint = try CLI.run("outline-lint", ["--format", "json", "doc.json"], in: folder)
    #expect(lint.status == 1, "\(lint.stdout)\(lint.stderr)")
    let report = try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as! [String: Any]
    let file = (report["files"] as! [[String: Any]])[0]
    let fromLint = (file["diagnostics"] as! [[String: Any]]).map { diagnostic -> String in
      let start = (diagnostic["range"] as! [String: Any])["start"] as! [String: Any]
      return
        "\(diagnostic["code"]!) \(start["line"] as! Int - 1):\(start["column"] as! Int - 1) \(diagnostic["message"]!)"
    }
    // At the @modelVersion value, else at the root's `{`.
    #expect(
      fromLint.contains { $0.hasPrefix(how == "recorded" ? "OL108 0:60 " : "OL108 0:0 ") }, "\(fromLint)")

    let uri = folder.appendingPathComponent("doc.json").absoluteString
    let client = try LSPClient()
    defer { _ = client.close() }
    _ = client.initialize()
    client.open(uri, text)
    let published = client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
    let fromServer = published.map { diagnostic in
      let start = diagnostic["range"]!["start"]!
      return
        "\(diagnostic["code"]!.stringValue!) \(start["line"]!.intValue!):\(start["character"]!.intValue!) \(diagnostic["message"]!.stringValue!)"
    }
    #expect(fromServer.sorted() == fromLint.sorted())
  }
}
