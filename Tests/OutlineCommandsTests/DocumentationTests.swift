import Foundation
import OutlineCore
import TestSupport
import Testing

@Suite struct DocumentationTests {
  /// Documentation/Diagnostics.md is what `outline explain --markdown` prints.
  /// Re-record with: `swift build && .build/debug/outline explain --markdown > Documentation/Diagnostics.md`.
  @Test func diagnosticsDocumentMatchesTheCatalog() throws {
    let file = CLI.repository.appendingPathComponent("Documentation/Diagnostics.md")
    let onDisk = try String(contentsOf: file, encoding: .utf8)
    let run = try CLI.run("outline", ["explain", "--markdown"])
    #expect(run.stdout == onDisk, "Documentation/Diagnostics.md is stale; re-record it")
    for entry in DiagnosticCatalog.entries { #expect(onDisk.contains("## \(entry.code)")) }
  }

  @Test func explainOneCode() throws {
    let run = try CLI.run("outline", ["explain", "ol401"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("OL401 (error): Duplicate order among siblings"))
    #expect(try CLI.run("outline", ["explain", "OL999"]).status == 2)
  }

  /// `explain --markdown CODE` prints that code's section of Diagnostics.md, not the whole
  /// catalog; an unknown code is exit 2 with the message plain `explain` gives.
  @Test func explainOneCodeInMarkdown() throws {
    let run = try CLI.run("outline", ["explain", "--markdown", "ol401"])
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
    #expect(
      run.stdout
        == "## OL401\n\n**Duplicate order among siblings** (error)\n\n"
        + "Two siblings share an order. `outline-lint --fix` renumbers the group keeping the order the values give: "
        + "of the two, the one further down the file comes second.\n")
    let onDisk = try String(
      contentsOf: CLI.repository.appendingPathComponent("Documentation/Diagnostics.md"), encoding: .utf8)
    #expect(onDisk.contains("\n" + run.stdout + "\n"))
    #expect(try CLI.run("outline", ["explain", "OL401", "--markdown"]).stdout == run.stdout)
    let unknown = try CLI.run("outline", ["explain", "--markdown", "OL999"])
    #expect(unknown.status == 2 && unknown.stdout.isEmpty, "\(unknown)")
    #expect(unknown.stderr == "outline: unknown code 'OL999'; `outline explain` lists them\n")
    #expect(try CLI.run("outline", ["explain", "OL999"]).stderr == unknown.stderr)
  }

  /// The README's first two commands are the main job and the tests.
  @Test func readmeStartsWithTheTwoCommands() throws {
    let readme = try String(contentsOf: CLI.repository.appendingPathComponent("README.md"), encoding: .utf8)
    let commands = readme.split(separator: "\n").filter { $0.hasPrefix("    ") || $0.hasPrefix("swift ") }
    #expect(commands.first?.contains("outline-lint examples") == true)
    #expect(readme.contains("swift test"))
  }
}
