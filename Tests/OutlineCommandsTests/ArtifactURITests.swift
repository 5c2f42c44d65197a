import OutlineJSON
import Testing

@testable import OutlineCommands

/// SARIF's `artifactLocation`s resolve: inside the working folder relative to `%SRCROOT%`,
/// anything else an absolute `file://` URI, every segment percent-encoded.
@Suite struct ArtifactURITests {
  let artifacts = ArtifactURI(workingFolder: "/work/my project")

  @Test func theBaseIsTheWorkingFolderEndingWithASlash() {
    #expect(artifacts.baseURI == "file:///work/my%20project/")
    #expect(ArtifactURI(workingFolder: "/").baseURI == "file:///")
    #expect(ArtifactURI(workingFolder: "/a/b/").baseURI == "file:///a/b/")
    #expect(ArtifactURI(workingFolder: nil).baseURI == nil)
  }

  @Test func filesInsideAreRelativeToTheBase() {
    let relative: JSONValue = ["uri": "docs/a%20b.outline", "uriBaseId": "%SRCROOT%"]
    for path in [
      "docs/a b.outline", "./docs/a b.outline", "docs/./x/../a b.outline",
      "/work/my project/docs/a b.outline",
      "/work//my project/docs/a b.outline",
    ] {
      #expect(artifacts.location(path) == relative, "\(path)")
    }
    #expect(
      ArtifactURI(workingFolder: "/").location("/etc/x.outline") == [
        "uri": "etc/x.outline", "uriBaseId": "%SRCROOT%",
      ])
  }

  @Test func filesOutsideAreAbsoluteFileURIs() {
    #expect(artifacts.location("/tmp/x.outline") == ["uri": "file:///tmp/x.outline"])
    #expect(artifacts.location("../other/ö#1.outline") == ["uri": "file:///work/other/%C3%B6%231.outline"])
    // A folder whose name only starts like the working folder's is outside it.
    #expect(
      artifacts.location("/work/my project2/a.outline") == ["uri": "file:///work/my%20project2/a.outline"])
    #expect(
      artifacts.location("/work/my%20project/a:b.outline") == [
        "uri": "file:///work/my%2520project/a%3Ab.outline"
      ])
  }

  @Test func standardInputAndAnUnknownFolderKeepTheirNames() {
    #expect(artifacts.location("<stdin>") == ["uri": "%3Cstdin%3E"])
    let unknown = ArtifactURI(workingFolder: nil)
    #expect(unknown.location("./a b.outline") == ["uri": "a%20b.outline"])
    #expect(unknown.location("/a/../b.outline") == ["uri": "file:///b.outline"])
  }

  /// A name that is not UTF-8 is encoded as its own bytes; sub-delimiters stay as they are,
  /// every other byte outside the unreserved characters and `/` is encoded.
  @Test func theBytesOfTheNameAreEncoded() {
    let name = Array("bad".utf8) + [0xFF] + Array("name.outline".utf8)
    #expect(artifacts.location(bytes: name) == ["uri": "bad%FFname.outline", "uriBaseId": "%SRCROOT%"])
    #expect(
      artifacts.location(bytes: Array("/tmp/".utf8) + [0xC3, 0x28, 0x0A] + Array(".outline".utf8))
        == ["uri": "file:///tmp/%C3(%0A.outline"])
    #expect(
      artifacts.location("a!$&'()*+,;=b [x]%@?.outline") == [
        "uri": "a!$&'()*+,;=b%20%5Bx%5D%25%40%3F.outline", "uriBaseId": "%SRCROOT%",
      ])
    #expect(ArtifactURI.encoded(Array(0...255)).count == 3 * 256 - 2 * (66 + 11 + 1))
  }

  /// A working folder whose name is not UTF-8 is the base by its own bytes, as a file's name is,
  /// and files inside it are relative to it.
  @Test func aWorkingFolderThatIsNotUTF8IsEncodedFromItsBytes() {
    let folder = Array("/work/w".utf8) + [0xFF] + Array("d".utf8)
    let artifacts = ArtifactURI(workingFolderBytes: folder)
    #expect(artifacts.baseURI == "file:///work/w%FFd/")
    #expect(
      artifacts.location(bytes: folder + Array("/a.outline".utf8)) == [
        "uri": "a.outline", "uriBaseId": "%SRCROOT%",
      ])
  }
}
