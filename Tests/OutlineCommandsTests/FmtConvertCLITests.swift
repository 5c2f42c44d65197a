import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct FmtCLITests {
  static let messy =
    "<outline   version=\"1\"><!-- keep me -->\n<Item title=\"a\"   order=\"0\"></Item></outline>"
  static let canonical = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <!-- keep me -->
      <Item order="0" title="a"/>
    </outline>

    """

  @Test func formatsInPlaceAtomicallyAndChecks() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.messy, "b.outline": Self.canonical], in: folder)
    chmod(folder.appendingPathComponent("a.outline").path, 0o600)
    let check = try CLI.run("outline", ["fmt", "--check", "."], in: folder)
    #expect(check.status == 1)
    #expect(check.stdout == "a.outline\n")
    #expect(try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8) == Self.messy)
    let run = try CLI.run("outline", ["fmt", "."], in: folder)
    #expect(run.status == 0)
    #expect(
      try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8) == Self.canonical)
    var info = stat()
    stat(folder.appendingPathComponent("a.outline").path, &info)
    #expect(info.st_mode & 0o777 == 0o600)
    #expect(try CLI.run("outline", ["fmt", "--check", "."], in: folder).status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.outline", "b.outline"])
  }

  /// `--diff` prints what formatting would change as `diff -u` does, for each file that would
  /// change and for standard input, writes nothing, and exits 1; `patch -p0` applies it. With
  /// no path, fmt works on the current folder, as outline-lint does.
  @Test func diffShowsWhatWouldChangeAndWritesNothing() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.messy, "b.outline": Self.canonical], in: folder)
    let expected = """
      --- a.outline
      +++ a.outline
      @@ -1,2 +1,5 @@
      -<outline   version="1"><!-- keep me -->
      -<Item title="a"   order="0"></Item></outline>
      \\ No newline at end of file
      +<?xml version="1.0" encoding="UTF-8"?>
      +<outline version="1">
      +  <!-- keep me -->
      +  <Item order="0" title="a"/>
      +</outline>

      """
    let diff = try CLI.run("outline", ["fmt", "--diff"], in: folder)
    #expect(diff.status == 1, "\(diff.stderr)")
    #expect(diff.stdout == expected)
    #expect(try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8) == Self.messy)
    #expect(try CLI.run("outline", ["fmt", "--diff", "b.outline"], in: folder).stdout.isEmpty)
    #expect(try CLI.run("outline", ["fmt", "--diff", "b.outline"], in: folder).status == 0)
    let piped = try CLI.run("outline", ["fmt", "--diff", "-"], input: Self.messy)
    #expect(piped.status == 1)
    #expect(piped.stdout == expected.replacingOccurrences(of: "a.outline", with: "<stdin>"))
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/patch") {
      try CLI.write(["changes.diff": diff.stdout], in: folder)
      let patch = try CLI.program("/usr/bin/patch", ["-p0", "--silent", "-i", "changes.diff"], in: folder)
      #expect(patch.status == 0, "\(patch.stdout)\(patch.stderr)")
      #expect(try CLI.run("outline", ["fmt", "--check"], in: folder).status == 0)
    } else {
      print("patch is not installed: the diff is not applied")
    }
    try CLI.write(["a.outline": Self.messy], in: folder)
    #expect(try CLI.run("outline", ["fmt"], in: folder).status == 0)
    #expect(
      try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8) == Self.canonical)
  }

  /// `--stdin-filename` names what standard input stands for, as ruff's option does: the
  /// configuration and model are those of that path, and lint's diagnostics and fmt's messages
  /// name it; alone it implies `-`; given with paths that do not include `-` it is a usage error.
  @Test func standardInputStandsForTheFileItIsNamed() throws {
    let folder = try CLI.temporaryFolder()
    let document = "<outline>\n  <Item title=\"a\" order=\"1\"/>\n</outline>\n"
    try CLI.write(
      ["notes/.outline.json": #"{"rules": {"OL402": "warning"}}"#, "notes/a.outline": document], in: folder)
    let plain = try CLI.run("outline-lint", ["-"], in: folder, input: document)
    #expect(plain.status == 1)
    #expect(plain.stdout.hasPrefix("<stdin>:2:26: error[OL402]"), "\(plain.stdout)")
    for arguments in [["--stdin-filename", "notes/a.outline"], ["--stdin-filename=notes/a.outline", "-"]] {
      let named = try CLI.run("outline-lint", arguments, in: folder, input: document)
      #expect(named.status == 0, "\(arguments): \(named.stderr)")
      #expect(named.stdout.hasPrefix("notes/a.outline:2:26: warning[OL402]"), "\(named.stdout)")
    }
    let json = try CLI.run(
      "outline", ["lint", "--format", "json", "--stdin-filename", "notes/a.outline"], in: folder,
      input: document)
    #expect(json.stdout.contains(#""path": "notes/a.outline""#), "\(json.stdout)")
    let misused = try CLI.run(
      "outline-lint", ["--stdin-filename", "x.outline", "notes/a.outline"], in: folder)
    #expect(misused.status == 2)
    #expect(misused.stderr.contains("--stdin-filename names standard input"), "\(misused.stderr)")
    let diff = try CLI.run(
      "outline", ["fmt", "--diff", "--stdin-filename", "notes/a.outline"], in: folder, input: document)
    #expect(diff.status == 1)
    #expect(diff.stdout.hasPrefix("--- notes/a.outline\n+++ notes/a.outline\n"), "\(diff.stdout)")
    let broken = try CLI.run(
      "outline", ["fmt", "--stdin-filename", "notes/b.outline"], in: folder, input: "<outline>")
    #expect(broken.status == 1)
    #expect(broken.stderr.contains("cannot format notes/b.outline:1:"), "\(broken.stderr)")
  }

  /// `--config PATH` gives every document that configuration instead of the one found for it,
  /// and `--isolated` none, in lint and fmt (ruff's options of those names); both at once is a
  /// usage error, and a chosen file that cannot be read is the run's trouble (exit 2).
  @Test func aChosenConfigurationOrNoneReplacesTheOneFound() throws {
    let folder = try CLI.temporaryFolder()
    let document = "<outline>\n  <Item title=\"a\" order=\"1\"/>\n</outline>\n"
    try CLI.write(
      [
        "notes/.outline.json": #"{"rules": {"OL402": "warning"}}"#, "notes/a.outline": document,
        "strict.json": #"{"rules": {"OL402": "off"}, "exclude": ["notes/skipped.outline"]}"#,
        "notes/skipped.outline": "<outline>",
      ], in: folder)
    let found = try CLI.run("outline-lint", ["notes/a.outline"], in: folder)
    #expect(found.status == 0 && found.stdout.contains("warning[OL402]"), "\(found.stdout)")
    for tool in [["outline-lint"], ["outline", "lint"]] {
      let chosen = try CLI.run(
        tool[0], Array(tool.dropFirst()) + ["--config", "strict.json", "notes"], in: folder)
      #expect(chosen.status == 0, "\(tool): \(chosen.stdout)\(chosen.stderr)")
      #expect(chosen.stdout == "0 errors, 0 warnings in 1 file\n", "\(tool): \(chosen.stdout)")
      let isolated = try CLI.run(
        tool[0], Array(tool.dropFirst()) + ["--isolated", "notes/a.outline"], in: folder)
      #expect(isolated.status == 1 && isolated.stdout.contains("error[OL402]"), "\(tool): \(isolated.stdout)")
    }
    let both = try CLI.run("outline-lint", ["--config", "strict.json", "--isolated", "notes"], in: folder)
    #expect(both.status == 2 && both.stderr.contains("--config and --isolated cannot both be given"))
    let missing = try CLI.run("outline-lint", ["--config", "ci/nope.json", "notes/a.outline"], in: folder)
    #expect(missing.status == 2 && missing.stdout.contains("error[OC100]"), "\(missing.stdout)")
    // fmt: the chosen configuration's exclude passes over the broken file in the folder search.
    let fmt = try CLI.run("outline", ["fmt", "--check", "--config", "strict.json", "notes"], in: folder)
    #expect(fmt.status == 1 && fmt.stdout == "notes/a.outline\n", "\(fmt.stdout)\(fmt.stderr)")
    let fmtBoth = try CLI.run(
      "outline", ["fmt", "--config", "strict.json", "--isolated", "notes"], in: folder)
    #expect(fmtBoth.status == 2)
  }

  @Test func refusesFilesWithSyntaxErrorsAndLeavesThemUntouched() throws {
    let folder = try CLI.temporaryFolder()
    let broken = "<outline>\n  <Item order=\"0\">\n</outline>\n"
    try CLI.write(["bad.outline": broken], in: folder)
    let run = try CLI.run("outline", ["fmt", "bad.outline"], in: folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("cannot format bad.outline:3:"))
    #expect(try String(contentsOf: folder.appendingPathComponent("bad.outline"), encoding: .utf8) == broken)
  }

  @Test func standardInputToStandardOutput() throws {
    let run = try CLI.run("outline", ["fmt", "-"], input: Self.messy)
    #expect(run.status == 0)
    #expect(run.stdout == Self.canonical)
  }

  /// `&#32;` between tags is what the user wrote: fmt keeps it as written (a line of its own),
  /// in a file and on standard output, and the result is formatted.
  @Test func keepsCharacterReferencesToWhiteSpace() throws {
    let folder = try CLI.temporaryFolder()
    let written = "<outline version=\"1\"><Item title=\"a\" order=\"0\">&#32;</Item>&#xA;</outline>\n"
    let kept = """
      <?xml version="1.0" encoding="UTF-8"?>
      <outline version="1">
        <Item order="0" title="a">
          &#32;
        </Item>
        &#xA;
      </outline>

      """
    try CLI.write(["a.outline": written], in: folder)
    let piped = try CLI.run("outline", ["fmt", "-"], input: written)
    #expect(piped.status == 0)
    #expect(piped.stdout == kept)
    #expect(try CLI.run("outline", ["fmt", "a.outline"], in: folder).status == 0)
    #expect(try String(contentsOf: folder.appendingPathComponent("a.outline"), encoding: .utf8) == kept)
    #expect(try CLI.run("outline", ["fmt", "--check", "a.outline"], in: folder).status == 0)
  }

  @Test func examplesAreAlreadyFormatted() throws {
    let run = try CLI.run("outline", ["fmt", "--check", "examples"])
    #expect(run.status == 0, "\(run.stdout)")
  }
}

@Suite(.serialized) struct ConvertCLITests {
  @Test func badJSONIsReportedWithPathAndNothingIsWritten() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "bad.json":
          "{\"@outline\": 1,\n \"children\": [\n  {\"@entity\": \"Item\", \"order\": \"zero\"}\n ]}\n",
        "existing.outline": "keep\n",
      ], in: folder)
    let run = try CLI.run("outline", ["convert", "bad.json", "-o", "existing.outline"], in: folder)
    #expect(run.status == 1)
    #expect(
      run.stderr.contains("bad.json:3:32: error[OL300]: 'order' must be an integer (at $.children[0].order)"))
    #expect(
      run.stderr.hasSuffix("outline: bad.json is not the JSON form; nothing was written\n"), "\(run.stderr)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("existing.outline"), encoding: .utf8) == "keep\n")
    let missing = try CLI.run("outline", ["convert", "bad.json", "-o", "new.outline"], in: folder)
    #expect(missing.status == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new.outline").path))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "bad.json", "existing.outline",
      ])
  }

  /// Found by FuzzJSON: JSON whose types are right but whose meaning is not
  /// (two children with order 0, a reference to no id) used to become an
  /// outline that failed lint. The written XML is validated as it is written. The input is said
  /// to have errors, not to be other than the JSON form.
  @Test func jsonThatWouldNotLintIsRefusedAtItsObject() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "orders.json": """
        {"@outline": 1, "@entity": "Item", "children": [
          {"@entity": "Item", "order": 0, "title": "a"},
          {"@entity": "Item", "order": 0, "title": "b"}
        ]}
        """,
        "existing.outline": "keep\n",
      ], in: folder)
    for output in ["existing.outline", "-"] {
      let run = try CLI.run("outline", ["convert", "orders.json", "-o", output], in: folder)
      #expect(run.status == 1)
      #expect(
        run.stderr.contains(
          "orders.json:3:32: error[OL401]: Order 0 is used twice among the 2 children of the root object (at $.children[1].order)"
        ), "\(run.stderr)")
      // It is the JSON form: what it says is wrong, as an outline's errors are.
      #expect(run.stderr.hasSuffix("outline: orders.json has errors; nothing was written\n"), "\(run.stderr)")
      #expect(run.stdout.isEmpty)
    }
    #expect(
      try String(contentsOf: folder.appendingPathComponent("existing.outline"), encoding: .utf8) == "keep\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "existing.outline", "orders.json",
      ])
  }

  /// XML -> JSON writes while it validates; children out of order order
  /// are found only at their parent's end, and the output is then written
  /// again, sorted, from the start.
  @Test func childrenOutOfOrderAreSortedInFilesAndOnStandardOutput() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "ooo.outline": """
        <outline version="1"><Item order="1" title="b"/><Item order="0" title="a">\
        <Item order="1" title="y"/><Item order="0" title="x"/></Item></outline>
        """
      ], in: folder)
    let expected = """
      {"@outline":1,"@entity":"Item","children":[
      {"@entity":"Item","order":0,"title":"a","children":[
      {"@entity":"Item","order":0,"title":"x"},
      {"@entity":"Item","order":1,"title":"y"}
      ]},
      {"@entity":"Item","order":1,"title":"b"}
      ]}

      """
    let toStdout = try CLI.run("outline", ["convert", "ooo.outline"], in: folder)
    #expect(toStdout.status == 0, "\(toStdout.stderr)")
    #expect(toStdout.stdout == expected)
    #expect(try CLI.run("outline", ["convert", "ooo.outline", "-o", "ooo.json"], in: folder).status == 0)
    #expect(try String(contentsOf: folder.appendingPathComponent("ooo.json"), encoding: .utf8) == expected)
  }

  @Test func standardStreamsAndDirection() throws {
    let json = try CLI.run(
      "outline", ["convert", "-", "--to", "json"], input: "<outline><Item order=\"0\" title=\"x\"/></outline>"
    )
    #expect(
      json.stdout
        == "{\"@outline\":1,\"@entity\":\"Item\",\"children\":[\n{\"@entity\":\"Item\",\"order\":0,\"title\":\"x\"}\n]}\n"
    )
    let xml = try CLI.run("outline", ["convert", "-", "--to", "xml"], input: json.stdout)
    #expect(xml.stdout.contains("<Item order=\"0\" title=\"x\"/>"))
    let unknown = try CLI.run("outline", ["convert", "-"], input: "")
    #expect(unknown.status != 0 && unknown.stderr.contains("--to"))
  }
}
