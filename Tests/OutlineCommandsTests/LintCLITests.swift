import Foundation
import OutlineCore
import TestSupport
import Testing

let brokenOrders = """
  <?xml version="1.0" encoding="UTF-8"?>
  <outline version="1">
    <!-- kept as it is -->
    <Item title="Groceries" order="0">
      <Item title="Milk" order="0"/>
      <Item title="Eggs"   order="0"/>
      <Item title="Bread"/>
    </Item>
    <Item title="Work" order="3"/>
  </outline>

  """

@Suite(.serialized) struct LintCLITests {
  @Test func textOutputExitCodeAndSummary() throws {
    let run = try CLI.run("outline-lint", ["examples/broken/orders.outline"])
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        examples/broken/orders.outline:6:31: error[OL401]: Order 0 is used twice among the 3 children of 'Groceries'
          examples/broken/orders.outline:5:31: note: order 0 is also here
        examples/broken/orders.outline:7:6: error[OL400]: 'Item' in 'Groceries' has no 'order'
        examples/broken/orders.outline:9:29: error[OL402]: Order 3 is too large: the 2 children of the root object are numbered 0...1 (unused: 1)
        3 errors, 0 warnings in 1 file

        """)
  }

  @Test func examplesLintClean() throws {
    let run = try CLI.run("outline-lint", ["examples"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.hasSuffix("0 errors, 0 warnings in 3 files\n"))
    // `outline lint` is the same command.
    let same = try CLI.run("outline", ["lint", "examples"])
    #expect(same.stdout == run.stdout && same.status == 0)
  }

  @Test func quietPrintsOnlyDiagnostics() throws {
    let run = try CLI.run("outline-lint", ["--quiet", "examples"])
    #expect(run.status == 0 && run.stdout.isEmpty)
  }

  @Test func jsonFormat() throws {
    let run = try CLI.run("outline-lint", ["--format", "json", "examples/broken/orders.outline"])
    #expect(run.status == 1)
    let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    #expect(document["version"] as? Int == 1)
    let files = document["files"] as! [[String: Any]]
    let diagnostics = files[0]["diagnostics"] as! [[String: Any]]
    #expect(diagnostics.map { $0["code"] as! String } == ["OL401", "OL400", "OL402"])
    let range = diagnostics[0]["range"] as! [String: [String: Int]]
    #expect(range["start"] == ["line": 6, "column": 31, "offset": 287])
    let related = diagnostics[0]["related"] as! [[String: Any]]
    #expect(related.count == 1)
    #expect((document["summary"] as! [String: Int])["errors"] == 3)
  }

  /// JSON's `tool` names the command that wrote it: the linter by either name, or the model check.
  @Test func jsonNamesTheCommandThatWroteIt() throws {
    for (tool, arguments) in [
      ("outline-lint", ["outline-lint", "--format", "json", "examples/groceries.outline"]),
      ("outline-lint", ["outline", "lint", "--format", "json", "examples/groceries.outline"]),
      (
        "outline model check",
        ["outline", "model", "check", "--format", "json", "examples/playlist/Playlist.xcdatamodel"]
      ),
    ] {
      let run = try CLI.run(arguments[0], Array(arguments.dropFirst()))
      #expect(run.status == 0, "\(arguments): \(run.stderr)")
      let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
      #expect(document["tool"] as? String == tool, "\(arguments)")
      #expect(
        document["version"] as? Int == 1 && document["files"] is [Any] && document["summary"] is [String: Any]
      )
    }
  }

  /// SARIF and GitHub output name the command that wrote them too; the model check's SARIF
  /// run has its own category (`automationDetails.id`), the lint's none.
  @Test func sarifAndGitHubNameTheCommandThatWroteThem() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["M.xcdatamodel/contents": "<model><entity name=\"A\"></model>"], in: folder)
    for (arguments, tool, category) in [
      (["outline-lint", "--format", "sarif", "missing.outline"], "outline-lint", nil),
      (
        ["outline", "model", "check", "--format", "sarif", "M.xcdatamodel"], "outline model check",
        "outline-model-check/"
      ),
    ] {
      let run = try CLI.run(arguments[0], Array(arguments.dropFirst()), in: folder)
      let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
      let sarifRun = (document["runs"] as! [[String: Any]])[0]
      let driver = (sarifRun["tool"] as! [String: Any])["driver"] as! [String: Any]
      #expect(driver["name"] as? String == tool, "\(arguments)")
      #expect((sarifRun["automationDetails"] as? [String: Any])?["id"] as? String == category, "\(arguments)")
    }
    let github = try CLI.run(
      "outline", ["model", "check", "--format", "github", "Missing.xcdatamodel"], in: folder)
    #expect(github.status == 2)
    #expect(
      github.stdout.hasPrefix("::error file=Missing.xcdatamodel,title=outline model check::"),
      "\(github.stdout)")
  }

  @Test func githubFormat() throws {
    let run = try CLI.run("outline-lint", ["--format", "github", "examples/broken/orders.outline"])
    #expect(run.status == 1)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(
      lines[1]
        == "::error file=examples/broken/orders.outline,line=7,col=6,endLine=7,endColumn=10,title=OL400::'Item' in 'Groceries' has no 'order'"
    )
  }

  @Test func sarifFormat() throws {
    let run = try CLI.run("outline-lint", ["--format", "sarif", "examples/broken/orders.outline"])
    #expect(run.status == 1)
    let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    #expect(document["version"] as? String == "2.1.0")
    let runs = document["runs"] as! [[String: Any]]
    let driver = (runs[0]["tool"] as! [String: Any])["driver"] as! [String: Any]
    let rules = driver["rules"] as! [[String: Any]]
    #expect(rules.count == DiagnosticCatalog.entries.count)
    let results = runs[0]["results"] as! [[String: Any]]
    #expect(results.count == 3)
    for result in results {
      let ruleId = result["ruleId"] as! String
      let index = result["ruleIndex"] as! Int
      #expect(rules[index]["id"] as? String == ruleId)
      let fingerprints = result["partialFingerprints"] as! [String: String]
      #expect(fingerprints["primaryLocationLineHash"]?.isEmpty == false)
      let location = (result["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any]
      let region = location["region"] as! [String: Int]
      #expect(region["startLine"]! >= 1 && region["startColumn"]! >= 1)
    }
    // Fingerprints stay the same when lines move.
    let folder = try CLI.temporaryFolder()
    let original = try String(
      contentsOfFile: "\(CLI.repository.path)/examples/broken/orders.outline", encoding: .utf8)
    try CLI.write(
      [
        "a/orders.outline": original,
        "b/orders.outline": original.replacingOccurrences(
          of: "<outline version=\"1\">", with: "<outline version=\"1\">\n\n"),
      ], in: folder)
    func prints(_ name: String) throws -> [String] {
      let run = try CLI.run("outline-lint", ["--format", "sarif", "\(name)/orders.outline"], in: folder)
      let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
      let results = (document["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]]
      return results.map { ($0["partialFingerprints"] as! [String: String])["primaryLocationLineHash"]! }
    }
    let a = try prints("a")
    // Paths differ, so fingerprints differ; within one path they are stable under moves.
    try CLI.write(
      [
        "a/orders.outline": original.replacingOccurrences(
          of: "<outline version=\"1\">", with: "<outline version=\"1\">\n\n")
      ],
      in: folder)
    #expect(try prints("a") == a)
  }

  /// Every SARIF location resolves to its file, whatever folder the linter ran from: a file
  /// inside it relative to `%SRCROOT%` (the folder, in `originalUriBaseIds`), one outside
  /// it an absolute `file://` URI, names percent-encoded.
  @Test func sarifLocationsResolveFromAnyFolder() throws {
    let folder = try CLI.temporaryFolder()
    let original = try String(
      contentsOfFile: "\(CLI.repository.path)/examples/broken/orders.outline", encoding: .utf8)
    try CLI.write(["sub dir/ö #1.outline": original], in: folder)
    let outside = "\(CLI.repository.path)/examples/broken/orders.outline"
    let inside = folder.appendingPathComponent("sub dir/ö #1.outline").path
    let run = try CLI.run(
      "outline-lint", ["--format", "sarif", outside, "sub dir/ö #1.outline", "./sub dir/../missing.outline"],
      in: folder)
    #expect(run.status == 2, "\(run.stderr)")
    let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let sarif = try #require((log["runs"] as? [[String: Any]])?.first)
    let bases = try #require(sarif["originalUriBaseIds"] as? [String: [String: String]])
    let base = try #require(bases["%SRCROOT%"]?["uri"])
    #expect(base.hasPrefix("file:///") && base.hasSuffix("/"), "\(base)")
    func resolved(_ location: [String: Any]) throws -> String {
      let artifact = try #require(
        (location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: String])
      let uri = try #require(artifact["uri"])
      if let id = artifact["uriBaseId"] {
        #expect(id == "%SRCROOT%" && !uri.hasPrefix("/"), "\(artifact)")
        return try #require(URL(string: uri, relativeTo: URL(string: base))).standardizedFileURL.path
      }
      #expect(uri.hasPrefix("file:///"), "\(artifact)")
      return try #require(URL(string: uri)).path
    }
    let results = try #require(sarif["results"] as? [[String: Any]])
    var paths: Set<String> = []
    for result in results {
      for location in result["locations"] as? [[String: Any]] ?? [] { paths.insert(try resolved(location)) }
    }
    let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
    #expect(Set(paths.map(real)) == [real(outside), real(inside)], "\(paths)")
    #expect(run.stdout.contains("sub%20dir/%C3%B6%20%231.outline"))
    let invocation = try #require((sarif["invocations"] as? [[String: Any]])?.first)
    let notification = try #require((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
    let missing = try resolved(try #require((notification["locations"] as? [[String: Any]])?.first))
    #expect(real(missing) == real(folder.appendingPathComponent("missing.outline").path))
  }

  @Test func exitTwoForMissingFilesAndUnreadableModels() throws {
    let missing = try CLI.run("outline-lint", ["no/such/file.outline"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("does not exist"))
    let model = try CLI.run(
      "outline-lint", ["--model", "no/such/model.xcdatamodeld", "examples/groceries.outline"])
    #expect(model.status == 2)
    #expect(model.stdout.contains("error[OL102]"))
    let usage = try CLI.run("outline-lint", ["--format", "yaml", "examples"])
    #expect(usage.status == 2)
  }

  /// A model the document names that cannot be read is the document's problem
  /// (OL102 at the attribute, exit 1); one the command line or the
  /// configuration names is trouble of the run (exit 2).
  @Test func unreadableModelsAreTheDocumentsOrTheRunsProblem() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "doc/a.outline": "<outline version=\"1\" model=\"Missing.xcdatamodel\"/>\n",
        "doc/ok.outline": "<outline version=\"1\"><Item title=\"x\" order=\"0\"/></outline>\n",
        "configured/.outline.json": #"{"model": "Gone.xcdatamodeld"}"#,
        "configured/b.outline": "<outline version=\"1\"/>\n",
      ], in: folder)
    let document = try CLI.run("outline-lint", ["doc"], in: folder)
    #expect(document.status == 1, "\(document.stdout)\(document.stderr)")
    #expect(
      document.stdout.contains("doc/a.outline:1:29: error[OL102]: The model cannot be read"),
      "\(document.stdout)")
    let json = try CLI.run("outline-lint", ["--format", "json", "doc/a.outline"], in: folder)
    #expect(json.status == 1 && json.stdout.contains("\"OL102\""))
    let commandLine = try CLI.run(
      "outline-lint", ["--model", "Nope.xcdatamodel", "doc/ok.outline"], in: folder)
    #expect(commandLine.status == 2)
    #expect(commandLine.stdout.contains("error[OL102]"))
    let configured = try CLI.run("outline-lint", ["configured"], in: folder)
    #expect(configured.status == 2, "\(configured.stdout)\(configured.stderr)")
    #expect(configured.stdout.contains("configured/b.outline:1:2: error[OL102]"), "\(configured.stdout)")
  }

  @Test func standardInput() throws {
    let run = try CLI.run("outline-lint", ["-"], input: brokenOrders)
    #expect(run.status == 1)
    #expect(run.stdout.contains("<stdin>:6:33: error[OL401]"))
  }

  /// `--diff` shows what `--fix` would renumber as a unified diff on standard output (files
  /// and standard input), writes nothing, exits 1 when there is something to fix and 0 when
  /// not; `patch -p0` makes of it what `--fix` makes.
  @Test func diffShowsTheFixesAndWritesNothing() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["list.outline": brokenOrders, "ok.outline": "<outline><Item order=\"0\"/></outline>\n"], in: folder)
    let run = try CLI.run("outline-lint", ["--diff"], in: folder)
    #expect(run.status == 1, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("--- list.outline\n+++ list.outline\n@@ "), "\(run.stdout)")
    #expect(
      run.stdout.contains("-  <Item title=\"Work\" order=\"3\"/>\n+  <Item title=\"Work\" order=\"1\"/>\n"))
    #expect(!run.stdout.contains("ok.outline") && !run.stdout.contains("error["), "\(run.stdout)")
    #expect(run.stderr == "1 file would be fixed\n")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("list.outline"), encoding: .utf8) == brokenOrders)
    let piped = try CLI.run("outline-lint", ["--diff", "-"], input: brokenOrders)
    #expect(piped.status == 1 && piped.stdout.hasPrefix("--- <stdin>\n+++ <stdin>\n"), "\(piped.stdout)")
    let clean = try CLI.run("outline-lint", ["--diff", "ok.outline"], in: folder)
    #expect(clean.status == 0 && clean.stdout.isEmpty && clean.stderr == "nothing to fix\n")
    // A file that does not parse cannot be fixed: said on standard error, and the run exits 1.
    try CLI.write(["bad.outline": "<outline>\n  <Item order=\"0\">\n</outline>\n"], in: folder)
    let broken = try CLI.run("outline-lint", ["--diff", "bad.outline"], in: folder)
    #expect(broken.status == 1 && broken.stdout.isEmpty, "\(broken.stdout)")
    #expect(broken.stderr.hasPrefix("bad.outline:3:11: error[OL100]"), "\(broken.stderr)")
    #expect(
      broken.stderr.hasSuffix("nothing to fix; 1 file cannot be fixed: not well-formed\n"), "\(broken.stderr)"
    )
    try FileManager.default.removeItem(at: folder.appendingPathComponent("bad.outline"))
    let json = try CLI.run("outline-lint", ["--diff", "--format", "json", "."], in: folder)
    #expect(json.status == 2 && json.stderr.contains("--diff prints the fixes as a diff, not json"))
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/patch") {
      try CLI.write(["fixes.diff": run.stdout], in: folder)
      let patch = try CLI.program("/usr/bin/patch", ["-p0", "--silent", "-i", "fixes.diff"], in: folder)
      #expect(patch.status == 0, "\(patch.stdout)\(patch.stderr)")
      let patched = try String(contentsOf: folder.appendingPathComponent("list.outline"), encoding: .utf8)
      try CLI.write(["list.outline": brokenOrders], in: folder)
      #expect(try CLI.run("outline-lint", ["--fix", "list.outline"], in: folder).status == 0)
      #expect(
        try String(contentsOf: folder.appendingPathComponent("list.outline"), encoding: .utf8) == patched)
    } else {
      print("patch is not installed: the diff is not applied")
    }
  }

  @Test func fixRenumbersOnlyOrderValuesAtomically() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["list.outline": brokenOrders, "bad.outline": "<outline><Item order=\"0\"></outline>\n"], in: folder)
    let list = folder.appendingPathComponent("list.outline").path
    let bad = folder.appendingPathComponent("bad.outline").path
    chmod(list, 0o640)
    let badBefore = try Data(contentsOf: URL(fileURLWithPath: bad))
    let run = try CLI.run("outline-lint", ["--fix", "list.outline", "bad.outline"], in: folder)
    #expect(run.status == 1)  // bad.outline still has its syntax error
    #expect(run.stderr.contains("fixed list.outline: 3 order values renumbered, 0 errors remain"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: bad)) == badBefore)
    let after = try String(contentsOfFile: list, encoding: .utf8)
    #expect(
      after
        == brokenOrders.replacingOccurrences(of: "\"Eggs\"   order=\"0\"", with: "\"Eggs\"   order=\"1\"")
        .replacingOccurrences(of: "<Item title=\"Bread\"/>", with: "<Item order=\"2\" title=\"Bread\"/>")
        .replacingOccurrences(of: "\"Work\" order=\"3\"", with: "\"Work\" order=\"1\""))
    var info = stat()
    stat(list, &info)
    #expect(info.st_mode & 0o777 == 0o640)
    let again = try CLI.run("outline-lint", ["list.outline"], in: folder)
    #expect(again.status == 0)
    // No temporary files are left behind.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(names.sorted() == ["bad.outline", "list.outline"])
  }

  @Test func jobsKeepOutputDeterministic() throws {
    let folder = try CLI.temporaryFolder()
    var files: [String: String] = [:]
    for index in 0..<40 {
      files[String(format: "f%02d.outline", index)] = index % 3 == 0 ? brokenOrders : "<outline/>\n"
    }
    try CLI.write(files, in: folder)
    let one = try CLI.run("outline-lint", ["--jobs", "1", "."], in: folder)
    let many = try CLI.run("outline-lint", ["--jobs", "4", "."], in: folder)
    #expect(one.status == 1 && many.status == 1)
    #expect(one.stdout == many.stdout)
    #expect(one.stdout.hasSuffix("42 errors, 0 warnings in 40 files\n"))
    #expect(one.stderr.isEmpty)  // no progress when stderr is not a terminal
  }

  @Test func suppressionComments() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "s.outline": """
        <outline>
          <!-- outline-disable OL403 -->
          <Item order="1"/><Item order="0"/>
          <!-- outline-disable-next OL203 -->
          <Item order="2" colour="red"/>
        </outline>

        """
      ], in: folder)
    let run = try CLI.run("outline-lint", ["s.outline"], in: folder)
    #expect(run.status == 0, "\(run.stdout)")
  }
}

@Suite struct StreamingCLITests {
  /// A file is validated as it streams and only reported lines are read back;
  /// standard input is read whole. Both must print the same positions,
  /// including after non-ASCII text and CRLF line ends.
  @Test func streamedFileAndStandardInputAgree() throws {
    let text =
      "<outline>\r\n  <Item title=\"é 中文 😀\" order=\"0\"/>\r\n  <Item title=\"😀\" order=\"7\"/>\r\n"
      + "  <Item title=\"x\" order=\"x\"/>\r\n</outline>\r\n"
    let folder = try CLI.temporaryFolder()
    try CLI.write(["crlf.outline": text], in: folder)
    let file = try CLI.run("outline-lint", ["--format", "json", "crlf.outline"], in: folder)
    let stdin = try CLI.run("outline-lint", ["--format", "json", "-"], in: folder, input: text)
    #expect(file.stdout.replacingOccurrences(of: "crlf.outline", with: "<stdin>") == stdin.stdout)
    let text1 = try CLI.run("outline-lint", ["crlf.outline"], in: folder)
    #expect(text1.stdout.contains("crlf.outline:3:26: error[OL402]"))
    #expect(text1.stdout.contains("crlf.outline:4:26: error[OL300]"))
  }
}
