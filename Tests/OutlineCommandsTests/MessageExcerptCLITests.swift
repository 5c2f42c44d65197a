import Foundation
import TestSupport
import Testing

/// What the binaries print quotes a document's values and names only as an excerpt (Files.md,
/// "What messages quote"): 60 characters then `...`, control characters escaped, so a 1 MB value
/// does not make a 1 MB line.
@Suite struct MessageExcerptCLITests {
  @Test func aMegabyteValueAndLongNamesMakeShortLines() throws {
    let folder = try CLI.temporaryFolder()
    let value = String(repeating: "x", count: 1_000_000)
    let name = String(repeating: "q", count: 5_000)
    let element = String(repeating: "Z", count: 5_000)
    try CLI.write(
      [
        "a.outline": """
        <outline>
          <Item order="\(value)" title="t"/>
          <Item order="1" \(name)="1"/>
          <\(element) order="2"/>
          <Item order="3" title="ok" foo="a&#10;b"/>
          <Item order="4" xml:id="\(name)"/><Item order="5" xml:id="\(name)"/>
        </outline>

        """
      ], in: folder)
    for arguments in [
      ["a.outline"], ["--format", "json", "a.outline"], ["--format", "github", "a.outline"],
    ] {
      let run = try CLI.run("outline-lint", arguments, in: folder)
      #expect(run.status == 1)
      let longest = run.stdout.split(separator: "\n").map(\.count).max() ?? 0
      #expect(longest < 300, "\(arguments): a line of \(longest) characters")
    }
    let run = try CLI.run("outline-lint", ["a.outline"], in: folder)
    let x60 = String(repeating: "x", count: 60)
    #expect(run.stdout.contains("error[OL300]: 'order': '\(x60)...' is not a decimal integer (Integer 64)"))
    #expect(run.stdout.contains("error[OL203]: '\(name.prefix(60))...' is not an attribute or relationship"))
    #expect(run.stdout.contains("error[OL200]: '\(element.prefix(60))...' is not an entity of the model"))
    #expect(run.stdout.contains("error[OL500]: The id '\(name.prefix(60))...' is used twice"))
  }

  @Test func aLineBreakInAValueIsWrittenEscapedInJSON() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["b.outline": "<outline>\n  <Item order=\"a&#10;b&#13;c\"/>\n</outline>\n"], in: folder)
    let run = try CLI.run("outline-lint", ["--format", "json", "b.outline"], in: folder)
    #expect(run.stdout.contains(#""message": "'order': 'a\\nb\\rc' is not a decimal integer (Integer 64)""#))
  }
}
