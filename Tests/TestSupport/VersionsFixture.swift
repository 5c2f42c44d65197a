import Foundation

/// The four-version `Tasks.xcdatamodeld` of the fixtures, with the version-1 document
/// `v1.outline`: the versioning tests' project, in process and through the binaries.
public enum VersionsFixture {
  /// The folder of the fixtures (`Tests/Fixtures/versions`).
  public static let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures/versions")

  /// A fresh folder holding the model and `v1.outline`.
  public static func project() throws -> URL {
    let folder = try CLI.temporaryFolder()
    for name in ["Tasks.xcdatamodeld", "v1.outline"] {
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    return folder
  }

  /// The text of the file `name` in `folder`.
  public static func read(_ folder: URL, _ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }
}
