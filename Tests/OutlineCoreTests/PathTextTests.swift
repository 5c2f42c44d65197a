import Foundation
import OutlineCore
import Testing

/// `PathText.folder(of:)` answers as `NSString.deletingLastPathComponent` does, for the paths
/// that method survives, and for one-character paths, which it traps on (on Linux).
@Suite struct PathTextTests {
  @Test(arguments: [
    ("a/b", "a"), ("/a", "/"), ("/", "/"), ("", ""), ("a/b/", "a"), ("a//b", "a"), ("./a", "."),
    ("a/.", "a"), ("../a/b.outline", "../a"), ("/x/y/z", "/x/y"),
  ])
  func foldersAsNSStringGivesThem(path: String, folder: String) {
    #expect(PathText.folder(of: path) == folder)
    #expect((path as NSString).deletingLastPathComponent == folder)
  }

  @Test(arguments: ["x", ".", "b", "a"])
  func oneCharacterPathsHaveNoFolder(path: String) {
    #expect(PathText.folder(of: path) == "")
  }
}
