import Foundation
import TestSupport
import Testing

/// `outline model rename` writes the model and every document or none of them: a document that
/// cannot be written is found before anything is replaced, and one that fails after others
/// were replaced has them put back. The failure here is a file size limit (`ulimit -f`, in
/// 512-byte blocks, with SIGXFSZ ignored so a write past it fails with EFBIG): it stands for
/// a full disk, and root has no way around it.
@Suite struct ModelRenameAllOrNothingCLITests {
  static func model(_ attribute: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Item" representedClassName="Item" syncable="YES">
        <attribute name="order" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="\(attribute)" optional="YES" attributeType="String"/>
      </entity>
    </model>

    """
  }

  static func document(_ attribute: String, model: String, items: Int) -> String {
    "<outline version=\"1\" model=\"\(model)\">\n"
      + (0..<items).map { "  <Item order=\"\($0)\" \(attribute)=\"x\"/>\n" }.joined() + "</outline>\n"
  }

  /// Runs `outline ARGUMENTS` in `folder` where no file may grow past 50 KiB.
  static func runLimited(_ arguments: [String], in folder: URL) throws -> CLI.Output {
    try CLI.program(
      "/bin/sh",
      [
        "-c", "trap '' XFSZ; ulimit -f 100; exec \"$@\"", "sh",
        CLI.products.appendingPathComponent("outline").path,
      ]
        + arguments, in: folder)
  }

  static func contents(_ folder: URL) throws -> [String: String] {
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)!
    while let name = enumerator.nextObject() as? String {
      let url = folder.appendingPathComponent(name)
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
        files[name] = try String(contentsOf: url, encoding: .utf8)
      }
    }
    return files
  }

  /// `sub/b.outline` would grow past the limit: the model and `a.outline` (renamed before it,
  /// once) are left as they were, and the message names the file and the cause.
  @Test func aDocumentThatCannotBeWrittenStopsTheModelToo() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "M.xcdatamodel/contents": Self.model("title"),
        "a.outline": Self.document("title", model: "M.xcdatamodel", items: 1),
        "sub/b.outline": Self.document("title", model: "../M.xcdatamodel", items: 2000),
      ], in: folder)
    let before = try Self.contents(folder)
    let run = try Self.runLimited(
      ["model", "rename", "M.xcdatamodel", "Item.title", "label", "."], in: folder)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(
      run.stderr == """
        outline: cannot write 'sub/b.outline': File too large
        outline: nothing was changed: not the model, not a document

        """)
    #expect(try Self.contents(folder) == before)
    // Without the limit, everything is renamed.
    let free = try CLI.run(
      "outline", ["model", "rename", "M.xcdatamodel", "Item.title", "label", "."], in: folder)
    #expect(free.status == 0, "\(free.stderr)")
    let after = try Self.contents(folder)
    #expect(after["M.xcdatamodel/contents"]!.contains("name=\"label\""))
    #expect(after["a.outline"]!.contains("label=\"x\"") && after["sub/b.outline"]!.contains("label=\"x\""))
  }

  /// `z/c.outline` has a second hard link, so it is rewritten in place, and its old contents are
  /// copied aside first to be put back; they are larger than the limit (the new ones are not):
  /// that fails after the model and `a.outline` were replaced, and they are put back.
  @Test func aFailureAfterOthersWereReplacedPutsThemBack() throws {
    let folder = try CLI.temporaryFolder()
    let long = "longAttributeNameOfTheItemTitle"
    try CLI.write(
      [
        "M.xcdatamodel/contents": Self.model(long),
        "a.outline": Self.document(long, model: "M.xcdatamodel", items: 1),
        "z/c.outline": Self.document(long, model: "../M.xcdatamodel", items: 1500),
      ], in: folder)
    #expect(
      link(folder.appendingPathComponent("z/c.outline").path, folder.appendingPathComponent("c.link").path)
        == 0)
    let before = try Self.contents(folder)
    let run = try Self.runLimited(
      ["model", "rename", "M.xcdatamodel", "Item.\(long)", "t", "a.outline", "z"], in: folder)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(
      run.stderr == """
        outline: cannot write 'z/c.outline': File too large (keeping a copy of it); not changed
        outline: nothing was changed: not the model, not a document

        """)
    #expect(try Self.contents(folder) == before)
  }

  /// `outline import --force` replaces the model beside the outline and the outline together:
  /// an outline that cannot be written leaves the model that was there (it was replaced first,
  /// and kept replaced, when only a new model was removed again).
  @Test func anImportWhoseOutlineCannotBeWrittenKeepsTheModelThatWasThere() throws {
    let folder = try CLI.temporaryFolder()
    let outlines = (0..<2_000).map { #"    <outline text="feed number \#($0)"/>"# }.joined(separator: "\n")
    let opml = """
      <?xml version="1.0"?>
      <opml version="2.0"><head><title>t</title></head><body>
      \(outlines)
      </body></opml>

      """
    let oldModel = "<?xml version=\"1.0\"?>\n<model><entity name=\"Kept\"/></model>\n"
    try CLI.write(["feeds.opml": opml, "feeds.xcdatamodel/contents": oldModel], in: folder)
    let run = try Self.runLimited(["import", "feeds.opml", "--force"], in: folder)
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("feeds.outline"), "\(run.stderr)")
    #expect(try Self.contents(folder) == ["feeds.opml": opml, "feeds.xcdatamodel/contents": oldModel])
    // Without the limit, both are written.
    #expect(try CLI.run("outline", ["import", "feeds.opml", "--force"], in: folder).status == 0)
    #expect(try Self.contents(folder)["feeds.xcdatamodel/contents"] != oldModel)
  }

  /// A rename across more documents than the process may hold open files: each document's
  /// new text waits in a closed temporary file, so the limit (64 here; 256 is macOS's default)
  /// is no bound on the project.
  @Test func aRenameAcrossMoreDocumentsThanOpenFilesAllowed() throws {
    let folder = try CLI.temporaryFolder()
    var files = ["M.xcdatamodel/contents": Self.model("title")]
    for index in 0..<150 {
      files["docs/d\(index).outline"] = Self.document("title", model: "../M.xcdatamodel", items: 2)
    }
    try CLI.write(files, in: folder)
    let run = try CLI.program(
      "/bin/sh",
      [
        "-c", "ulimit -n 64; exec \"$@\"", "sh", CLI.products.appendingPathComponent("outline").path,
        "model", "rename", "M.xcdatamodel", "Item.title", "label", ".",
      ], in: folder)
    #expect(run.status == 0, "\(run.stderr.prefix(500))")
    let contents = try Self.contents(folder)
    #expect(contents["docs/d149.outline"]?.contains(#"label="x""#) == true)
    #expect(contents.filter { $0.key.hasSuffix(".outline") && $0.value.contains("title=") }.isEmpty)
  }
}
