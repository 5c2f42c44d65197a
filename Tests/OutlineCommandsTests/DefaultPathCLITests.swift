import Foundation
import TestSupport
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
    // Paths as ruff writes them: relative to the folder, with no `./` in front.
    #expect(!bare.stdout.contains("./"), "\(bare.stdout)")
    if !arguments.contains("--quiet") && !arguments.contains("json") {
      #expect(bare.stdout.hasSuffix("1 error, 0 warnings in 2 files\n"), "\(bare.stdout)")
    }
  }

  @Test func aFolderNamedOtherwiseKeepsItsName() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["sub/b.outline": "<outline version=\"1\">\n  <Item order=\"1\" title=\"b\"/>\n</outline>\n"],
      in: folder)
    for (argument, shown) in [
      ("./sub", "./sub/b.outline:2:"), ("sub", "sub/b.outline:2:"), ("sub/", "sub/b.outline:2:"),
    ] {
      let run = try CLI.run("outline-lint", [argument], in: folder)
      #expect(run.stdout.hasPrefix(shown), "\(argument): \(run.stdout)")
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
