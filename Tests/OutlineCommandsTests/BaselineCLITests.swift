import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

/// `outline-lint --write-baseline` and `--baseline` (Documentation/Baseline.md) through the
/// binary: a problem keeps its fingerprint across items inserted above it, reindentation and
/// `fmt`; a new problem is reported while the baselined ones are not; the summaries count both
/// kinds; SARIF carries the fingerprints and each result's `baselineState`; `.outline.json`
/// names a baseline, and the language server honours it.
@Suite struct BaselineCLITests {
  /// Two problems: an unknown attribute on Milk, another on Eggs.
  static let legacy = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="W">
      <Item order="0" title="Groceries">
        <Item order="0" title="Milk" bogus="1"/>
        <Item order="1" title="Eggs" order2="x"/>
      </Item>
    </outline>

    """

  /// The same problems after an item inserted above, another indentation and attributes moved.
  static let edited = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1" title="W">
    <Item order="0" title="Inserted"/>
            <Item order="1" title="Groceries"><Item order="0" title="Inserted too"><Item order="0" title="Deep"/></Item>
      <Item bogus="1" order="1"   title="Milk"/>
                <Item title="Eggs" order2="x" order="2"/>
    </Item>
    </outline>

    """

  func lint(_ arguments: [String], in folder: URL) throws -> CLI.Output {
    try CLI.run("outline-lint", arguments, in: folder)
  }

