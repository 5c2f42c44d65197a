import Foundation
import TestSupport
import Testing

/// Core Data's meaning kept across versions, through the binary: versions numbered with dots
/// (`OEDatabase 1.4`) are ordered part by part; `.xccurrentversion` names are XML text; a
/// document pinned to a version folder stays on it; `model rename --new-version` and `new`
/// write all or nothing. The engine's rules are tested in process in OutlineMigrationTests
/// (VersionSemanticsMigrationTests) and OutlineModelTests (ModelVersionDiffTests).
@Suite struct ModelVersionSemanticsCLITests {
  static func model(_ entities: String) -> String { ModelFixtures.model(entities) }

  static func item(priority: String) -> String { ModelFixtures.item(priority: priority) }

  static func current(_ name: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(name)</string></dict></plist>
    """
  }

  func text(_ folder: URL, _ name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  /// `D`, `D 0.2`, `D 1.4`, `D 1.10` and `D 2`: the first is the oldest, `D 2` the newest (no
  /// `.xccurrentversion`); with one naming `D 1.4`, a document for `D` is behind it and
  /// migrates forward.
  @Test func dottedVersionsAreOrderedPartByPart() throws {
    let folder = try CLI.temporaryFolder()
    var files: [String: String] = [:]
    for name in ["D", "D 0.2", "D 1.4", "D 1.10", "D 2"] {
      files["D.xcdatamodeld/\(name).xcdatamodel/contents"] = Self.model(Self.item(priority: ""))
    }
    files["old.outline"] =
      "<outline version=\"1\" model=\"D.xcdatamodeld\" modelVersion=\"D 1.10\"><Item order=\"0\"/></outline>\n"
    try CLI.write(files, in: folder)
    let lint = try CLI.run("outline-lint", ["--format", "json", "old.outline"], in: folder)
    #expect(lint.stdout.contains("OL108"), "\(lint.stdout)")
    #expect(lint.stdout.contains("'D 2'"), "\(lint.stdout)")

    try CLI.write(["D.xcdatamodeld/.xccurrentversion": Self.current("D 1.4.xcdatamodel")], in: folder)
    try CLI.write(
      [
        "first.outline":
          "<outline version=\"1\" model=\"D.xcdatamodeld\" modelVersion=\"D\"><Item order=\"0\"/></outline>\n"
      ],
      in: folder)
    let behind = try CLI.run("outline-lint", ["--format", "json", "first.outline"], in: folder)
    #expect(behind.stdout.contains("OL108") && behind.stdout.contains("'D 1.4'"), "\(behind.stdout)")
    let diff = try CLI.run("outline", ["model", "diff", "D.xcdatamodeld", "--from", "D"], in: folder)
    #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
    let migrate = try CLI.run("outline", ["migrate", "first.outline"], in: folder)
    #expect(migrate.status == 0, "\(migrate.stdout)\(migrate.stderr)")
    #expect(try text(folder, "first.outline").contains("modelVersion=\"D 1.4\""))
  }

  /// A document whose `model` names one version's folder is pinned to it: that version is its
  /// current one (no migration pending), and `migrate` leaves it as it is, valid.
  @Test func documentPinnedToAVersionFolderStaysOnIt() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Y.xcdatamodeld/Y.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "Y.xcdatamodeld/Y 2.xcdatamodel/contents": Self.model(
          Self.item(priority: "").replacingOccurrences(
            of: "name=\"title\"", with: "name=\"name\" renamingIdentifier=\"title\"")),
        "Y.xcdatamodeld/.xccurrentversion": Self.current("Y 2.xcdatamodel"),
        "doc.outline":
          "<outline version=\"1\" model=\"Y.xcdatamodeld/Y.xcdatamodel\"><Item title=\"a\" order=\"0\"/></outline>\n",
      ], in: folder)
    let lint = try CLI.run("outline-lint", ["doc.outline"], in: folder)
    #expect(lint.status == 0 && !lint.stdout.contains("OL108"), "\(lint.stdout)")
    _ = try CLI.run("outline", ["migrate", "doc.outline"], in: folder)
    #expect(try text(folder, "doc.outline").contains("<Item title=\"a\" order=\"0\"/>"))
    #expect(try CLI.run("outline-lint", ["doc.outline"], in: folder).status == 0)
  }

  /// `model diff .` inside a bundle is that bundle (it crashed: Foundation traps on `.`).
  @Test func dotInsideABundleIsTheBundle() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "M.xcdatamodeld/M.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "M.xcdatamodeld/M 2.xcdatamodel/contents": Self.model(
          Self.item(priority: "<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>")),
      ], in: folder)
    let bundle = folder.appendingPathComponent("M.xcdatamodeld")
    for path in [".", "./", "../M.xcdatamodeld/."] {
      let diff = try CLI.run("outline", ["model", "diff", path, "--from", "M"], in: bundle)
      #expect(diff.status == 0, "\(path): \(diff.stdout)\(diff.stderr)")
      #expect(diff.stdout.contains("attribute 'Item.note' added"), "\(path): \(diff.stdout)")
    }
  }

  /// `model rename --new-version` is all or nothing: with `.xccurrentversion` read-only it
  /// makes no new version folder (the newest version would count as current, and the document
  /// would stop linting).
  @Test func renameIntoANewVersionIsAllOrNothing() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "T.xcdatamodeld/T.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "T.xcdatamodeld/.xccurrentversion":
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n",
        "a.outline":
          "<outline model=\"T.xcdatamodeld\" modelVersion=\"T\">\n  <Item title=\"a\" order=\"0\"/>\n</outline>\n",
      ], in: folder)
    chmod(folder.appendingPathComponent("T.xcdatamodeld/.xccurrentversion").path, 0o444)
    let run = try CLI.run(
      "outline", ["model", "rename", "T.xcdatamodeld", "Item.title", "name", ".", "--new-version"], in: folder
    )
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    let versions = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("T.xcdatamodeld").path)
    #expect(versions.sorted() == [".xccurrentversion", "T.xcdatamodel"], "\(versions)")
    #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).status == 0)
  }

  /// `outline new` writes a document `fmt --check` and lint accept as it is: for a model with
  /// several versions it records the current one; derived values are not written; a root
  /// entity that needs a property named like one of the root's own attributes is said (exit 1)
  /// and nothing is written.
  @Test func newWritesWhatLintAndFmtAccept() throws {
    let folder = try CLI.temporaryFolder()
    let derived = Self.item(
      priority:
        "<attribute name=\"upper\" optional=\"YES\" attributeType=\"String\" derived=\"YES\" derivationExpression=\"uppercase:(title)\"/>"
    )
    try CLI.write(
      [
        "N.xcdatamodeld/N.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "N.xcdatamodeld/N 2.xcdatamodel/contents": Self.model(derived),
        "V.xcdatamodel/contents": Self.model(
          """
          <entity name="Doc"><attribute name="version" attributeType="Integer 16"/>
            <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="doc" inverseEntity="Item"/></entity>
          <entity name="Item"><relationship name="doc" optional="YES" maxCount="1" destinationEntity="Doc" inverseName="items" inverseEntity="Doc"/></entity>
          """),
      ], in: folder)
    let run = try CLI.run("outline", ["new", "--model", "N.xcdatamodeld", "-o", "a.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let text = try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8)
    #expect(text.contains("modelVersion=\"N 2\"") && !text.contains("upper="), "\(text)")
    #expect(try CLI.run("outline", ["fmt", "--check", "a.outline"], in: folder).status == 0)
    #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).stdout.contains("0 errors, 0 warnings"))
    let clash = try CLI.run("outline", ["new", "--model", "V.xcdatamodel", "-o", "v.outline"], in: folder)
    #expect(
      clash.status == 1 && clash.stderr.contains("needs 'version', a name the root element keeps"),
      "\(clash.stderr)")
    // Nothing is written: an outline that cannot lint clean is refused (issue 32).
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("v.outline").path))
  }

  /// A `modelVersion` the model does not have is said (OL101 at it; migrate names it), not
  /// silently replaced by the version the document fits.
  @Test func anUnknownModelVersionIsSaid() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "K.xcdatamodeld/K.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "K.xcdatamodeld/K 2.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "doc.outline":
          "<outline version=\"1\" model=\"K.xcdatamodeld\" modelVersion=\"K 7\"><Item order=\"0\"/></outline>\n",
      ], in: folder)
    let lint = try CLI.run("outline-lint", ["doc.outline"], in: folder)
    #expect(
      lint.stdout.contains(
        "doc.outline:1:59: error[OL101]: modelVersion 'K 7' is not a version of the model (it has 'K', 'K 2')"
      ),
      "\(lint.stdout)")
    let migrate = try CLI.run("outline", ["migrate", "--check", "doc.outline"], in: folder)
    #expect(
      migrate.stderr.contains("names model version 'K 7', which the model does not have"), "\(migrate.stderr)"
    )
  }

  /// A new version made by `model rename --new-version` is named after the bundle, as Xcode
  /// names one (`E 3` in `E.xcdatamodeld` of `E_0` and `E_1`, not `E_0 3`).
  @Test func aNewVersionIsNamedAfterTheBundle() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "E.xcdatamodeld/E_0.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "E.xcdatamodeld/E_1.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "E.xcdatamodeld/.xccurrentversion": Self.current("E_1.xcdatamodel"),
      ], in: folder)
    let run = try CLI.run(
      "outline", ["model", "rename", "E.xcdatamodeld", "Item.title", "name", "--new-version"], in: folder)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let versions = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("E.xcdatamodeld").path)
    #expect(versions.contains("E 3.xcdatamodel"), "\(versions)")
  }

  /// A version named `Z & 1` is written `Z &amp; 1` in `.xccurrentversion`: it is the current one.
  @Test func currentVersionNameIsXMLText() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "Z.xcdatamodeld/Z & 1.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "Z.xcdatamodeld/Z 2.xcdatamodel/contents": Self.model(Self.item(priority: "")),
        "Z.xcdatamodeld/.xccurrentversion": Self.current("Z &amp; 1.xcdatamodel"),
        "doc.outline":
          "<outline version=\"1\" model=\"Z.xcdatamodeld\" modelVersion=\"Z &amp; 1\"><Item order=\"0\"/></outline>\n",
      ], in: folder)
    let lint = try CLI.run("outline-lint", ["--format", "json", "doc.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)")
    #expect(!lint.stdout.contains("OL108"), "\(lint.stdout)")
  }
}
