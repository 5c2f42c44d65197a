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
    let (fromLint, fromServer) = try Self.diagnostics(
      "doc.json", text, in: folder, messages: true)
    // At the @modelVersion value, else at the root's `{`.
    #expect(
      fromLint.contains { $0.hasPrefix(how == "recorded" ? "OL108 0:60 " : "OL108 0:0 ") }, "\(fromLint)")
    #expect(fromServer.sorted() == fromLint.sorted())
  }
}
