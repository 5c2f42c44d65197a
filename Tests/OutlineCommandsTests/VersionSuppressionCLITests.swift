import Foundation
import TestSupport
import Testing

/// OL108 obeys the document's own `outline-disable` comments, as every other code does.
@Suite struct VersionSuppressionCLITests {
  static func third(comment: String) -> String {
    """
    \(comment)
    <outline version="1" model="Tasks.xcdatamodeld" modelVersion="Tasks 3" title="Home" owner="me">
      <Task title="A" order="0" owner="me" summary="s"/>
    </outline>

    """
  }

  @Test(arguments: [
    ("<!-- outline-disable OL108 -->", false),
    ("<!-- outline-disable-next OL108 -->", false),
    ("<!-- outline-disable OL206 -->", true),
    ("<!-- outline-disable-next OL101 -->", true),
    ("<!-- a comment -->", true),
  ])
  func aCommentTurnsOL108OffForItsDocument(comment: String, reported: Bool) throws {
    let folder = try VersionsCLITests.project()
    try CLI.write(["doc.outline": Self.third(comment: comment)], in: folder)
    let run = try CLI.run("outline-lint", ["--format", "json", "doc.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("\"OL108\"") == reported, "\(comment): \(run.stdout)")
    let text = try CLI.run("outline", ["lint", "doc.outline"], in: folder)
    #expect(text.stdout.contains("OL108") == reported)
  }
}
