import Foundation
import JSONRPC
import OutlineJSON
import OutlineWorkspace
import TestSupport
import Testing

@testable import OutlineLSP

@Suite struct SettingsAndCommandsTests {
  static let misnumbered = "<outline>\n  <Item title=\"a\" order=\"1\"/>\n</outline>\n"

  @Test func editorRulesApplyWhereTheConfigurationFileIsSilent() throws {
    let settings = EditorSettings([
      "rules": ["OL402": "off", "OL999": "off", "OL401": "loud"], "colour": true,
    ])
    #expect(settings.rules.count == 1)
    #expect(settings.problems.count == 3)
    let store = DocumentStore()
    store.settings = settings
    #expect(store.open(uri: "file:///tmp/s.outline", text: Self.misnumbered).analysis.diagnostics.isEmpty)
    store.settings = EditorSettings(["rules": ["OL402": "hint"]])
    store.dependenciesChanged()
    #expect(store["file:///tmp/s.outline"]?.analysis.diagnostics.map(\.severity) == [.hint])

    // The configuration file wins for the codes it sets.
    let folder = Scratch.url("settings")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("{\"rules\": {\"OL402\": \"warning\"}}".utf8).write(
      to: folder.appendingPathComponent(".outline.json"))
    store.settings = EditorSettings(["rules": ["OL402": "off"]])
    let inProject = store.open(
      uri: folder.appendingPathComponent("t.outline").absoluteString, text: Self.misnumbered)
    #expect(inProject.analysis.diagnostics.map(\.severity) == [.warning])
  }

  @Test func renumberIsTheFixAllEdit() throws {
    let session = Session()
    let (snapshot, _) = session.open(Self.misnumbered)
    let feature = CommandsFeature(
      mapper: session.mapper, workspaceEdits: session.workspaceEdits, store: session.store)
    let outcome = try feature.prepare(
      LSP.ExecuteCommandParams(command: "outline.renumber", arguments: [LSPAny(.string(snapshot.uri))]))()
    #expect(
      session.apply(outcome.edit, to: snapshot)
        == Self.misnumbered.replacingOccurrences(of: "\"1\"", with: "\"0\""))
    #expect(throws: ResponseError.self) {
      try feature.prepare(LSP.ExecuteCommandParams(command: "outline.nothing", arguments: []))
    }
    #expect(throws: ResponseError.self) {
      try feature.prepare(LSP.ExecuteCommandParams(command: "outline.renumber", arguments: nil))
    }
  }

  @Test func convertGivesTheOtherFormOfTheSavedFile() throws {
    let folder = Scratch.url("convert")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = "<outline>\n  <Item title=\"a\" order=\"0\"/>\n</outline>\n"
    let url = folder.appendingPathComponent("t.outline")
    try Data(text.utf8).write(to: url)
    let store = DocumentStore()
    let snapshot = store.open(uri: url.absoluteString, text: text)
    let outcome = try CommandsFeature.convert(
      snapshot, configurations: store.configurations, models: store.models)
    let result = try JSONValueCoding.decode(LSP.ConvertResult.self, from: outcome.result.value)
    #expect(result.uri.hasSuffix("t.outline.json"))
    #expect(result.text.contains("\"title\""))
    #expect(outcome.edit == nil)
    // And back: the JSON form, saved, converts to the outline.
    let jsonURL = folder.appendingPathComponent("t.outline.json")
    try Data(result.text.utf8).write(to: jsonURL)
    let json = store.open(uri: jsonURL.absoluteString, text: result.text)
    let back = try JSONValueCoding.decode(
      LSP.ConvertResult.self,
      from: CommandsFeature.convert(json, configurations: store.configurations, models: store.models).result
        .value)
    #expect(back.uri == url.absoluteString)
    #expect(back.text.contains("<Item"))
    // A buffer that differs from the file is refused.
    let dirty = store.open(uri: url.absoluteString, text: text + "<!-- -->\n")
    #expect(throws: ResponseError.self) {
      try CommandsFeature.convert(dirty, configurations: store.configurations, models: store.models)
    }
  }

  @Test func delayedProgressSendsNothingForQuickWork() async throws {
    let sent = Sent()
    let quick = DelayedProgress(title: "q", delay: 0.5) {
      sent.append("$/progress", .string($0.kind.rawValue))
    }
    quick.finish()
    let slow = DelayedProgress(title: "s", delay: 0) { sent.append("$/progress", .string($0.kind.rawValue)) }
    try await Task.sleep(nanoseconds: 200_000_000)
    slow.finish()
    try await Task.sleep(nanoseconds: 500_000_000)
    #expect(sent.messages.map(\.1) == ["begin", "end"])
  }
}
