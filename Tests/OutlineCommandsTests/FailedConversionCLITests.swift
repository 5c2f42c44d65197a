import Foundation
import TestSupport
import Testing

/// A conversion that fails leaves nothing behind: no output, and no temporary file beside it,
/// whether it failed on the first bytes or after a large document streamed through the
/// parser's thread (which held the output a moment after the command had finished).
@Suite struct FailedConversionCLITests {
  /// Over 1 MiB, so the parse runs on its own thread; the one error is at the very end.
  static var largeWithLastError: String {
    var text = "<?xml version=\"1.0\"?>\n<outline version=\"1\">\n"
    text.reserveCapacity(3 << 20)
    for index in 0..<60_000 { text += "  <Item order=\"\(index)\" title=\"t\"/>\n" }
    return text + "  <Item order=\"x\"/>\n</outline>\n"
  }

  @Test func aFailedConversionLeavesNoTemporaryFile() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "large.outline": Self.largeWithLastError,
        "small.outline": "<outline version=\"1\"><Item order=\"x\"/></outline>\n",
        "bad.json": "{\"@version\": 1, \"Item\": [{\"order\": \"x\"}]}\n",
      ], in: folder)
    for round in 0..<12 {
      for (input, output) in [
        ("large.outline", "large.json"), ("small.outline", "small.json"), ("bad.json", "bad.outline"),
      ] {
        let run = try CLI.run("outline", ["convert", input, "-o", output], in: folder)
        #expect(run.status == 1, "round \(round), \(input): \(run.stderr)")
      }
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      #expect(left == ["bad.json", "large.outline", "small.outline"], "round \(round)")
      if left.count != 3 { break }
    }
  }
}

/// `fmt` on a file it streams (over 16 MB) that differs early and does not parse at its end: the
/// temporary file begun at the first difference is gone when the command ends.
@Suite struct FailedFormatCLITests {
  @Test(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped)))
  func aRefusedStreamedFileLeavesNoTemporaryFile() throws {
    let folder = try CLI.temporaryFolder()
    var text = "<?xml version=\"1.0\"?>\n<outline version=\"1\">\n  <Item   order=\"0\" title=\"first\"/>\n"
    text.reserveCapacity(22 << 20)
    for index in 1..<600_000 { text += "  <Item order=\"\(index)\" title=\"t\"/>\n" }
    // Not well-formed at the very end: the root is never closed.
    text += "  <Item order=\"600000\"/>\n"
    #expect(text.utf8.count > 16 << 20)
    try CLI.write(["big.outline": text], in: folder)
    for round in 0..<4 {
      let run = try CLI.run("outline", ["fmt", "big.outline"], in: folder)
      #expect(run.status == 1, "round \(round): \(run.stderr)")
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(left == ["big.outline"], "round \(round)")
      if left.count != 1 { break }
    }
  }
}
