import Foundation
import OutlineCore
import OutlineJSON
import Testing

@testable import OutlineLSP

/// The pull reports are written as JSON text (``DiagnosticsFeature/pull(_:_:)``,
/// ``WorkspaceDiagnosticsFeature/run(_:context:)``); tests read them back as the report types.
extension DiagnosticsFeature {
  func report(_ snapshot: Snapshot, _ params: LSP.DocumentDiagnosticParams) throws
    -> LSP.DocumentDiagnosticReport
  {
    try Session.decode(LSP.DocumentDiagnosticReport.self, pull(snapshot, params))
  }
}

extension WorkspaceDiagnosticsFeature {
  func report(_ params: LSP.WorkspaceDiagnosticParams, context: RequestContext) throws
    -> LSP.WorkspaceDiagnosticReport
  {
    try Session.decode(LSP.WorkspaceDiagnosticReport.self, run(params, context: context))
  }
}

/// The written reports are the bytes `JSONValueCoding` wrote for the report values before.
@Suite struct PulledDiagnosticsJSONTests {
  static let text =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n"
    + (0..<200).map { index in
      "<Item title=\"😀 \\ &quot;q&quot; \(index)\" order=\"\(index % 4)\" x\(index % 3)=\"v\"/>"
    }.joined(separator: "\n") + "\n</outline>\n"

  @Test(arguments: [ColumnUnit.utf16, .utf8])
  func theDocumentReportIsTheEncodedOne(unit: ColumnUnit) throws {
    let store = DocumentStore()
    let snapshot = store.open(uri: "file:///tmp/pulled-json/a.outline", text: Array(Self.text.utf8))
    #expect(snapshot.analysis.diagnostics.count > 200)
    let mapper = PositionMapper(unit: unit)
    let feature = DiagnosticsFeature(mapper: mapper)
    let full = feature.pull(snapshot, .init(textDocument: .init(uri: snapshot.uri)))
    let encoded = try JSONValueCoding.encode(
      LSP.DocumentDiagnosticReport(
        kind: .full, resultId: snapshot.resultId, items: DiagnosticsFeature.render(snapshot, mapper: mapper)))
    #expect(
      String(decoding: full.value.serializedBytes(), as: UTF8.self)
        == String(decoding: encoded.serializedBytes(), as: UTF8.self))
    let unchanged = feature.pull(
      snapshot, .init(textDocument: .init(uri: snapshot.uri), previousResultId: snapshot.resultId))
    let encodedUnchanged = try JSONValueCoding.encode(
      LSP.DocumentDiagnosticReport(kind: .unchanged, resultId: snapshot.resultId))
    #expect(unchanged.value.serialized() == encodedUnchanged.serialized())
  }

  @Test func theWorkspaceReportIsTheEncodedOne() throws {
    let folder = try WorkspaceDiagnosticsTests.folder(3)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(Self.text.utf8).write(to: folder.appendingPathComponent("big.outline"))
    let store = DocumentStore()
    let open = store.open(
      uri: folder.appendingPathComponent("f1.outline").absoluteString, version: 7, text: Array(Self.text.utf8)
    )
    let mapper = PositionMapper(unit: .utf16)
    let feature = WorkspaceDiagnosticsFeature(
      mapper: mapper, folders: [folder.path], open: [open], store: store, generation: store.generation,
      findOutlines: WorkspaceDiagnosticsTests.search)
    let first = try feature.run(.init(previousResultIds: []), context: .detached)
    let report = try Session.decode(LSP.WorkspaceDiagnosticReport.self, first)
    #expect(report.items.map(\.kind) == [.full, .full, .full, .full])
    #expect(report.items.map(\.version) == [nil, nil, 7, nil])
    // Every document's items as `render` makes them; the whole reply as the values encode.
    let rendered = try report.items.map { item in
      let snapshot =
        item.uri == open.uri ? open : try store.closedFile(Snapshot.path(of: item.uri)!)
      return LSP.WorkspaceDocumentDiagnosticReport(
        kind: .full, resultId: item.resultId, uri: item.uri, version: item.version,
        items: DiagnosticsFeature.render(snapshot, mapper: mapper))
    }
    #expect(rendered.contains { $0.items?.count ?? 0 > 200 })
    let encoded = try JSONValueCoding.encode(LSP.WorkspaceDiagnosticReport(items: rendered))
    #expect(first.value.serialized() == encoded.serialized())
    // Unchanged for two of them, with no items and `version` written `null` for a closed one.
    let previous = report.items.prefix(3).map { LSP.PreviousResultId(uri: $0.uri, value: $0.resultId!) }
    let second = try feature.run(.init(previousResultIds: Array(previous.suffix(2))), context: .detached)
    let unchanged = rendered.enumerated().map { index, item in
      var item = item
      if index == 1 || index == 2 {
        item.kind = .unchanged
        item.items = nil
      }
      return item
    }
    let encodedSecond = try JSONValueCoding.encode(LSP.WorkspaceDiagnosticReport(items: unchanged))
    #expect(second.value.serialized() == encodedSecond.serialized())
  }
}
