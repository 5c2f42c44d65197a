import Foundation
import TestSupport
import Testing

/// Text inside an element is reported where it starts, also when libxml2 hands it
/// over copied (non-ASCII text, references, carriage returns) and an `&` came
/// earlier in the file: outline-lint and the server's view of the same file agree.
@Suite struct TextPositionCLITests {
  @Test func textIsReportedWhereItStarts() throws {
    let folder = try CLI.temporaryFolder()
    let document = """
      <?xml version="1.0" encoding="UTF-8"?>
      <outline version="1">
        <Item title="R&amp;D" order="0"/>
        <Item title="plan" order="1">café text</Item>
        <Item title="x" order="2">a &amp; b</Item>
        <Item title="y" order="3">\r\n  über\r\n</Item>
      </outline>

      """
    try CLI.write(["t.outline": document], in: folder)
    let run = try CLI.run("outline-lint", ["--format", "github", "t.outline"], in: folder)
    #expect(run.status == 1)
    let places = run.stdout.split(separator: "\n").filter { $0.contains("OL105") }.map { line in
      line.split(separator: ",").filter { $0.hasPrefix("line=") || $0.hasPrefix("col=") }.joined(
        separator: ",")
    }
    #expect(places == ["line=4,col=32", "line=5,col=29", "line=7,col=3"], "\(run.stdout)")
  }
}
