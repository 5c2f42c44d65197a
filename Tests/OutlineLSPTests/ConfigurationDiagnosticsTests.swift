import Foundation
import OutlineCore
import OutlineJSON
import TestSupport
import Testing

@testable import OutlineLSP

/// A broken `.outline.json` (OC100) reaches the editor: the configuration document gets its
/// problems at their places, and an open outline it governs one error at its start that points
/// at the first of them.
@Suite struct ConfigurationDiagnosticsTests {
  /// A configuration whose problem stands after astral characters on its second line, so its
  /// column differs between UTF-16 and UTF-8.
  static let broken =
    "{\"rules\": {\"OL403\": \"off\"},\n  \"exclude\": [\"😀é/**\"], \"rulez\": {}, \"maxSize\": true}\n"
  static let outline = "<outline>\n  <Item title=\"a\" order=\"0\"/>\n</outline>\n"

  /// The position of `marker` on the second line of `broken`, in `unit` columns.
  static func start(of marker: String, _ unit: ColumnUnit) -> LSP.Position {
    let before = broken.components(separatedBy: "\n")[1].components(separatedBy: marker)[0]
    return LSP.Position(line: 1, character: unit == .utf8 ? before.utf8.count : before.utf16.count)
  }

  static func folder() throws -> URL {
    let folder = try Scratch.folder("config-diagnostics")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("notes"), withIntermediateDirectories: true)
    try Data(broken.utf8).write(to: folder.appendingPathComponent(".outline.json"))
    return folder
  }

  @Test(arguments: [ColumnUnit.utf16, .utf8])
  func anOpenOutlinePointsAtItsBrokenConfiguration(unit: ColumnUnit) throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let mapper = PositionMapper(unit: unit)
    let store = DocumentStore()
    let uri = folder.appendingPathComponent("notes/t.outline").absoluteString
    let snapshot = store.open(uri: uri, text: Self.outline)
    let diagnostics = DiagnosticsFeature.render(snapshot, mapper: mapper)
    try #require(diagnostics.count == 1)
    let pointer = diagnostics[0]
    #expect(pointer.code == "OC100")
    #expect(pointer.severity == .error)
    #expect(
      pointer.range == LSP.Range(start: .init(line: 0, character: 0), end: .init(line: 0, character: 0)))
    #expect(pointer.message.hasPrefix("Its configuration '../.outline.json' has 2 problems (OC100)"))
    #expect(
      pointer.message.hasSuffix(
        "the first: Unknown key 'rulez' (known: model, models, rules, exclude, modelRoots, maxSize, baseline)"
      ))
    let related = try #require(pointer.relatedInformation?.first)
    let configurationURI = folder.appendingPathComponent(".outline.json").standardizedFileURL.absoluteString
    #expect(related.location.uri == configurationURI)
    #expect(related.location.range.start == Self.start(of: "\"rulez\"", unit))
    #expect(related.message.hasPrefix("Unknown key 'rulez'"))
    // The written text is the encoded values, as for every diagnostic.
    #expect(
      DiagnosticsFeature.json(snapshot, mapper: mapper).serializedBytes()
        == (try JSONValueCoding.encode(diagnostics).serializedBytes()))
    // A closed file of a workspace report gets no pointer: the configuration's report says it once.
    #expect(DiagnosticsFeature.json(snapshot, mapper: mapper, open: false).serialized() == "[]")

    // The configuration opened in the editor: its problems in its own text, at their places.
    let configuration = store.open(uri: configurationURI, text: Self.broken)
    let own = DiagnosticsFeature.render(configuration, mapper: mapper)
    #expect(own.map(\.code) == ["OC100", "OC100"])
    #expect(own.map(\.range.start) == [Self.start(of: "\"rulez\"", unit), Self.start(of: "true", unit)])
    #expect(own.last?.message.hasPrefix("'maxSize' must be a size") == true)
    #expect(
      DiagnosticsFeature.json(configuration, mapper: mapper).serializedBytes()
        == (try JSONValueCoding.encode(own).serializedBytes()))
    // Fixed in the editor (not saved): its own diagnostics follow the text.
    let fixed = try #require(
      store.change(
        uri: configurationURI, version: 2,
        changes: [LSP.TextDocumentContentChangeEvent(range: nil, text: DocumentText("{\"rules\": {}}\n"))],
        mapper: mapper))
    #expect(DiagnosticsFeature.render(fixed, mapper: mapper) == [])

    // Fixed on disk: the outline's fresh analysis has no pointer.
    try Data("{\"rules\": {\"OL403\": \"off\"}}\n".utf8).write(
      to: folder.appendingPathComponent(".outline.json"))
    store.dependenciesChanged()
    #expect(DiagnosticsFeature.render(try #require(store[uri]), mapper: mapper) == [])
  }

  /// The pointer names the configuration from the document's folder.
  @Test func thePointerNamesTheConfigurationFromTheDocument() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = DocumentStore()
    let beside = store.open(
      uri: folder.appendingPathComponent("t.outline").absoluteString, text: Self.outline)
    #expect(
      DiagnosticsFeature.render(beside, mapper: PositionMapper(unit: .utf16)).first?.message.hasPrefix(
        "Its configuration '.outline.json' has") == true)
  }
}
