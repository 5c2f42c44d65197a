import Foundation
import OutlineJSON
import TestSupport
import Testing

/// `outline merge` through the binary: each rule of issue 34 as a user meets it, the exit
/// statuses, where the result goes, and git running it as its merge driver.
@Suite struct MergeCLITests {
  static let base = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <!-- the list -->
      <Item order="0" title="a"/>
      <Item order="1" title="b"/>
    </outline>

    """

  static func adding(_ title: String, to text: String = base) -> String {
    text.replacingOccurrences(
      of: "</outline>", with: "  <Item order=\"2\" title=\"\(title)\"/>\n</outline>")
  }

  /// Writes the three sides into a new folder and runs `outline merge` on them.
  static func merge(
    _ base: String, _ ours: String, _ theirs: String, extra: [String] = [], suffix: String = ".outline"
  ) throws -> (CLI.Output, result: String, folder: URL) {
    let folder = try Scratch.folder("merge")
    for (name, text) in [("base", base), ("ours", ours), ("theirs", theirs)] {
      try text.write(to: folder.appendingPathComponent(name + suffix), atomically: true, encoding: .utf8)
    }
    let output = try CLI.run(
      "outline", ["merge", "base" + suffix, "ours" + suffix, "theirs" + suffix] + extra, in: folder)
    let result = try String(contentsOf: folder.appendingPathComponent("ours" + suffix), encoding: .utf8)
    return (output, result, folder)
  }

  static func lint(_ folder: URL, _ file: String) throws -> CLI.Output {
    try CLI.run("outline-lint", [file], in: folder)
  }

  @Test func bothSidesAddingAtTheEndOfAListMergeCleanlyOursFirst() throws {
    let (output, result, folder) = try Self.merge(Self.base, Self.adding("x"), Self.adding("y"))
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      result
        == Self.base.replacingOccurrences(
          of: "</outline>",
          with: "  <Item order=\"2\" title=\"x\"/>\n  <Item order=\"3\" title=\"y\"/>\n</outline>"))
    #expect(try Self.lint(folder, "ours.outline").status == 0)
  }

  @Test func oneSidedChangesMovesAndEditsCombine() throws {
    let base = """
      <outline version="1">
        <Item order="0" title="a">
          <Item order="0" title="child"/>
        </Item>
        <Item order="1" title="b"/>
      </outline>

      """
    let ours = """
      <outline version="1">
        <Item order="0" title="a"/>
        <Item order="1" title="b">
          <Item order="0" title="child"/>
        </Item>
      </outline>

