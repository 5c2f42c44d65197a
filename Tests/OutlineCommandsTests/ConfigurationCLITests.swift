import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct ConfigurationCLITests {
  static let tagModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Tag"><attribute name="name" attributeType="String"/></entity>
    </model>
    """

  @Test func discoveryRulesExcludeAndModels() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        ".outline.json": """
        {
          "models": [{"files": "tags/**", "model": "models/Tags.xcdatamodel"}],
          "rules": {"OL403": "error", "OL205": "off"},
          "exclude": ["drafts/**"]
        }
        """,
        "models/Tags.xcdatamodel/contents": Self.tagModel,
        "tags/deep/t.outline": "<outline><Tag name=\"a\"/></outline>\n",
        "lists/l.outline": "<outline><Item order=\"1\"/><Item order=\"0\"/></outline>\n",
        "drafts/d.outline": "<outline><Nope/></outline>\n",
      ], in: folder)
    let run = try CLI.run("outline-lint", ["."], in: folder)
    #expect(run.status == 1)
    // OL403 raised to an error by the rules; drafts excluded; tags use their model.
    #expect(
      run.stdout == """
        lists/l.outline:1:23: error[OL403]: The children of the root object are not in document order: child 1 has order 1
        1 error, 0 warnings in 2 files

        """)
    // A file named on the command line is linted even when excluded from folder searches.
    let named = try CLI.run("outline-lint", ["drafts/d.outline"], in: folder)
    #expect(named.stdout.contains("error[OL200]"))
  }

  @Test func precedenceCommandLineThenAttributeThenGlobThenModel() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        // The shipped models are outside the project: allowed explicitly.
        ".outline.json": "{\"model\": \"Tags.xcdatamodel\", \"modelRoots\": [\"../schema\"]}",
        "Tags.xcdatamodel/contents": Self.tagModel,
        "uses-config.outline": "<outline><Tag name=\"a\"/></outline>\n",
        "uses-attribute.outline":
          "<outline model=\"../schema/Outline.xcdatamodeld\"><Item order=\"0\"/></outline>\n",
      ], in: folder)
    let schema = CLI.repository.appendingPathComponent("schema")
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("../schema").standardized, withDestinationURL: schema)
    defer { try? FileManager.default.removeItem(at: folder.appendingPathComponent("../schema").standardized) }
    let run = try CLI.run("outline-lint", ["."], in: folder)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    // --model wins over everything.
    let forced = try CLI.run(
      "outline-lint", ["--model", "Tags.xcdatamodel", "uses-attribute.outline"], in: folder)
    #expect(forced.stdout.contains("error[OL200]: 'Item' is not an entity"))
  }

  @Test func configurationProblemsHavePositionsAndExitTwo() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        ".outline.json": "{\n  \"rules\": {\"OL999\": \"off\", \"OL403\": \"loud\"},\n  \"colour\": 1\n}\n",
        "a.outline": "<outline/>\n",
      ], in: folder)
    let run = try CLI.run("outline-lint", ["a.outline"], in: folder)
    #expect(run.status == 2)
    // Found upward from the document, it is shown as the documents are: from the working folder.
    let config = ".outline.json"
    #expect(run.stdout.contains("\(config):2:13: error[OC100]: Unknown rule code 'OL999'"))
    #expect(run.stdout.contains("\(config):2:38: error[OC100]: Unknown level 'loud'"))
    #expect(run.stdout.contains("\(config):3:3: error[OC100]: Unknown key 'colour'"))
  }
}

@Suite struct ModelCheckCLITests {
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.absent)))
  func corpusModelsHaveNoErrors() throws {
    let corpus = Corpus.folder("xcdatamodel")
    let names = Corpus.names(in: "xcdatamodel")
    let paths = names.sorted().map { corpus.appendingPathComponent($0).path }
    let run = try CLI.run("outline", ["model", "check", "--quiet"] + paths)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(!run.stdout.contains("error["))
  }

  @Test func reportsErrorsWithPositions() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Bad.xcdatamodel/contents": """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model>
            <entity name="A"><attribute name="a" attributeType="Integer 99"/></entity>
        </model>
        """
      ], in: folder)
    let run = try CLI.run("outline", ["model", "check", "Bad.xcdatamodel"], in: folder)
    #expect(run.status == 1)
    #expect(
      run.stdout.hasPrefix(
        "Bad.xcdatamodel/contents:3:57: error[OM200]: attributeType 'Integer 99' of 'A.a' is not a Core Data type"
      ))
    let missing = try CLI.run("outline", ["model", "check", "Nope.xcdatamodel"], in: folder)
    #expect(missing.status == 2)
  }
}
