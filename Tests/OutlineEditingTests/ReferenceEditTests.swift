import OutlineCore
import OutlineModel
import TestSupport
import Testing

@testable import OutlineEditing

/// A keystroke inside a reference such as `&amp;` changes what the parser reads there: it is
/// analyzed afresh, one beside the reference is carried over.
@Suite struct ReferenceEditTests {
  static let text = "<outline version=\"1\">\n  <Item title=\"R&amp;D\" order=\"0\"/>\n</outline>\n"

  /// The change of typing `typed` at `offset` of ``text``, the text after it, and the analysis before it.
  static func typing(_ typed: String, at offset: Int) -> (
    AppliedChange, SourceText, IncrementalEditTests.Analysis
  ) {
    let source = SourceText(text)
    var edited = source
    edited.replace(TextRange(at: offset), with: Array(typed.utf8))
    let change = AppliedChange(range: TextRange(start: offset, end: offset + typed.utf8.count), removed: [])
    return (change, edited, IncrementalEditTests.Analysis(source, model: ModelLoader.defaultModel))
  }

  static func offset(of needle: String) -> Int {
    let bytes = Array(text.utf8)
    let wanted = Array(needle.utf8)
    return (0...(bytes.count - wanted.count)).first { Array(bytes[$0..<$0 + wanted.count]) == wanted }!
  }

  @Test func aKeystrokeInsideAReferenceIsAnalyzedAfresh() {
    for inside in [Self.offset(of: "amp;") + 1, Self.offset(of: "p;"), Self.offset(of: ";D")] {
      var (change, edited, check) = Self.typing("x", at: inside)
      #expect(check.diagnostics.isEmpty)
      #expect(!TitleEdit.apply(change, to: &check, source: edited), "at \(inside)")
      var ids: IDDirectory?
      #expect(
        !AttributeEdit.apply(change, to: &check, source: edited, rules: { $0 }, ids: &ids), "at \(inside)")
    }
  }

  @Test func aKeystrokeBesideAReferenceIsCarried() {
    for beside in [Self.offset(of: "&amp;"), Self.offset(of: "D\"")] {
      var (change, edited, check) = Self.typing("x", at: beside)
      #expect(TitleEdit.apply(change, to: &check, source: edited), "at \(beside)")
      #expect(check.diagnostics.isEmpty)
    }
  }

  @Test func theValuesEndsBoundTheSearch() {
    // `;` and `&` outside the value do not count.
    let source = SourceText("<a b=\"xy\" c=\"&z;\"/>")
    let value = TextRange(start: 6, end: 8)
    let change = AppliedChange(range: TextRange(start: 7, end: 7), removed: [])
    #expect(!AttributeEdit.splitsReference(change, value: value, source: source))
    let inReference = AppliedChange(range: TextRange(start: 15, end: 15), removed: [])
    #expect(AttributeEdit.splitsReference(inReference, value: TextRange(start: 14, end: 17), source: source))
  }
}
