import Foundation
import Testing

/// With no path, the linter lints the current folder, as `ruff check` does, through both
/// of its command-line readers (the quick one and ArgumentParser's, which `--help`-like
/// and short options go through) and through `outline lint`.
@Suite struct DefaultPathCLITests {
  @Test(arguments: [
    ("outline-lint", [String]()), ("outline-lint", ["--format", "json"]), ("outline", ["lint"]),
    ("outline-lint", ["--quiet"]),
  ])
  func noPathLintsTheCurrentFolder(tool: String, arguments: [String]) throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "a.outline": "<outline version=\"1\">\n  <Item order=\"1\" title=\"a\"/>\n</outline>\n",
        "sub/b.outline": "<outline version=\"1\">\n  <Item order=\"0\" title=\"b\"/>\n</outline>\n",
      ], in: folder)
    let named = try CLI.run(tool, arguments + ["."], in: folder)
    let bare = try CLI.run(tool, arguments, in: folder)
    #expect(bare.status == 1, "\(bare.stderr)")
    #expect(bare.stdout == named.stdout && bare.stderr == named.stderr)
    #expect(bare.stdout.contains("a.outline"))
    if !arguments.contains("--quiet") && !arguments.contains("json") {
      #expect(bare.stdout.hasSuffix("1 error, 0 warnings in 2 files\n"), "\(bare.stdout)")
    }
  }

  @Test func aFixWithNoPathFixesTheCurrentFolder() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["a.outline": "<outline version=\"1\">\n  <Item order=\"1\" title=\"a\"/>\n</outline>\n"], in: folder)
    let fixed = try CLI.run("outline-lint", ["--fix"], in: folder)
    #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
    let text = try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8)
    #expect(text.contains("order=\"0\""))
  }
}
