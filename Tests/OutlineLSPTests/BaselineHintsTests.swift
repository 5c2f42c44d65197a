import Foundation
import OutlineCore
import OutlineJSON
import OutlineWorkspace
import TestSupport
import Testing

@testable import OutlineLSP

/// The baseline a document's `.outline.json` names: the problems it holds are published as
/// hints whose message says so, the others as they are, and an edit that changes a problem's
/// item or words shows it at its own severity again.
@Suite struct BaselineHintsTests {
  static let outline = """
    <outline version="1">
      <Item order="0" title="Milk" bogus="1"/>
      <Item order="1" title="Eggs"/>
    </outline>

    """

  /// A folder with the outline, a baseline holding its one problem, and the configuration naming it.
  static func folder() throws -> URL {
    let folder = try Scratch.folder("baseline-hints")
    let diagnostic = Diagnostic(
      .unknownAttribute, "'bogus' is not an attribute or relationship of 'Item'",
      at: TextRange(start: 0, end: 0))
    let milk = "/Milk"
    let fingerprint = ProblemFingerprint.fingerprints(
      path: "a.outline", problems: [(diagnostic.code.rawValue, milk, diagnostic.message)])[0]
    let baseline = Baseline(entries: [
      Baseline.Entry(
        fingerprint: fingerprint, path: "a.outline", code: diagnostic.code.rawValue, item: milk,
        message: diagnostic.message)
    ])
    try Data(baseline.serialized()).write(to: folder.appendingPathComponent("b.json"))
    try Data("{\"baseline\": \"b.json\"}".utf8).write(to: folder.appendingPathComponent(".outline.json"))
    return folder
  }

  @Test func baselinedProblemsAreHintsAndOthersKeepTheirSeverity() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = DocumentStore()
    let uri = folder.appendingPathComponent("a.outline").absoluteString
    let mapper = PositionMapper(unit: .utf16)
    let snapshot = store.open(uri: uri, text: Self.outline)
    let diagnostics = DiagnosticsFeature.render(snapshot, mapper: mapper)
    try #require(diagnostics.count == 1)
    #expect(diagnostics[0].severity == .hint)
    #expect(diagnostics[0].message.hasSuffix(BaselineHints.note))
    // The written text says the same.
    #expect(
      DiagnosticsFeature.json(snapshot, mapper: mapper).serializedBytes()
        == (try JSONValueCoding.encode(diagnostics).serializedBytes()))

    // The same problem on Eggs is not in the baseline.
    let moved = Self.outline.replacingOccurrences(of: " bogus=\"1\"", with: "").replacingOccurrences(
      of: "title=\"Eggs\"", with: "title=\"Eggs\" bogus=\"1\"")
    let other = store.open(uri: uri, text: moved)
    let again = DiagnosticsFeature.render(other, mapper: mapper)
    try #require(again.count == 1)
    #expect(again[0].severity == .error)
    #expect(!again[0].message.hasSuffix(BaselineHints.note))
  }
}
