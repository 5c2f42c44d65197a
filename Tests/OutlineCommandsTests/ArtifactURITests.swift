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
}
