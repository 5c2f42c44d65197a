import Foundation
import TestSupport
import Testing

/// The JSON form's messages say what the XML form's say: OL102 is one text in both.
@Suite struct JSONFormMessagesCLITests {
  /// The message of the first diagnostic line of `output` (after `error[CODE]: `).
  static func message(_ output: String, code: String) -> String? {
    output.split(separator: "\n").first { $0.contains("[\(code)]: ") }.map {
      String($0[$0.range(of: "[\(code)]: ")!.upperBound...])
    }
  }

  @Test func anUnreadableModelIsOneTextInBothForms() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "a.outline": "<outline model=\"Missing.xcdatamodel\"><Item order=\"0\"/></outline>\n",
        "b.outline.json":
          "{\"@outline\":1,\"@model\":\"Missing.xcdatamodel\",\"@entity\":\"Item\",\"children\":[]}\n",
      ], in: folder)
    let xml = try CLI.run("outline-lint", ["a.outline"], in: folder)
    let json = try CLI.run("outline-lint", ["b.outline.json"], in: folder)
    let xmlMessage = try #require(Self.message(xml.stdout, code: "OL102"), "\(xml.stdout)")
    let jsonMessage = try #require(Self.message(json.stdout, code: "OL102"), "\(json.stdout)")
    #expect(xmlMessage.hasPrefix("The model cannot be read: "))
    #expect(jsonMessage == xmlMessage)
  }
}
