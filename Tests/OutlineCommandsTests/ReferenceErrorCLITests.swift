import Foundation
import TestSupport
import Testing

/// An undefined entity or a bad character reference is reported over the whole reference,
/// `&` to `;` (libxml2 stops just past the `;`), in every output format.
@Suite struct ReferenceErrorCLITests {
  static let documents = [
    "nbsp.outline": "<outline>\n  <Item order=\"0\" title=\"a&nbsp;b\"/>\n</outline>\n",
    "surrogate.outline": "<outline>\n  <Item order=\"0\" title=\"a&#xD800;b\"/>\n</outline>\n",
    "control.outline": "<outline>\n  <Item order=\"0\" title=\"a&#1;b\"/>\n</outline>\n",
  ]

  @Test func theWholeReferenceInTextJSONAndSARIF() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(Self.documents, in: folder)
    let names = Self.documents.keys.sorted()
    let text = try CLI.run("outline-lint", names, in: folder)
    #expect(text.status == 1)
    #expect(
      text.stdout.split(separator: "\n").filter { $0.contains("OL100") } == [
        "control.outline:2:27: error[OL100]: xmlParseCharRef: invalid xmlChar value 1",
        "nbsp.outline:2:27: error[OL100]: Entity 'nbsp' not defined",
        "surrogate.outline:2:27: error[OL100]: xmlParseCharRef: invalid xmlChar value 55296",
      ], "\(text.stdout)")

    let json = try CLI.run("outline-lint", ["--format", "json"] + names, in: folder)
    let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
    let ranges = (report["files"] as! [[String: Any]]).map { file -> [Int] in
      let range = (file["diagnostics"] as! [[String: Any]])[0]["range"] as! [String: [String: Int]]
      return [
        range["start"]!["column"]!, range["start"]!["offset"]!, range["end"]!["column"]!,
        range["end"]!["offset"]!,
      ]
    }
    // `&` at column 27 (offset 36); the end just past the `;`.
    #expect(ranges == [[27, 36, 31, 40], [27, 36, 33, 42], [27, 36, 35, 44]], "\(json.stdout)")

    let sarif = try CLI.run("outline-lint", ["--format", "sarif"] + names, in: folder)
    let log = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as! [String: Any]
    let results = ((log["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]])
    let regions = results.map { result -> [Int] in
      let location = (result["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any]
      let region = location["region"] as! [String: Int]
      return [region["startLine"]!, region["startColumn"]!, region["endLine"]!, region["endColumn"]!]
    }
    #expect(regions == [[2, 27, 2, 31], [2, 27, 2, 33], [2, 27, 2, 35]], "\(sarif.stdout)")
  }
}