      """
    let theirs = base.replacingOccurrences(of: "\"child\"", with: "\"child 2\"")
      .replacingOccurrences(of: "title=\"a\"", with: "title=\"A\"")
    let (output, result, _) = try Self.merge(base, ours, theirs)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      result
        == ours.replacingOccurrences(of: "\"child\"", with: "\"child 2\"").replacingOccurrences(
          of: "title=\"a\"", with: "title=\"A\""))
  }

  @Test func identicalChangesOnBothSidesAreOne() throws {
    let both = Self.adding("x").replacingOccurrences(of: "title=\"a\"", with: "title=\"A\"")
    let (output, result, _) = try Self.merge(Self.base, both, both)
    #expect(output.status == 0)
    #expect(result == both)
  }

  @Test func conflictsExitOneWithRecordsTheLinterReports() throws {
    let ours = Self.base.replacingOccurrences(of: "title=\"b\"", with: "title=\"mine\"")
    let theirs = Self.base.replacingOccurrences(of: "title=\"b\"", with: "title=\"yours\"")
    let (output, result, folder) = try Self.merge(Self.base, ours, theirs)
    #expect(output.status == 1)
    #expect(
      output.stderr.contains("ours.outline:5:3: error: Merge conflict: 'title' is 'mine'"), "\(output.stderr)"
    )
    #expect(
      result.contains(
        "<?outline-conflict kind=\"attribute\" name=\"title\" base=\"b\" ours=\"mine\" theirs=\"yours\"?>"))
    let lint = try Self.lint(folder, "ours.outline")
    #expect(lint.status == 1)
    #expect(lint.stdout.contains("ours.outline:5:3"), "\(lint.stdout)")
    #expect(lint.stdout.contains("OL600"), "\(lint.stdout)")
  }

  @Test func twoReordersAreAConflictAndCommentsInAnEditedItemStay() throws {
    func side(_ titles: [String], _ done: String?) -> String {
      var text =
        "<outline version=\"1\">\n  <Item order=\"0\" title=\"p\"\(done.map { " done=\"\($0)\"" } ?? "")>\n"
      for (rank, title) in titles.enumerated() {
        text += "    <Item order=\"\(rank)\" title=\"\(title)\"/>\n"
      }
      return text + "    <!-- end of p -->\n  </Item>\n</outline>\n"
    }
    let base = side(["a", "b", "c"], nil)
    let ours = side(["c", "b", "a"], "true").replacingOccurrences(of: "title=\"p\"", with: "title=\"P\"")
    let (output, result, folder) = try Self.merge(base, ours, side(["b", "a", "c"], "false"))
    #expect(output.status == 1, "\(output.stderr)")
    #expect(output.stderr.contains("reordered the children of 'P' differently"), "\(output.stderr)")
    #expect(result.contains("<!-- end of p -->"), "\(result)")
    #expect(result.contains("kind=\"order\""), "\(result)")
    let lint = try Self.lint(folder, "ours.outline")
    #expect(lint.status == 1)
    #expect(lint.stdout.contains("OL600"), "\(lint.stdout)")
  }

  @Test func removedAgainstChangedAndTwoParentsAreConflicts() throws {
    let removed = Self.base.replacingOccurrences(of: "  <Item order=\"1\" title=\"b\"/>\n", with: "")
    let changed = Self.base.replacingOccurrences(of: "title=\"b\"", with: "title=\"b2\"")
    let (output, result, _) = try Self.merge(Self.base, removed, changed)
    #expect(output.status == 1)
    #expect(result.contains("kind=\"removed\" side=\"ours\""))
    #expect(result.contains("title=\"b2\""))
  }

  @Test func aSideThatDoesNotParseLeavesOursUntouched() throws {
    let ours = Self.adding("x")
    let (output, result, _) = try Self.merge(Self.base, ours, "<outline><Item></outline>")
    #expect(output.status == 2)
    #expect(output.stderr.contains("theirs 'theirs.outline' does not parse"), "\(output.stderr)")
    #expect(result == ours)
  }

  @Test func dashOWritesElsewhereAndThePathFindsTheModel() throws {
    let (output, result, folder) = try Self.merge(
      Self.base, Self.adding("x"), Self.adding("y"),
      extra: ["-o", "merged.outline", "--path", "sub/real.outline"])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(result == Self.adding("x"))
    let merged = try String(contentsOf: folder.appendingPathComponent("merged.outline"), encoding: .utf8)
    #expect(merged.contains("title=\"y\""))
  }

  @Test func commentsEachSideAddedComeThroughAndTheResultStaysCanonical() throws {
    // Ours: a comment inside an item it adds. Theirs: an item of its own with comments, and a
    // comment before an item both have.
    let ours = Self.base.replacingOccurrences(
      of: "</outline>",
      with: "  <Item order=\"2\" title=\"x\">\n    <!-- ours inside x -->\n  </Item>\n</outline>")
    let theirs = Self.base.replacingOccurrences(
      of: "  <Item order=\"1\" title=\"b\"/>\n",
      with: """
          <!-- theirs before b -->
          <Item order="1" title="b"/>
          <!-- theirs before y -->
          <Item order="2" title="y">
            <!-- theirs inside y -->
            <Item order="0" title="y1"/>
          </Item>

        """)
    let (output, result, folder) = try Self.merge(Self.base, ours, theirs)
    #expect(output.status == 0, "\(output.stderr)")
    for comment in ["the list", "ours inside x", "theirs before b", "theirs before y", "theirs inside y"] {
      #expect(result.components(separatedBy: "<!-- \(comment) -->").count == 2, "\(comment)\n\(result)")
    }
    #expect(try Self.lint(folder, "ours.outline").status == 0)
    #expect(try CLI.run("outline", ["fmt", "--check", "ours.outline"], in: folder).status == 0, "\(result)")
  }

  /// A model of the project whose order attribute is `rank` (`outline.order`) and title `name`.
  static let planModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Step" syncable="YES">
        <attribute name="rank" attributeType="Integer 32" usesScalarValueType="YES"/>
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Step" inverseName="steps" inverseEntity="Step"/>
        <relationship name="steps" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Step" inverseName="parent" inverseEntity="Step"/>
        <userInfo>
          <entry key="outline.order" value="rank"/>
          <entry key="outline.title" value="name"/>
        </userInfo>
      </entity>
    </model>

    """

