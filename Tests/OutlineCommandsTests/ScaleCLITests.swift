import Foundation
import TestSupport
import Testing

/// Depth and size through the binaries (SPEC §9): a 100,000-deep chain and a
/// 1,000,000-item file, generated here, through lint, fmt and convert both ways.
@Suite(.serialized, .enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped)))
struct ScaleCLITests {
  @Test func deepChainThroughEveryCommand() throws {
    let folder = try CLI.temporaryFolder()
    let depth = 100_000
    var text = "<outline>\n"
    for level in 0..<depth { text += "<Item title=\"\(level)\" order=\"0\">" }
    text += String(repeating: "</Item>", count: depth) + "\n</outline>\n"
    try CLI.write(["deep.outline": text], in: folder)
    #expect(try CLI.run("outline-lint", ["deep.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["fmt", "deep.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline-lint", ["deep.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["convert", "deep.outline", "-o", "deep.json"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["convert", "deep.json", "-o", "back.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["convert", "back.outline", "-o", "again.json"], in: folder).status == 0)
    #expect(
      try Data(contentsOf: folder.appendingPathComponent("again.json"))
        == Data(contentsOf: folder.appendingPathComponent("deep.json")))
  }

  @Test func millionItemsConvertBothWays() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["big.outline": GeneratedOutline.twoLevels(parents: 1_000, children: 999)], in: folder)
    #expect(try CLI.run("outline-lint", ["big.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["convert", "big.outline", "-o", "big.json"], in: folder).status == 0)
    #expect(try CLI.run("outline", ["convert", "big.json", "-o", "back.outline"], in: folder).status == 0)
    let lint = try CLI.run("outline-lint", ["back.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")
  }
}
