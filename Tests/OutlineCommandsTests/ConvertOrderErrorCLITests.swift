import Foundation
import TestSupport
import Testing

/// `outline convert` of a JSON form file whose only problem is an order error (issue 32): the
/// file is the JSON form, with an error, and convert must say so, not that it is not the form.
@Suite struct ConvertOrderErrorCLITests {
  @Test(arguments: [
    (
      "{\"@outline\": 1,\n \"children\": [\n  {\"@entity\": \"Item\", \"order\": 5, \"title\": \"a\"}\n ]}\n",
      "OL402"
    ),
    (
      "{\"@outline\": 1,\n \"children\": [\n  {\"@entity\": \"Item\", \"order\": 0, \"title\": \"a\"},\n"
        + "  {\"@entity\": \"Item\", \"order\": 0, \"title\": \"b\"}\n ]}\n", "OL401"
    ),
  ])
  func anOrderErrorIsAnErrorOfTheForm(json: String, code: String) throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["bad.json": json], in: folder)
    let run = try CLI.run("outline", ["convert", "bad.json", "-o", "out.outline"], in: folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("error[\(code)]"), "\(run.stderr)")
    #expect(run.stderr.hasSuffix("outline: bad.json has errors; nothing was written\n"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.outline").path))
  }
}
