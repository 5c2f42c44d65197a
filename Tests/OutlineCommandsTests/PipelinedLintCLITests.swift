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

  /// A file that declares US-ASCII is read as the UTF-8 it is: its positions are the file's,
  /// small or large (libxml2's own ASCII decoder counted from after the declaration, and a
  /// large file's start tags were read at those offsets).
  @Test func anASCIIDeclarationKeepsPositions() throws {
    let folder = try CLI.temporaryFolder()
    var large = "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<outline version=\"1\" title=\"T\">\n"
    for index in 0..<30_000 {
      large += "  <Item xml:id=\"i\(index)\" title=\"item \(index)\" order=\"\(index)\"/>\n"
    }
    large += "  <Item order=\"30000\" bogus=\"x\"/>\n</outline>\n"
    let small =
      "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<outline version=\"1\" title=\"T\">\n"
      + "  <Item order=\"0\" bogus=\"x\"/>\n</outline>\n"
    try CLI.write(["large.outline": large, "small.outline": small], in: folder)
    #expect(large.utf8.count > 1 << 20)
    let run = try CLI.run("outline-lint", ["large.outline", "small.outline"], in: folder)
    #expect(run.status == 1)
    #expect(run.stdout.contains("large.outline:30003:23: error[OL203]"), "\(run.stdout.prefix(500))")
    #expect(run.stdout.contains("small.outline:3:19: error[OL203]"))
    #expect(run.stdout.contains("2 errors"), "\(run.stdout.prefix(500))")
    // A byte that is not ASCII contradicts the declaration, at its place.
    try CLI.write(
      [
        "accent.outline": small.replacingOccurrences(
          of: "order=\"0\"", with: "title=\"caf\u{E9}\" order=\"0\"")
      ], in: folder)
    let accent = try CLI.run("outline-lint", ["accent.outline"], in: folder)
    #expect(accent.status == 1)
    #expect(
      accent.stdout.contains(
        "accent.outline:3:19: error[OL100]: The file declares US-ASCII, but this byte (0xC3) is not ASCII"),
      "\(accent.stdout)")
  }
}
