import Foundation
import OutlineJSON
import TestSupport
import Testing

extension ServerAgreesWithLintTests {
  /// A document written for an older version of a bundle (recorded, then
  /// inferred): OL108 from `outline-lint` and from the server at the same place.
  @Test(arguments: ["recorded", "inferred"])
  func aVersionedDocumentGetsTheSameOL108(_ how: String) throws {
    let folder = try VersionsFixture.project()
    var text = try VersionsFixture.read(folder, "v1.outline")
    if how == "inferred" { text = text.replacingOccurrences(of: " modelVersion=\"Tasks\"", with: "") }
    try CLI.write(["doc.outline": text], in: folder)
    let (fromLint, fromServer) = try Self.diagnostics("doc.outline", text, in: folder, messages: true)
    #expect(
      fromLint.contains { $0.hasPrefix(how == "recorded" ? "OL108 1:62 " : "OL108 1:1 ") }, "\(fromLint)")
    #expect(fromServer.sorted() == fromLint.sorted())
  }
}
