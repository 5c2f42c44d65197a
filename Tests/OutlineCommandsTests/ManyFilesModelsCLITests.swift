import Foundation
import TestSupport
import Testing

/// A project whose files each name their model, as Benchmarks/run's many small files do: a run
/// over the whole tree gives each file the model its own folder and project give it, with one
/// job or several, however many files before it named a model with the same words.
@Suite struct ManyFilesModelsCLITests {
  static let plain = """
    <model><entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/></entity></model>
    """
  static let marked = """
    <model><entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/><attribute name="mark" optional="YES" attributeType="String"/></entity></model>
    """

  static func document(_ model: String) -> String {
    "<outline model=\"\(model)\"><Item order=\"0\" mark=\"x\"/></outline>\n"
  }

  @Test func eachFileGetsTheModelItsOwnFolderNames() throws {
    let folder = try CLI.temporaryFolder()
    var files: [String: String] = [
      ".outline.json": "{}",
      "a/N.xcdatamodel/contents": Self.marked,
      "b/N.xcdatamodel/contents": Self.plain,
      // A project of its own, which a's model lies outside.
      "d/.outline.json": "{}",
      "d/x.outline": Self.document("../a/N.xcdatamodel"),
    ]
    for number in 0..<5 {
      files["a/x\(number).outline"] = Self.document("N.xcdatamodel")
      files["a/sub/x\(number).outline"] = Self.document("../N.xcdatamodel")
      files["b/x\(number).outline"] = Self.document("N.xcdatamodel")
      files["c/x\(number).outline"] = Self.document("N.xcdatamodel")
    }
    try CLI.write(files, in: folder)
    for jobs in ["1", "2"] {
      let run = try CLI.run(
        "outline-lint", ["--format", "json", "--no-cache", "--jobs", jobs, "."], in: folder)
      #expect(run.status == 1, "\(run.stderr)")
      let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      var codes: [String: [String]] = [:]
      for file in document?["files"] as? [[String: Any]] ?? [] {
        let diagnostics = file["diagnostics"] as? [[String: Any]] ?? []
        codes[file["path"] as? String ?? "?"] = diagnostics.compactMap { $0["code"] as? String }
      }
      #expect(codes.count == 21, "\(codes)")
      for number in 0..<5 {
        #expect(codes["a/x\(number).outline"] == [])
        #expect(codes["a/sub/x\(number).outline"] == [])
        // `mark` is not b's model's.
        #expect(codes["b/x\(number).outline"] == ["OL203"])
        #expect(codes["c/x\(number).outline"] == ["OL102"])
      }
      #expect(codes["d/x.outline"] == ["OL106"])
    }
  }
}
