import Foundation
import OutlineCore
import OutlineJSON
import TestSupport

/// The four-version `Tasks.xcdatamodeld` of the fixtures, with the version-1 document `v1.outline`.
enum VersionsFixture {
  static let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures/versions")

  /// A fresh folder holding the model and `v1.outline`.
  static func project() throws -> URL {
    let folder = try CLI.temporaryFolder()
    for name in ["Tasks.xcdatamodeld", "v1.outline"] {
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    return folder
  }
}
