import Foundation
import OutlineCore
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

  /// The README's first two commands are the main job and the tests.
  @Test func readmeStartsWithTheTwoCommands() throws {
    let readme = try String(contentsOf: CLI.repository.appendingPathComponent("README.md"), encoding: .utf8)
    let commands = readme.split(separator: "\n").filter { $0.hasPrefix("    ") || $0.hasPrefix("swift ") }
    #expect(commands.first?.contains("outline-lint examples") == true)
    #expect(readme.contains("swift test"))
  }
}
