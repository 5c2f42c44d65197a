import Foundation
import OutlineCore
import Testing

@testable import OutlineWorkspace

/// The item names and fingerprints a baseline records (Documentation/Baseline.md): no line or
/// column in them, so edits elsewhere keep them; another item or a second problem is new.
@Suite struct ProblemFingerprintTests {
  /// The name of the item at the first occurrence of `marker` in `text`.
  func name(at marker: String, in text: String) -> String {
    let bytes = Array(text.utf8)
    let offset = text.utf8.count - (text.range(of: marker).map { text[$0.lowerBound...].utf8.count } ?? 0)
    let diagnostic = Diagnostic(.unknownAttribute, "m", at: TextRange(start: offset, end: offset + 1))
    return ItemIdentity.names(of: [diagnostic], in: bytes, model: nil)[0]
  }

  @Test func anItemIsNamedByItsIdElseItsTitlesElseItsEntityAndPosition() {
    let text = """
      <outline version="1">
        <Item title="Work" order="0">
          <Item xml:id="plan" title="Plan" order="0"><Item title="Read" order="0"/></Item>
          <Item order="1" a="B"/>
          <Item order="2" a="C"/>
        </Item>
        <Item title="a/b [c]" order="1"/>
      </outline>
      """
    #expect(name(at: "order=\"0\">\n", in: text) == "/Work")
    #expect(name(at: "title=\"Plan\"", in: text) == "#plan")
    #expect(name(at: "title=\"Read\"", in: text) == "#plan/Read")
    #expect(name(at: "a=\"B\"", in: text) == "/Work/Item[1]")
    #expect(name(at: "a=\"C\"", in: text) == "/Work/Item[2]")
    #expect(name(at: "a/b", in: text) == "/a\\/b \\[c]")
    #expect(name(at: "version", in: text) == "/")
  }

  @Test func reindentingAndItemsInsertedAboveKeepTheName() {
    let before =
      "<outline version=\"1\"><Item title=\"A\" order=\"0\"><Item title=\"B\" order=\"x\"/></Item></outline>"
    let after = """
      <outline version="1">
          <Item title="New" order="0"/>
          <Item
              order="1"   title='A'>
              <Item title="First" order="0"/>
              <Item order="x" title="B"/>
          </Item>
      </outline>
      """
    #expect(name(at: "order=\"x\"", in: before) == "/A/B")
    #expect(name(at: "order=\"x\"", in: after) == "/A/B")
  }

  @Test func aTitleIsDecodedSoEscapingDoesNotChangeIt() {
    let plain = "<outline><Item title=\"Tom's\" z=\"1\"/></outline>"
    let escaped = "<outline><Item title=\"Tom&apos;s\" z=\"1\"/></outline>"
    #expect(name(at: "z=", in: plain) == name(at: "z=", in: escaped))
  }

  @Test func twoIdenticalProblemsOnOneItemAreCountedApart() {
    let prints = ProblemFingerprint.fingerprints(
      path: "a.outline",
      problems: [
        ("OL300", "/A", "bad"), ("OL300", "/A", "bad"), ("OL300", "/B", "bad"), ("OL301", "/A", "bad"),
      ])
    #expect(prints[0].hasSuffix(":1") && prints[1].hasSuffix(":2"))
    #expect(prints[0].dropLast(2) == prints[1].dropLast(2))
    #expect(Set(prints).count == 4)
    #expect(prints[2].hasSuffix(":1") && prints[3].hasSuffix(":1"))
  }

  @Test func theFingerprintDependsOnEachFieldAndIsStable() {
    let base = ProblemFingerprint.hash(code: "OL300", path: "a.outline", item: "/A", message: "bad")
    #expect(base == ProblemFingerprint.hash(code: "OL300", path: "a.outline", item: "/A", message: "bad"))
    #expect(base != ProblemFingerprint.hash(code: "OL301", path: "a.outline", item: "/A", message: "bad"))
    #expect(base != ProblemFingerprint.hash(code: "OL300", path: "b.outline", item: "/A", message: "bad"))
    #expect(base != ProblemFingerprint.hash(code: "OL300", path: "a.outline", item: "/B", message: "bad"))
    #expect(base != ProblemFingerprint.hash(code: "OL300", path: "a.outline", item: "/A", message: "worse"))
    // Fields are kept apart: moving a character from one to the next is another problem.
    #expect(
      ProblemFingerprint.hash(code: "OL3", path: "00a", item: "", message: "")
        != ProblemFingerprint.hash(code: "OL30", path: "0a", item: "", message: ""))
    #expect(base.count == 16)
  }

  @Test func aBaselineIsWrittenSortedOneProblemALineAndReadBack() throws {
    let entries = [
      Baseline.Entry(fingerprint: "b:1", path: "z.outline", code: "OL300", item: "/A", message: "m"),
      Baseline.Entry(
        fingerprint: "a:1", path: "a.outline", code: "OL401", item: "/B", message: "say \"x\"\n"),
      Baseline.Entry(
        fingerprint: "a:1", path: "a.outline", code: "OL401", item: "/B", message: "say \"x\"\n"),
    ]
    let baseline = Baseline(entries: entries)
    #expect(baseline.entries.count == 2)
    let text = String(decoding: baseline.serialized(), as: UTF8.self)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 8)
    #expect(lines[4].contains("a.outline") && lines[5].contains("z.outline"))
    let read = try Baseline.parse(baseline.serialized(), path: "b.json")
    #expect(read == baseline)
    #expect(read.contains(path: "a.outline", fingerprint: "a:1"))
    #expect(!read.contains(path: "z.outline", fingerprint: "a:1"))
    #expect(
      String(decoding: Baseline(entries: []).serialized(), as: UTF8.self).hasSuffix("\"problems\": []\n}\n"))
  }

  @Test func aBadBaselineSaysWhereAndWhy() {
    func message(_ text: String) -> String {
      do {
        _ = try Baseline.parse(Array(text.utf8), path: "b.json")
        return "read"
      } catch {
        return error.message
      }
    }
    #expect(
      message("{\n  \"version\": 1,\n  \"problems\": [,]\n}").hasPrefix(
        "b.json:3:16: the baseline is not valid JSON"))
    #expect(message("[]").contains("not a baseline of outline-lint: it is not a JSON object"))
    #expect(message("{\"version\": 2, \"problems\": []}").contains("its version is 2"))
    #expect(message("{\"version\": 1}").contains("no \"problems\" array"))
    #expect(
      message("{\"version\": 1, \"problems\": [{\"path\": \"a\"}]}").contains(
        "problem 1 has no \"fingerprint\""))
    #expect(Baseline.mayReplace(Array(" \n".utf8), path: "b.json"))
    #expect(!Baseline.mayReplace(Array("notes".utf8), path: "b.json"))
  }

  @Test func aProjectPathIsRelativeAndSlashSeparated() {
    #expect(Baseline.projectPath(of: "/p/docs/./a.outline", in: "/p") == "docs/a.outline")
    #expect(Baseline.projectPath(of: "/q/a.outline", in: "/p") == "/q/a.outline")
  }
}
