import Foundation
import JSONRPC
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// Model versions in the editor, in process, on the four-version `Tasks.xcdatamodeld` of the fixtures.
@Suite struct VersionFeaturesTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/versions")

  /// Written for `Tasks 3`; migrates to `Tasks 4` with nothing to ask (renamed and retyped values are kept).
  static let third = """
    <outline version="1" model="Tasks.xcdatamodeld" modelVersion="1️⃣Tasks 3" title="Home" owner="me">
      <Label xml:id="l1" name="home"/>
      <Task title="A" order="0" owner="me" label="l1" summary="s"/>
    </outline>

    """

  let folder: URL
  let session = Session()

  init() throws {
    folder = Scratch.url("versions-lsp")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("Tasks.xcdatamodeld"),
      to: folder.appendingPathComponent("Tasks.xcdatamodeld"))
  }

  func open(_ marked: String, _ name: String = "doc.outline") -> (Snapshot, [Int]) {
    session.open(marked, uri: folder.appendingPathComponent(name).absoluteString)
  }

  var v1: String {
    get throws { try String(contentsOf: Self.fixtures.appendingPathComponent("v1.outline"), encoding: .utf8) }
  }

  func hover(_ snapshot: Snapshot, at offset: Int) throws -> String {
    try HoverFeature(mapper: session.mapper).hover(snapshot, session.at(offset, in: snapshot))?.contents.value
      ?? ""
  }

  func actions(_ snapshot: Snapshot, at offset: Int, sending codes: Set<String> = []) throws -> [LSP
    .CodeAction]
  {
    let range = session.mapper.range(TextRange(at: offset), in: snapshot.source)
    let sent = DiagnosticsFeature.render(snapshot, mapper: session.mapper).filter {
      codes.contains($0.code ?? "")
    }
    return try CodeActionsFeature(mapper: session.mapper, workspaceEdits: session.workspaceEdits).actions(
      snapshot,
      LSP.CodeActionParams(
        textDocument: .init(uri: snapshot.uri), range: range,
        context: LSP.CodeActionContext(diagnostics: sent, only: nil)))
  }

  @Test func aRecordedOlderVersionIsOL108OnItsValueWithWhyItCannotBeMigrated() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = try v1
    let (snapshot, _) = open(text)
    let pending = try #require(snapshot.analysis.diagnostics.first { $0.code == .migrationPending })
    #expect(pending.severity == .information)
    #expect(snapshot.source.string(in: pending.range) == "Tasks")
    #expect(
      pending.message
        == "This document is for model version 'Tasks'; the current version is 'Tasks 4'; it cannot be migrated as it is: new required values have no default: Task.owner (4 objects); give them with --set Entity.attribute=value; it would also drop 3 values: run with --allow-data-loss to drop them"
    )
    let root = Array(text.utf8).firstIndex(of: UInt8(ascii: "<"))! + 40
    #expect(
      try hover(snapshot, at: root).hasSuffix(
        "Model version 'Tasks' (recorded in modelVersion); the current version is 'Tasks 4' (run `outline migrate`)"
      ))
    // migrate would refuse: no action.
    #expect(
      try actions(snapshot, at: pending.range.start, sending: ["OL108"]).allSatisfy {
        !$0.title.hasPrefix("Migrate")
      })
  }

  @Test func theMigrateActionAppliesWhatMigrateWrites() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, marks) = open(Self.third)
    #expect(
      snapshot.analysis.diagnostics.map(\.code) == [.migrationPending],
      "\(snapshot.analysis.diagnostics)")
    for sending in [["OL108"], []] as [Set<String>] {
      let migrate = try #require(
        try actions(snapshot, at: marks[0], sending: sending).first { $0.title == "Migrate to Tasks 4" })
      #expect(migrate.kind == .quickFix && migrate.isPreferred == true)
      #expect((migrate.diagnostics?.count ?? 0) == sending.count)
      let migrated = session.apply(migrate.edit, to: snapshot)
      #expect(migrated == Marked(Self.third).text.replacingOccurrences(of: "Tasks 3", with: "Tasks 4"))
      let after = session.store.open(uri: snapshot.uri, version: 2, text: migrated)
      #expect(after.analysis.diagnostics.isEmpty, "\(after.analysis.diagnostics)")
      #expect(try hover(after, at: 3).hasSuffix("Model version 'Tasks 4' (recorded in modelVersion)"))
      #expect(try actions(after, at: 3).allSatisfy { !$0.title.hasPrefix("Migrate") })
    }
    // Away from the root and without the diagnostic, nothing is offered.
    let inside = Array(Marked(Self.third).text.utf8).count - 20
    #expect(try actions(snapshot, at: inside).allSatisfy { !$0.title.hasPrefix("Migrate") })
  }

  @Test func anUnrecordedVersionIsInferredAndSaidSo() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let second = """
      <outline version="1" model="Tasks.xcdatamodeld" title="Home">
        <Label xml:id="l1" name="home"/>
        <Task title="A" order="0" details="d" labels="l1"/>
      </outline>

      """
    let (snapshot, _) = open(second)
    #expect(
      try hover(snapshot, at: 3).hasSuffix(
        "Model version 'Tasks 2' (inferred: modelVersion is not recorded); the current version is 'Tasks 4' (run `outline migrate`)"
      ))
    let pending = try #require(snapshot.analysis.diagnostics.first { $0.code == .migrationPending })
    #expect(snapshot.source.string(in: pending.range) == "outline")
    // A document that fits the current version: no diagnostic, and the hover says so.
    let plain = Marked(Self.third).text.replacingOccurrences(of: " modelVersion=\"Tasks 3\"", with: "")
    let (fits, _) = open(plain, "fits.outline")
    #expect(fits.analysis.diagnostics.isEmpty, "\(fits.analysis.diagnostics)")
    #expect(
      try hover(fits, at: 3).hasSuffix("Model version 'Tasks 4' (inferred: modelVersion is not recorded)"))
  }

  @Test func theMigrateCommandTakesATargetValuesAndDataLoss() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let (snapshot, _) = open(try v1)
    let feature = VersionFeatures(mapper: session.mapper, workspaceEdits: session.workspaceEdits)
    let uri = JSONValue.string(snapshot.uri)
    #expect(throws: (any Error).self) { try feature.migrate(snapshot, argument: ["uri": uri]) }
    do {
      _ = try feature.migrate(snapshot, argument: ["uri": uri, "set": ["Task.owner": "me"]])
      Issue.record("a migration that drops values was made without allowDataLoss")
    } catch let error as ResponseError {
      #expect(error.message.contains("run with --allow-data-loss"), "\(error.message)")
    }
    let edit = try feature.migrate(
      snapshot, argument: ["uri": uri, "set": ["Task.owner": "me"], "allowDataLoss": true])
    let migrated = session.apply(edit, to: snapshot)
    #expect(migrated.contains("modelVersion=\"Tasks 4\""))
    #expect(
      migrated.contains(
        "<Task title=\"Groceries\" order=\"0\" summary=\"by Friday\" label=\"t1\" owner=\"me\">"))
    let second = session.apply(
      try feature.migrate(snapshot, argument: ["uri": uri, "to": "Tasks 2"]), to: snapshot)
    #expect(second.contains("modelVersion=\"Tasks 2\"") && second.contains("details=\"by Friday\""))
    let unknown = #expect(throws: ResponseError.self) {
      try feature.migrate(snapshot, argument: ["uri": uri, "to": "Tasks 9"])
    }
    #expect(unknown?.message.contains("no version 'Tasks 9'") == true)
    #expect(CommandsFeature.all.contains("outline/migrate"))
    let capabilities = MethodTable.capabilities(positionEncoding: nil)
    #expect(capabilities.executeCommandProvider?.commands.contains("outline/migrate") == true)
  }
}
