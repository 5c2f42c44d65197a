import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// `outline-lint --fix`, `--diff` and the server's renumber actions keep the
/// order the values give: the order attribute, not the position in the file,
/// is the data. A list written backwards with one duplicate gets one edit.
@Suite struct FixKeepsOrderCLITests {
  static let reversed = SiblingOrderDocument.reversedWithADuplicate

  static let reversedFixed = reversed.replacingOccurrences(
    of: "\"fifth\" order=\"3\"", with: "\"fifth\" order=\"4\"")

  func read(_ name: String, in folder: URL) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  @Test func fixChangesOnlyTheSecondOfTheDuplicates() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["list.outline": Self.reversed], in: folder)
    let run = try CLI.run("outline-lint", ["--fix", "list.outline"], in: folder)
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stderr.contains("fixed list.outline: 1 order value renumbered, 0 errors remain"), "\(run.stderr)")
    #expect(try read("list.outline", in: folder) == Self.reversedFixed)
    // The list is still written backwards: a hint, which a second fix leaves alone.
    #expect(run.stdout.contains("hint[OL403]"), "\(run.stdout)")
    let again = try CLI.run("outline-lint", ["--fix", "list.outline"], in: folder)
    #expect(again.status == 0 && !again.stderr.contains("fixed"), "\(again)")
    #expect(try read("list.outline", in: folder) == Self.reversedFixed)
  }

  @Test func diffShowsTheOneLineThatChanges() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["list.outline": Self.reversed], in: folder)
    let run = try CLI.run("outline-lint", ["--diff", "list.outline"], in: folder)
    #expect(run.status == 1, "\(run)")
    #expect(
      run.stdout == """
        --- list.outline
        +++ list.outline
        @@ -3,5 +3,5 @@
           <Item title="second" order="1"/>
           <Item title="first" order="0"/>
           <Item title="fourth" order="3"/>
        -  <Item title="fifth" order="3"/>
        +  <Item title="fifth" order="4"/>
         </outline>

        """, "\(run.stdout)")
    #expect(try read("list.outline", in: folder) == Self.reversed)
  }

  @Test func theJSONFormIsLeftAloneAndSaidToBe() throws {
    let json = """
      {"@outline":1,"@entity":"Item","children":[
      {"@entity":"Item","order":2,"title":"third"},
      {"@entity":"Item","order":1,"title":"second"},
      {"@entity":"Item","order":0,"title":"first"},
      {"@entity":"Item","order":3,"title":"fourth"},
      {"@entity":"Item","order":3,"title":"fifth"}
      ]}

      """
    let folder = try CLI.temporaryFolder()
    try CLI.write(["list.outline.json": json], in: folder)
    // `--fix` rewrites XML only: it says it leaves the file, and `--diff` does not call it clean.
    let run = try CLI.run("outline-lint", ["--fix", "list.outline.json"], in: folder)
    #expect(run.status == 1 && run.stdout.contains("error[OL401]"), "\(run)")
    #expect(
      run.stderr
        == "not fixed list.outline.json: --fix does not rewrite the JSON form; renumber its orders by hand\n")
    #expect(try read("list.outline.json", in: folder) == json)
    let diff = try CLI.run("outline-lint", ["--diff", "list.outline.json"], in: folder)
    #expect(diff.status == 1 && diff.stdout.isEmpty, "\(diff)")
    #expect(
      diff.stderr.hasSuffix("nothing to fix; 1 file cannot be fixed: in the JSON form\n"), "\(diff.stderr)")
    #expect(try read("list.outline.json", in: folder) == json)
    // A clean JSON form file has nothing to say.
    try CLI.write(
      [
        "clean.outline.json": json.replacingOccurrences(
          of: "\"order\":3,\"title\":\"fifth\"", with: "\"order\":4,\"title\":\"fifth\"")
      ], in: folder)
    let clean = try CLI.run("outline-lint", ["--diff", "clean.outline.json"], in: folder)
    #expect(clean.status == 0 && clean.stderr == "nothing to fix\n", "\(clean)")
  }

  @Test func theServersQuickFixAndFixAllOverStdio() throws {
    let uri = "file:///tmp/outline-fix-keeps-order/list.outline"
    let client = try LSPClient()
    _ = client.initialize()
    client.open(uri, Self.reversed)
    let diagnostics = try #require(client.diagnostics(uri, version: 1)?["diagnostics"])
    #expect(diagnostics.arrayValue?.compactMap { $0["code"]?.stringValue } == ["OL401"])
    let actions = client.codeActions(uri, line: 5, character: 4, diagnostics: diagnostics)
    let quickFix = try #require(
      actions.first { $0["title"]?.stringValue?.hasPrefix("Renumber children") == true })
    #expect(applyLSPEdits(workspaceEdits(quickFix["edit"]), to: Self.reversed) == Self.reversedFixed)
    let fixAll = try #require(actions.first { $0["kind"]?.stringValue == "source.fixAll" })
    #expect(applyLSPEdits(workspaceEdits(fixAll["edit"]), to: Self.reversed) == Self.reversedFixed)
    _ = client.request("shutdown")
    client.notify("exit", [:])
    #expect(client.close() == 0)
  }

  /// Generated groups through the binaries: `--diff` shows what `--fix`
  /// writes, the fix keeps the order valid values give and changes only the
  /// order values that must change, a second `--fix` changes nothing, and the
  /// server's fix-all and `outline.renumber` make the same text.
  @Test func generatedGroupsThroughTheBinaries() throws {
    let folder = try CLI.temporaryFolder()
    let client = try LSPClient()
    _ = client.initialize()
    var number = 0
    try Property.check("--fix keeps the order valid values give", cases: 30) { random, _ in
      let document = SiblingOrderDocument.generate(&random)
      number += 1
      let name = "case\(number).outline"
      try CLI.write([name: document.text], in: folder)
      let diff = try CLI.run("outline-lint", ["--diff", name], in: folder)
      let fix = try CLI.run("outline-lint", ["--fix", name], in: folder)
      let fixed = try read(name, in: folder)
      if let problem = document.check(fixed: fixed) { return "--fix: \(problem)\n\(document.text)" }
      if fix.status != 0 { return "errors remain after --fix: \(fix.stdout)" }
      let expectedDiff =
        fixed == document.text
        ? ""
        : String(
          decoding: LineDiff.unified(
            Array(document.text.utf8), Array(fixed.utf8), oldName: name, newName: name), as: UTF8.self)
      if diff.stdout != expectedDiff || diff.status != (expectedDiff.isEmpty ? 0 : 1) {
        return
          "--diff (exit \(diff.status)) is not what --fix did:\n\(diff.stdout)\nexpected:\n\(expectedDiff)"
      }
      let again = try CLI.run("outline-lint", ["--fix", name], in: folder)
      if try read(name, in: folder) != fixed || again.stderr.contains("fixed") {
        return "a second --fix changed the file: \(again.stderr)"
      }
      // The server, on the text as it was.
      let uri = folder.appendingPathComponent("open\(number).outline").absoluteString
      client.open(uri, document.text)
      guard let diagnostics = client.diagnostics(uri, version: 1)?["diagnostics"] else {
        return "no diagnostics published"
      }
      let actions = client.codeActions(uri, line: 0, character: 1, diagnostics: diagnostics)
      let fixAll = actions.first { $0["kind"]?.stringValue == "source.fixAll" }
      let byAction = applyLSPEdits(workspaceEdits(fixAll?["edit"]), to: document.text)
      if byAction != fixed { return "the fix-all action gives:\n\(byAction)\n--fix gives:\n\(fixed)" }
      let command = client.request(
        "workspace/executeCommand", ["command": "outline.renumber", "arguments": [.string(uri)]])
      let byCommand = applyLSPEdits(workspaceEdits(command?["result"]), to: document.text)
      if byCommand != fixed { return "outline.renumber gives:\n\(byCommand)\n--fix gives:\n\(fixed)" }
      if fixed != document.text {
        // The command also sends its edit to be applied: the same edit.
        let apply = client.wait(timeout: 10) { $0["method"] == "workspace/applyEdit" }
        if let id = apply?["id"] { client.send(["jsonrpc": "2.0", "id": id, "result": ["applied": true]]) }
        if applyLSPEdits(workspaceEdits(apply?["params"]?["edit"]), to: document.text) != fixed {
          return "outline.renumber applies another edit than it answers"
        }
      }
      return nil
    }
    _ = client.request("shutdown")
    client.notify("exit", [:])
    #expect(client.close() == 0)
  }
}
