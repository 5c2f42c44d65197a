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

  /// A name's bytes shown as text: UTF-8 as it is, each byte that is not UTF-8 (and each
  /// control character) as `\xFF`.
  @Test func bytesThatAreNotUTF8AreShownEscaped() {
    func shown(_ bytes: [UInt8]) -> String { PathText.displayed(bytes: bytes) }
    #expect(shown(Array("bad".utf8) + [0xFF] + Array("name.outline".utf8)) == #"bad\xFFname.outline"#)
    // A valid sequence stays; a cut one, an overlong one and a surrogate are escaped byte by byte.
    #expect(shown(Array("é".utf8) + [0xC3]) == #"é\xC3"#)
    #expect(shown([0xC0, 0xAF, 0x61]) == #"\xC0\xAFa"#)
    #expect(shown([0xED, 0xA0, 0x80]) == #"\xED\xA0\x80"#)
    #expect(shown(Array("a\nb\u{7F}😀".utf8)) == #"a\x0Ab\x7F"# + "😀")
    #expect(shown([]) == "")
    #expect(PathText.isUTF8(Array("é".utf8)) && !PathText.isUTF8([0xFF]))
  }
}
