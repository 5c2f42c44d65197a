import Foundation
import TestSupport
import Testing

/// A file of a megabyte or more is checked on two threads, the second reading its start tags
/// in the chunks the file is read into; standard input goes through copies. Both must
/// report the same problems at the same places, wherever the chunks end.
@Suite struct PipelinedLintCLITests {
  /// About 3 MB: order gaps, duplicate and repeated ids, bad values, unknown attributes,
  /// text, comments, CRLF line ends, non-ASCII titles and one start tag longer than a
  /// megabyte (more than the chunks the pipeline keeps).
  static func document() -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\" title=\"big\">\n"
    var order = 0
    for index in 0..<40_000 {
      let end = index % 5 == 0 ? "\r\n" : "\n"
      if index % 997 == 0 { xml += "  <!-- section \(index) é -->" + end }
      if index == 20_000 {
        xml +=
          "  <Item title=\"\(String(repeating: "très long ", count: 120_000))\" order=\"\(order)\"/>" + end
      } else if index % 1_001 == 0 {
        xml += "  <Item title=\"gap\" order=\"\(order + 1)\"/>" + end
      } else if index % 1_003 == 0 {
        xml += "  <Item xml:id=\"dup\" title=\"d\(index)\" order=\"\(order)\"/>" + end
      } else if index % 1_009 == 0 {
        xml += "  <Item title=\"bad\" order=\"x\" colour=\"red\"/>" + end
      } else if index % 1_013 == 0 {
        xml += "  <Item title=\"with text\" order=\"\(order)\">stray 中文</Item>" + end
      } else if index % 3 == 0 {
        xml += "  <Item title=\"p\(index) &amp; 日本語\" order=\"\(order)\">" + end
        xml += "    <Item xml:id=\"c\(index)\" title=\"c\" order=\"0\"/>" + end + "  </Item>" + end
      } else {
        xml += "  <Item xml:id=\"i\(index)\" title=\"t\(index) Zoë\" order=\"\(order)\"/>" + end
      }
      order += 1
    }
    return xml + "</outline>\n"
  }

  @Test func aLargeFileAndStandardInputAgree() throws {
    let text = Self.document()
    #expect(text.utf8.count > 3_000_000)
    let folder = try CLI.temporaryFolder()
    try CLI.write(["big.outline": text], in: folder)
    let file = try CLI.run("outline-lint", ["--format", "json", "big.outline"], in: folder)
    let stdin = try CLI.run("outline-lint", ["--format", "json", "-"], in: folder, input: text)
    #expect(file.status == 1)
    #expect(stdin.status == 1)
    #expect(file.stdout.replacingOccurrences(of: "big.outline", with: "<stdin>") == stdin.stdout)
    let lines = try CLI.run("outline-lint", ["big.outline"], in: folder).stdout
    for code in ["OL105", "OL203", "OL300", "OL401", "OL500"] {
      #expect(lines.contains("[\(code)"), "\(code) missing")
    }
    #expect(lines.split(separator: "\n").count > 100)
  }
}