  /// A plan of that model (`header` is the root's start tag) with steps `names`, ranked from 0.
  static func plan(_ header: String, _ names: [String]) -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(header)\n"
    for (rank, name) in names.enumerated() { text += "  <Step rank=\"\(rank)\" name=\"\(name)\"/>\n" }
    return text + "</outline>\n"
  }

  @Test(
    arguments: [
      // The document names its model, relative to its real folder.
      (#"<outline version="1" model="../models/Plan.xcdatamodel">"#, nil),
      // The document names none; the project's .outline.json gives it for its folder.
      (
        #"<outline version="1">"#, #"{"models": [{"files": "plans/**", "model": "models/Plan.xcdatamodel"}]}"#
      ),
    ] as [(String, String?)])
  func thePathFindsTheProjectsModelForGitsTemporaryCopies(header: String, configuration: String?) throws {
    let folder = try Scratch.folder("merge-model")
    defer { try? FileManager.default.removeItem(at: folder) }
    let base = Self.plan(header, ["a", "b"])
    var files = [
      "models/Plan.xcdatamodel/contents": Self.planModel, "plans/week.outline": base,
      // Git's temporary copies: another folder, names without the file's.
      "git-tmp/.merge_file_O": base, "git-tmp/.merge_file_A": Self.plan(header, ["a", "b", "x"]),
      "git-tmp/.merge_file_B": Self.plan(header, ["a", "b", "y"]),
    ]
    if let configuration { files[".outline.json"] = configuration }
    try CLI.write(files, in: folder)
    let merge = try CLI.run(
      "outline",
      [
        "merge", "git-tmp/.merge_file_O", "git-tmp/.merge_file_A", "git-tmp/.merge_file_B", "--path",
        "plans/week.outline",
      ], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    let result = try String(
      contentsOf: folder.appendingPathComponent("git-tmp/.merge_file_A"), encoding: .utf8)
    // The model's order attribute is `rank`: theirs' step is renumbered after ours'.
    #expect(result == Self.plan(header, ["a", "b", "x", "y"]), "\(result)")
    // Git copies the result to the file's path; it lints clean with the project's model there.
    try result.write(
      to: folder.appendingPathComponent("plans/week.outline"), atomically: true, encoding: .utf8)
    let lint = try CLI.run("outline-lint", ["plans/week.outline"], in: folder)
    #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    // Without --path, the model is looked for from the temporary folder and not found there.
    let blind = try CLI.run(
      "outline",
      [
        "merge", "git-tmp/.merge_file_O", "git-tmp/.merge_file_B", "git-tmp/.merge_file_B", "-o",
        "blind.outline",
      ],
      in: folder)
    let blindResult = try? String(contentsOf: folder.appendingPathComponent("blind.outline"), encoding: .utf8)
    #expect(blind.status != 0 || blindResult?.contains("rank=\"3\"") != true, "\(blind.stderr)")
  }

  @Test func theJSONFormMergesToo() throws {
    func json(_ titles: [String]) -> String {
      let items = titles.enumerated().map {
        "{\"@entity\": \"Item\", \"order\": \($0.offset), \"title\": \"\($0.element)\"}"
      }
      return "{\"@outline\": 1, \"children\": [\(items.joined(separator: ", "))]}\n"
    }
    let (output, result, folder) = try Self.merge(
      json(["a", "b"]), json(["a", "b", "x"]), json(["a", "b", "y"]), suffix: ".json")
    #expect(output.status == 0, "\(output.stderr)")
    #expect(result.contains("\"x\""), "\(result)")
    #expect(result.contains("\"y\""), "\(result)")
    #expect(try Self.lint(folder, "ours.json").status == 0)
  }
}

/// The conflict a merge leaves, resolved in the editor: the real server over stdio.
@Suite struct MergeConflictServerTests {
  @Test func theServerPicksASideOfARecordedConflictOverStdio() throws {
    let ours = MergeCLITests.base.replacingOccurrences(of: "title=\"b\"", with: "title=\"mine\"")
    let theirs = MergeCLITests.base.replacingOccurrences(of: "title=\"b\"", with: "title=\"yours\"")
    let (_, merged, _) = try MergeCLITests.merge(MergeCLITests.base, ours, theirs)
    let uri = "file:///tmp/outline-merge-conflict/list.outline"
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, merged)
    let diagnostics = try #require(client.diagnostics(uri, version: 1)?["diagnostics"])
    #expect(diagnostics.arrayValue?.compactMap { $0["code"]?.stringValue } == ["OL600"])
    let actions = client.codeActions(uri, line: 4, character: 4, diagnostics: diagnostics)
    let theirsAction = try #require(
      actions.first { $0["title"]?.stringValue == "Take theirs: title 'yours'" })
    #expect(applyLSPEdits(workspaceEdits(theirsAction["edit"]), to: merged) == theirs)
    _ = client.request("shutdown")
    client.notify("exit", [:])
    #expect(client.close() == 0)
  }
}

