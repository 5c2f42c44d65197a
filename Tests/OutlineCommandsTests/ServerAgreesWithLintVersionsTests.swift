import Foundation
import OutlineJSON
import TestSupport
import Testing

extension ServerAgreesWithLintTests {
  /// A document written for an older version of a bundle (recorded, then
  /// inferred): OL108 from `outline-lint` and from the server at the same place.
  @Test(arguments: ["recorded", "inferred"])
  func aVersionedDocumentGetsTheSameOL108(_ how: String) throws {
    let folder = try VersionsCLITests.project()
    var text = try VersionsCLITests.read(folder, "v1.outline")
    if how == "inferred" { text = text.replacingOccurrences(of: " modelVersion=\"Tasks\"", with: "") }
    try CLI.write(["doc.outline": text], in: folder)
    let lint = try CLI.run("outline-lint", ["--format", "json", "doc.outline"], in: folder)
    #expect(lint.status == 1, "\(lint.stdout)\(lint.stderr)")
    let report = try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as! [String: Any]
    let file = (report["files"] as! [[String: Any]])[0]
    let fromLint = (file["diagnostics"] as! [[String: Any]]).map { diagnostic -> String in
      let start = (diagnostic["range"] as! [String: Any])["start"] as! [String: Any]
      return
        "\(diagnostic["code"]!) \(start["line"] as! Int - 1):\(start["column"] as! Int - 1) \(diagnostic["message"]!)"
    }
    #expect(
      fromLint.contains { $0.hasPrefix(how == "recorded" ? "OL108 1:62 " : "OL108 1:1 ") }, "\(fromLint)")

    let uri = folder.appendingPathComponent("doc.outline").absoluteString
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
