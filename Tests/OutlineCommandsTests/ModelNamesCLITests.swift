import Foundation
import TestSupport
import Testing

/// Issue 32 through the binaries: names a document cannot spell are model errors (OM218) and
/// `new` refuses them naming each; Core Data's conventions are warnings; `new` writes what lints
/// or nothing (a model outside the outline's project is refused with how to allow it, and
/// without --model the configured model is used); OL106 never cuts a path; `model rename`
/// finds the configured model; `model diff` says what derived and defaulted attributes need.
@Suite struct ModelNamesCLITests {
  static let badNames = ModelFixtures.badNames

  static let tasks = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model>
      <entity name="List"><attribute name="name" attributeType="String"/>
      <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="list"/></entity>
      <entity name="Task"><attribute name="order" attributeType="Integer 32"/><attribute name="title" optional="YES" attributeType="String"/>
      <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="tasks"/></entity>
    </model>
    """

  /// `new` refuses such a model, naming each name, and writes nothing; before, it wrote XML that
  /// did not parse.
  @Test func newRefusesAModelWithNamesNoDocumentCanSpell() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["M.xcdatamodel/contents": Self.badNames], in: folder)
    let made = try CLI.run("outline", ["new", "--model", "M.xcdatamodel", "-o", "a.outline"], in: folder)
    #expect(made.status == 1)
    #expect(
      made.stderr
        == "outline: model 'M.xcdatamodel' has 4 errors (run `outline model check M.xcdatamodel`); nothing was written: no document can spell these names as an XML name: entity 'My Folder', attribute 'My Folder.has space', attribute 'Item.x:y:z', attribute 'Item.1abc'\n"
    )
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.outline").path))
    let printed = try CLI.run("outline", ["new", "--model", "M.xcdatamodel"], in: folder)
    #expect(printed.status == 1 && printed.stdout.isEmpty)
  }

  /// Core Data's conventions are warnings (a shipped model has a relationship `Box`), a prefixed
  /// attribute name too (documents write it under a namespace declaration); `new` writes an
  /// outline that lints when it need not write the prefixed one, and refuses when it would.
  @Test func conventionsAreWarningsAndAPrefixedNameIsWrittenOnlyWhereDeclared() throws {
    let folder = try CLI.temporaryFolder()
    let model = { (optional: String) in
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <model><entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
      <attribute name="x:y" optional="\(optional)" attributeType="String"/><attribute name="description" optional="YES" attributeType="String"/>
      <relationship name="Children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent"/>
      <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="Children"/></entity></model>
      """
    }
    try CLI.write(
      ["Optional.xcdatamodel/contents": model("YES"), "Required.xcdatamodel/contents": model("NO")],
      in: folder)
    let check = try CLI.run("outline", ["model", "check", "--quiet", "Optional.xcdatamodel"], in: folder)
    #expect(check.status == 0, "\(check.stdout)")
    #expect(check.stdout.contains("warning[OM219]: Attribute name 'Item.x:y' holds ':'"), "\(check.stdout)")
    #expect(
      check.stdout.contains("warning[OM220]: Attribute name 'Item.description' is reserved"),
      "\(check.stdout)")
    #expect(
      check.stdout.contains("warning[OM219]: Relationship name 'Item.Children' starts with an upper-case"))
    let made = try CLI.run(
      "outline", ["new", "--model", "Optional.xcdatamodel", "-o", "o.outline"], in: folder)
    #expect(made.status == 0, "\(made.stderr)")
    #expect(try CLI.run("outline-lint", ["o.outline"], in: folder).status == 0)
    let refused = try CLI.run(
      "outline", ["new", "--model", "Required.xcdatamodel", "-o", "r.outline"], in: folder)
    #expect(refused.status == 1)
    #expect(
      refused.stderr.hasPrefix("outline: 'r.outline' would not lint clean (2:")
        && refused.stderr.contains("error[OL100]: Namespace prefix x for y on")
        && refused.stderr.hasSuffix("; nothing was written\n"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r.outline").path))
  }

  /// A model outside the outline's project: `new` refuses, says why and how to allow it, and
  /// writes nothing; allowed by `modelRoots`, the outline it writes lints clean. Before, it wrote
  /// an outline that failed with OL106.
  @Test func newRefusesAModelOutsideTheProjectAndSaysHowToAllowIt() throws {
    let root = try CLI.temporaryFolder()
    try CLI.write(
      ["models/Tasks.xcdatamodel/contents": Self.tasks, "proj/.git/HEAD": "ref: refs/heads/main\n"], in: root)
    let project = root.appendingPathComponent("proj")
    let real = root.resolvingSymlinksInPath().path
    let made = try CLI.run(
      "outline", ["new", "--model", "../models/Tasks.xcdatamodel", "-o", "plan.outline"], in: project)
    #expect(made.status == 1)
    #expect(
      made.stderr
        == "outline: 'plan.outline' would name the model '../models/Tasks.xcdatamodel', which lies outside its project '\(real)/proj': lint would not read it (OL106); nothing was written. To allow it, list '\(real)/models' in 'modelRoots' of '\(real)/proj/.outline.json'; or write the outline inside the model's project\n"
    )
    #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("plan.outline").path))
    // Standard output is judged as a document in the working folder, as `outline-lint -` judges one.
    let printed = try CLI.run("outline", ["new", "--model", "../models/Tasks.xcdatamodel"], in: project)
    #expect(printed.status == 1 && printed.stdout.isEmpty)
    #expect(
      printed.stderr.contains("an outline in the working folder (standard output) would name the model"))

    try CLI.write(["proj/.outline.json": #"{"modelRoots": ["../models"]}"#], in: root)
    let allowed = try CLI.run(
      "outline", ["new", "--model", "../models/Tasks.xcdatamodel", "-o", "plan.outline"], in: project)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    let lint = try CLI.run("outline-lint", ["plan.outline"], in: project)
    #expect(lint.status == 0, "\(lint.stdout)")
  }

  /// Without --model, `new` writes for the model `.outline.json` names for the output, as lint
  /// reads it; before, it wrote a default-model outline that failed against the configured one.
  @Test func newWithoutAModelUsesTheConfiguredOne() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["Tasks.xcdatamodel/contents": Self.tasks, ".outline.json": #"{"model": "Tasks.xcdatamodel"}"#],
      in: folder)
    let made = try CLI.run("outline", ["new", "-o", "a.outline"], in: folder)
    #expect(made.status == 0, "\(made.stderr)")
    let text = try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8)
    #expect(!text.contains("model="), "\(text)")
    #expect(
      text.contains("<outline version=\"1\" name=\"\">\n  <Task order=\"0\" title=\"Untitled\"/>"), "\(text)")
    #expect(try CLI.run("outline-lint", ["a.outline"], in: folder).status == 0)
    // A configured model outside the project is the configuration's trouble: exit 2, nothing written.
    try CLI.write([".outline.json": #"{"model": "/nonexistent/../Tasks.xcdatamodel"}"#], in: folder)
    let refused = try CLI.run("outline", ["new", "-o", "b.outline"], in: folder)
    #expect(refused.status == 2, "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b.outline").path))
  }

  /// OL106 quotes the model's path whole, however long; before, it was cut after 60 characters.
  @Test func outsideTheProjectSaysTheWholePath() throws {
    let root = try CLI.temporaryFolder()
    let deep = (0..<6).map { "a-folder-with-a-long-name-\($0)" }.joined(separator: "/")
    try CLI.write(
      [
        "\(deep)/M.xcdatamodel/contents": Self.tasks,
        "proj/.outline.json": "{}",
        "proj/a.outline": "<outline model=\"../\(deep)/M.xcdatamodel\"/>\n",
      ], in: root)
    let lint = try CLI.run("outline-lint", ["a.outline"], in: root.appendingPathComponent("proj"))
    #expect(lint.status == 1)
    #expect(
      lint.stdout.contains("error[OL106]: The model '../\(deep)/M.xcdatamodel' is outside the project '"),
      "\(lint.stdout)")
    #expect(!lint.stdout.contains("..."), "\(lint.stdout)")
  }

  static let renamable = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model><entity name="Item"><attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
    <attribute name="title" optional="YES" attributeType="String"/>
    <relationship name="children" optional="YES" toMany="YES" destinationEntity="Item" inverseName="parent"/>
    <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Item" inverseName="children"/></entity></model>
    """

  /// `model rename Entity.property NEW PATH...` renames in the model `.outline.json` names; before,
  /// it took `Entity.property` for the model and refused.
  @Test func renameUsesTheConfiguredModel() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "M.xcdatamodel/contents": Self.renamable, ".outline.json": #"{"model": "M.xcdatamodel"}"#,
        "docs/a.outline": "<outline>\n  <Item order=\"0\" title=\"x\"/>\n</outline>\n",
      ], in: folder)
    let run = try CLI.run("outline", ["model", "rename", "Item.title", "label", "docs"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    let model = try String(
      contentsOf: folder.appendingPathComponent("M.xcdatamodel/contents"), encoding: .utf8)
    #expect(model.contains(#"name="label""#) && model.contains(#"renamingIdentifier="title""#), "\(model)")
    let document = try String(contentsOf: folder.appendingPathComponent("docs/a.outline"), encoding: .utf8)
    #expect(document.contains(#"<Item order="0" label="x"/>"#), "\(document)")
    #expect(try CLI.run("outline-lint", ["docs"], in: folder).status == 0)
    // The model first still works, and a model path that does not exist is said as one.
    let named = try CLI.run(
      "outline", ["model", "rename", "M.xcdatamodel", "Item.label", "title", "docs"], in: folder)
    #expect(named.status == 0, "\(named.stderr)")
    let missing = try CLI.run(
      "outline", ["model", "rename", "No.xcdatamodel", "Item.title", "t"], in: folder)
    #expect(missing.status == 2 && missing.stderr.contains("No.xcdatamodel"), "\(missing.stderr)")
  }

  /// Without a configuration, the model the outlines under PATH name is used; when two models
  /// have the property, or none is known, the command says so and changes nothing.
  @Test func renameUsesTheModelTheOutlinesNameAndRefusesAnAmbiguity() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "M.xcdatamodel/contents": Self.renamable, "N.xcdatamodel/contents": Self.renamable,
        "a.outline": "<outline model=\"M.xcdatamodel\">\n  <Item order=\"0\" title=\"x\"/>\n</outline>\n",
      ], in: folder)
    let run = try CLI.run("outline", ["model", "rename", "Item.title", "label", "a.outline"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8).contains(
        "label=\"x\""))

    try CLI.write(
      ["b.outline": "<outline model=\"N.xcdatamodel\">\n  <Item order=\"0\" label=\"y\"/>\n</outline>\n"],
      in: folder)
    try CLI.write(
      ["N.xcdatamodel/contents": Self.renamable.replacingOccurrences(of: "\"title\"", with: "\"label\"")],
      in: folder)
    let before = try String(
      contentsOf: folder.appendingPathComponent("N.xcdatamodel/contents"), encoding: .utf8)
    let ambiguous = try CLI.run("outline", ["model", "rename", "Item.label", "name", "."], in: folder)
    #expect(ambiguous.status == 2)
    #expect(
      ambiguous.stderr.contains("'Item.label' is in several configured models")
        && ambiguous.stderr.contains("M.xcdatamodel") && ambiguous.stderr.contains("N.xcdatamodel"),
      "\(ambiguous.stderr)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("N.xcdatamodel/contents"), encoding: .utf8)
        == before)

    let none = try CLI.run("outline", ["model", "rename", "Item.title", "name"], in: folder)
    #expect(none.status == 2)
    #expect(none.stderr.contains("no model given, and none is configured"), "\(none.stderr)")
  }

  /// `model diff`: a derived attribute is computed, not optional; a required attribute with a
  /// default needs no value; before, `(optional)` and `data needs-default` said otherwise.
  @Test func diffSaysWhatDerivedAndDefaultedAttributesNeed() throws {
    let folder = try CLI.temporaryFolder()
    let base = """
      <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>
      """
    try CLI.write(
      [
        "Old.xcdatamodel/contents": "<model>\(base)</entity></model>",
        "New.xcdatamodel/contents": """
        <model>\(base)<attribute name="now" attributeType="Double" derived="YES" derivationExpression="now()"/>
        <attribute name="optionalFloat" attributeType="Float" defaultValueString="0.0"/></entity></model>
        """,
      ], in: folder)
    let diff = try CLI.run("outline", ["model", "diff", "Old.xcdatamodel", "New.xcdatamodel"], in: folder)
    #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
    #expect(
      diff.stdout == """
        Old.xcdatamodel -> New.xcdatamodel
          attribute-added: attribute 'Item.now' added (derived: Core Data computes it as 'now()') [inferred; data none]
          attribute-added: attribute 'Item.optionalFloat' added (required, default '0.0': the objects there are take it) [inferred; data none]
        2 changes; lightweight migration can infer them

        """)
  }

  /// Property: for a model with generated names, odd but legal or not, `model check` exits 1
  /// exactly when a name is not one a document can spell; `new` then refuses (naming it, writing
  /// nothing), and otherwise writes an outline `outline-lint` passes with no errors.
  @Test func generatedNamesCheckAndNewAgreeWithLint() throws {
    let folder = try CLI.temporaryFolder()
    try Property.check("model check and new on generated names", cases: 24) { random, seed in
      var used = Set<String>()
      func fresh(property: Bool, optional: Bool = false) -> ModelNameGenerator.Name {
        while true {
          var name = ModelNameGenerator.name(illegalPercent: 8, allowEmpty: false, using: &random)
          // A prefixed name where `new` need not write it: an optional property's.
          if optional && Int.random(in: 0..<4, using: &random) == 0 {
            name = .init(text: ModelNameGenerator.prefixed(using: &random), flaw: nil)
          }
          let reserved = ["xmlns", "version", "model", "modelVersion", "entity", "order"]
          if reserved.contains(name.text) || used.contains(name.text) { continue }
          used.insert(name.text)
          return name
        }
      }
      let root = fresh(property: false)
      let item = fresh(property: false)
      let rootAttribute = fresh(property: true)
      let items = fresh(property: true)
      let home = fresh(property: true)
      let required = fresh(property: true)
      let optional = fresh(property: true, optional: true)
      let names = [root, item, rootAttribute, items, home, required, optional]
      func e(_ name: ModelNameGenerator.Name) -> String { ModelNameGenerator.escaped(name.text) }
      let model = """
        <?xml version="1.0" encoding="UTF-8"?>
        <model>
        <entity name="\(e(root))"><attribute name="\(e(rootAttribute))" attributeType="String"/>
        <relationship name="\(e(items))" optional="YES" toMany="YES" ordered="YES" destinationEntity="\(e(item))" inverseName="\(e(home))"/></entity>
        <entity name="\(e(item))"><attribute name="\(e(required))" attributeType="Integer 32"/>
        <attribute name="\(e(optional))" optional="YES" attributeType="String"/>
        <relationship name="\(e(home))" optional="YES" maxCount="1" destinationEntity="\(e(root))" inverseName="\(e(items))"/></entity>
        </model>
        """
      let name = "M\(seed).xcdatamodel"
      let output = "o\(seed).outline"
      try CLI.write(["\(name)/contents": model], in: folder)
      let illegal = names.filter { !$0.isLegal }
      let check = try CLI.run("outline", ["model", "check", "--quiet", name], in: folder)
      if check.status != (illegal.isEmpty ? 0 : 1) {
        return "model check exited \(check.status) for \(names):\n\(check.stdout)\(check.stderr)"
      }
      let made = try CLI.run("outline", ["new", "--model", name, "-o", output], in: folder)
      let written = FileManager.default.fileExists(atPath: folder.appendingPathComponent(output).path)
      if !illegal.isEmpty {
        if made.status != 1 || written {
          return "new exited \(made.status) (written: \(written)) for \(names)"
        }
        if !made.stderr.contains("no document can spell") {
          return "new did not name the names: \(made.stderr)"
        }
        return nil
      }
      if made.status != 0 || !written { return "new exited \(made.status) for \(names): \(made.stderr)" }
      let lint = try CLI.run("outline-lint", [output], in: folder)
      if lint.status != 0 {
        let text = (try? String(contentsOf: folder.appendingPathComponent(output), encoding: .utf8)) ?? ""
        return "lint exited \(lint.status) for \(names):\n\(lint.stdout)\n\(text)"
      }
      return nil
    }
  }
}