  @Test func editsAboveReindentationAndFmtKeepTheBaselinedProblems() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.legacy], in: folder)
    let written = try lint(["--write-baseline", "baseline.json", "a.outline"], in: folder)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.isEmpty)
    #expect(written.stderr.contains("2 problems in 1 file written to the baseline baseline.json"))
    let clean = try lint(["--baseline", "baseline.json", "a.outline"], in: folder)
    #expect(clean.status == 0)
    #expect(clean.stdout == "0 errors, 0 warnings in 1 file; 2 baselined\n")

    try CLI.write(["a.outline": Self.edited], in: folder)
    let plain = try lint(["a.outline"], in: folder)
    #expect(plain.status == 1 && plain.stdout.contains("2 errors"))
    let moved = try lint(["--baseline", "baseline.json", "a.outline"], in: folder)
    #expect(moved.status == 0, "\(moved.stdout)")
    #expect(moved.stdout == "0 errors, 0 warnings in 1 file; 2 baselined\n")

    let fmt = try CLI.run("outline", ["fmt", "a.outline"], in: folder)
    #expect(fmt.status == 0, "\(fmt.stderr)")
    let formatted = try lint(["--baseline", "baseline.json", "a.outline"], in: folder)
    #expect(formatted.status == 0 && formatted.stdout.hasSuffix("; 2 baselined\n"), "\(formatted.stdout)")
  }

  @Test func newProblemsAreReportedAndFixedOnesCounted() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.legacy], in: folder)
    _ = try lint(["--write-baseline", "b.json", "a.outline"], in: folder)
    // The same problem on another item, a second problem on Milk, and Eggs' problem fixed.
    let changed = Self.legacy
      .replacingOccurrences(of: "title=\"Milk\" bogus=\"1\"", with: "title=\"Milk\" bogus=\"1\" other=\"2\"")
      .replacingOccurrences(of: " order2=\"x\"", with: " bogus=\"1\"")
    try CLI.write(["a.outline": changed], in: folder)
    let text = try lint(["--baseline", "b.json", "a.outline"], in: folder)
    #expect(text.status == 1)
    #expect(text.stdout.contains("a.outline:4:44: error[OL203]: 'other'"), "\(text.stdout)")
    #expect(text.stdout.contains("a.outline:5:34: error[OL203]: 'bogus'"), "\(text.stdout)")
    #expect(!text.stdout.contains("a.outline:4:34"), "Milk's bogus stays baselined")
    #expect(
      text.stdout.hasSuffix(
        "2 errors, 0 warnings in 1 file; 1 baselined; 1 baselined problem no longer occurs (--write-baseline drops it)\n"
      ), "\(text.stdout)")
    let json = try JSONValue.parse(
      Array(try lint(["--baseline", "b.json", "--format", "json", "a.outline"], in: folder).stdout.utf8))
    #expect(json["summary"]?["baselined"]?.intValue == 1)
    #expect(json["summary"]?["baselineAbsent"]?.intValue == 1)
    #expect(json["summary"]?["errors"]?.intValue == 2)
    // Without a baseline the summary has no such keys.
    let bare = try JSONValue.parse(
      Array(try lint(["--format", "json", "a.outline"], in: folder).stdout.utf8))
    #expect(bare["summary"]?["baselined"] == nil)
  }

  @Test func sarifCarriesFingerprintsAndBaselineStates() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.legacy], in: folder)
    _ = try lint(["--write-baseline", "b.json", "a.outline"], in: folder)
    let baseline = try JSONValue.parse(
      Array(try String(contentsOf: folder.appendingPathComponent("b.json"), encoding: .utf8).utf8))
    let recorded = Set(baseline["problems"]?.arrayValue?.compactMap { $0["fingerprint"]?.stringValue } ?? [])
    #expect(recorded.count == 2)

    func results(_ arguments: [String]) throws -> [JSONValue] {
      let output = try lint(["--format", "sarif"] + arguments + ["a.outline"], in: folder)
      return try JSONValue.parse(Array(output.stdout.utf8))["runs"]?.arrayValue?.first?["results"]?.arrayValue
        ?? []
    }
    // Without a baseline: the fingerprint on every result, no baselineState.
    let plain = try results([])
    #expect(plain.count == 2)
    #expect(
      Set(plain.compactMap { $0["partialFingerprints"]?["outlineProblem/v1"]?.stringValue }) == recorded)
    #expect(plain.allSatisfy { $0["baselineState"] == nil })

    let changed = Self.legacy.replacingOccurrences(of: " order2=\"x\"", with: "").replacingOccurrences(
      of: "title=\"W\"", with: "title=\"W\" stray=\"1\"")
    try CLI.write(["a.outline": changed], in: folder)
    let states = try results(["--baseline", "b.json"])
    let byState = Dictionary(grouping: states) { $0["baselineState"]?.stringValue ?? "none" }
    #expect(byState["new"]?.count == 1)
    #expect(byState["unchanged"]?.count == 1)
    #expect(byState["absent"]?.count == 1)
    #expect(byState["absent"]?.first?["kind"]?.stringValue == "pass")
    #expect(byState["absent"]?.first?["level"]?.stringValue == "none")
    #expect(states.allSatisfy { $0["partialFingerprints"]?["outlineProblem/v1"]?.stringValue != nil })
  }

  @Test func theConfigurationNamesTheBaseline() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["docs/a.outline": Self.legacy], in: folder)
    _ = try lint(["--write-baseline", "outline-baseline.json", "docs"], in: folder)
    let baseline = try String(
      contentsOf: folder.appendingPathComponent("outline-baseline.json"), encoding: .utf8)
    #expect(baseline.contains("\"path\":\"docs/a.outline\""), "\(baseline)")
    try CLI.write([".outline.json": "{\"baseline\": \"outline-baseline.json\"}"], in: folder)
    let quiet = try lint(["docs"], in: folder)
    #expect(quiet.status == 0 && quiet.stdout.hasSuffix("; 2 baselined\n"), "\(quiet.stdout)")
    // From another folder, the same project.
    let inside = try lint(["a.outline"], in: folder.appendingPathComponent("docs"))
    #expect(inside.status == 0, "\(inside.stdout)")
    // A bad value is OC100 at its place (exit 2).
    try CLI.write([".outline.json": "{\"baseline\": 3}"], in: folder)
    let bad = try lint(["docs"], in: folder)
    #expect(bad.status == 2)
    #expect(
      bad.stdout.contains(".outline.json:1:14: error[OC100]: 'baseline' must name a file"), "\(bad.stdout)")
  }

  @Test func aBaselineThatCannotBeReadIsTroubleAndAnotherFileIsNeverOverwritten() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["a.outline": Self.legacy, "notes.txt": "my notes\n", "bad.json": "{\n  \"version\": 1,\n  oops\n}\n"],
      in: folder)
    let missing = try lint(["--baseline", "none.json", "a.outline"], in: folder)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("the baseline cannot be read"), "\(missing.stderr)")
    let malformed = try lint(["--baseline", "bad.json", "a.outline"], in: folder)
    #expect(malformed.status == 2)
    #expect(malformed.stderr.contains("bad.json:3:3: the baseline is not valid JSON"), "\(malformed.stderr)")
    let refused = try lint(["--write-baseline", "notes.txt", "a.outline"], in: folder)
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("notes.txt exists and is not a baseline"), "\(refused.stderr)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "my notes\n")
    let both = try lint(["--baseline", "b.json", "--write-baseline", "b.json", "a.outline"], in: folder)
    #expect(both.status == 2 && both.stderr.contains("cannot both be given"))
    // A baseline written over the last one: allowed, and sorted, one problem a line.
    _ = try lint(["--write-baseline", "b.json", "a.outline"], in: folder)
    let again = try lint(["--write-baseline", "b.json", "a.outline"], in: folder)
    #expect(again.status == 0)
    let lines = try String(contentsOf: folder.appendingPathComponent("b.json"), encoding: .utf8).split(
      separator: "\n")
    #expect(lines.count == 8 && lines[4].hasPrefix("    {\"fingerprint\""))
  }

  @Test func theServerShowsBaselinedProblemsAsHints() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(["a.outline": Self.legacy], in: folder)
    _ = try lint(["--write-baseline", "b.json", "a.outline"], in: folder)
    try CLI.write([".outline.json": "{\"baseline\": \"b.json\"}"], in: folder)
    let uri = folder.appendingPathComponent("a.outline").absoluteString
    let client = try LSPClient()
    _ = client.initialize()
    let text = Self.legacy.replacingOccurrences(of: "title=\"W\"", with: "title=\"W\" stray=\"1\"")
    client.open(uri, text)
    let diagnostics = client.diagnostics(uri, version: 1)?["diagnostics"]?.arrayValue ?? []
    let severities = diagnostics.map { ($0["message"]?.stringValue ?? "", $0["severity"]?.intValue ?? 0) }
    #expect(diagnostics.count == 3, "\(severities)")
    #expect(severities.filter { $0.1 == 4 }.count == 2, "two hints: \(severities)")
    #expect(severities.filter { $0.1 == 4 }.allSatisfy { $0.0.hasSuffix(" (in the baseline)") })
    #expect(severities.contains { $0.0.contains("'stray'") && $0.1 == 1 })
    _ = client.close()
  }
}