/// Git running `outline merge` as its merge driver, set up exactly as Git.md says.
@Suite struct MergeGitTests {
  let repository: URL
  let environment: [String: String]

  init() throws {
    repository = try Scratch.folder("merge-git")
    environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": repository.path, "GIT_CONFIG_NOSYSTEM": "1",
      "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
      "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
    ]
  }

  @discardableResult
  func git(_ arguments: String...) throws -> CLI.Output {
    try CLI.program("git", arguments, environment: environment, in: repository)
  }

  func write(_ text: String, _ name: String = "list.outline") throws {
    try text.write(to: repository.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }

  func read() throws -> String {
    try String(contentsOf: repository.appendingPathComponent("list.outline"), encoding: .utf8)
  }

  /// A repository with the driver set up and two branches made from `base` by `ours` and `theirs`.
  func branches(base: String, ours: String, theirs: String) throws {
    try git("init", "-q", "-b", "main")
    try write("*.outline merge=outline\n", ".gitattributes")
    let outline = CLI.products.appendingPathComponent("outline").path
    try git("config", "merge.outline.driver", "\(outline) merge %O %A %B --path %P")
    try write(base)
    try git("add", ".")
    try git("commit", "-q", "-m", "base")
    try git("checkout", "-q", "-b", "theirs")
    try write(theirs)
    try git("commit", "-q", "-am", "theirs")
    try git("checkout", "-q", "main")
    try write(ours)
    try git("commit", "-q", "-am", "ours")
  }

  @Test func twoBranchesAddingAtTheEndOfAListMergeCleanly() throws {
    try branches(
      base: MergeCLITests.base, ours: MergeCLITests.adding("x"), theirs: MergeCLITests.adding("y"))
    let merge = try git("merge", "-q", "--no-edit", "theirs")
    #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
    let merged = try read()
    #expect(
      merged.contains("<Item order=\"2\" title=\"x\"/>\n  <Item order=\"3\" title=\"y\"/>"), "\(merged)")
    #expect(try CLI.run("outline-lint", ["list.outline"], in: repository).status == 0)
    // Git's own line merge of the same branches (no driver defined: git merges text) conflicts.
    try git("reset", "-q", "--hard", "HEAD~1")
    try git("config", "--unset", "merge.outline.driver")
    #expect(try git("merge", "-q", "--no-edit", "theirs").status != 0)
  }

  @Test func aConflictIsOneGitReportsAndTheLinterPointsAt() throws {
    let base = MergeCLITests.base
    try branches(
      base: base, ours: base.replacingOccurrences(of: "title=\"b\"", with: "title=\"mine\""),
      theirs: base.replacingOccurrences(of: "title=\"b\"", with: "title=\"yours\""))
    let merge = try git("merge", "--no-edit", "theirs")
    #expect(merge.status == 1)
    #expect(merge.stdout.contains("CONFLICT"), "\(merge.stdout)")
    let lint = try CLI.run("outline-lint", ["list.outline"], in: repository)
    #expect(lint.status == 1)
    #expect(lint.stdout.contains("list.outline:5:3") && lint.stdout.contains("OL600"), "\(lint.stdout)")
  }
}
