import Foundation
import TestSupport
import Testing

/// A JSON-form object whose `@entity` comes after `order` gets OL203 ('@entity' must come first),
/// and no false OL204 saying the `order` it has is missing.
@Suite struct JSONFormEntityOrderCLITests {
  @Test func aLateEntityIsReportedWithoutAFalseMissingOrder() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "a.outline.json":
          "{\"@outline\":1,\"children\":[\n{\"order\":0,\"@entity\":\"Item\",\"title\":\"a\"}\n]}\n"
      ],
      in: folder)
    let run = try CLI.run("outline-lint", ["a.outline.json"], in: folder)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.contains("error[OL203]: '@entity' must come first"), "\(run.stdout)")
    #expect(!run.stdout.contains("OL204"), "\(run.stdout)")
  }
}
