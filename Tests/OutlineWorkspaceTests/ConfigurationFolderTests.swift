import Foundation
import Testing

@testable import OutlineWorkspace

/// The finder spells a document's folder by string operations exactly as
/// `URL.standardizedFileURL` does (its answers are keyed and reported by it).
@Suite struct ConfigurationFolderTests {
  @Test(arguments: [
    "a.outline", "./a.outline", "d/e/a.outline", "d/../a.outline", "d//e/./a.outline", "../../x/y.outline",
    "/a.outline", "/../a.outline", "x/", "..", "/", ".", "//x//y/", "a/./../b/c", "a b/é.outline", "./-",
    "~/a.outline", "a/..", "...", ".x/./y/..", "d/e/", "/a/b/../../..",
  ])
  func foldersAreSpelledAsURLsSpellThem(_ path: String) {
    let expected = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
    #expect(ConfigurationFinder.folder(of: path) == expected)
    #expect(ConfigurationFinder.standardized(path) == URL(fileURLWithPath: path).standardizedFileURL.path)
  }
}
