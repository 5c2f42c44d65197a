import Foundation
import OutlineCore
import Testing

@testable import OutlineLSP

/// The server's OL108 obeys `outline-disable` comments, as `outline-lint` does.
@Suite struct VersionSuppressionTests {
  @Test func aCommentTurnsOL108OffAndRemovingItBringsItBack() throws {
    let versions = try VersionFeaturesTests()
    defer { try? FileManager.default.removeItem(at: versions.folder) }
    let body = VersionFeaturesTests.third.replacingOccurrences(of: "1️⃣", with: "")
    for (comment, reported) in [
      ("<!-- outline-disable OL108 -->\n", false), ("<!-- outline-disable-next OL108 -->\n", false),
      ("<!-- outline-disable-next OL206 -->\n", true), ("", true),
    ] {
      let (snapshot, _) = versions.open(comment + body, "doc\(comment.count).outline")
      let codes = snapshot.analysis.diagnostics.map(\.code)
      #expect(codes.contains(.migrationPending) == reported, "\(comment): \(codes)")
    }
  }
}
