import Foundation
import OutlineCore
import OutlineJSON
import TestSupport

/// Applies LSP text edits (in `unit` positions) to a text, as an editor does.
func applyLSPEdits(_ edits: [JSONValue], to text: String, unit: ColumnUnit = .utf16) -> String {
  let source = SourceText(text)
  func offset(_ position: JSONValue?) -> Int {
    source.offset(
      of: SourcePosition(line: position!["line"]!.intValue!, column: position!["character"]!.intValue!),
      unit: unit)
  }
  let textEdits = edits.map {
    TextEdit(
      range: TextRange(start: offset($0["range"]?["start"]), end: offset($0["range"]?["end"])),
      newText: $0["newText"]!.stringValue!)
  }
  return String(decoding: TextEdit.apply(textEdits, to: source.bytes)!, as: UTF8.self)
}

/// The edits of a WorkspaceEdit for one document, in either form: `documentChanges`, else `changes`.
func workspaceEdits(_ edit: JSONValue?) -> [JSONValue] {
  if let changes = edit?["documentChanges"]?.arrayValue { return changes.first?["edits"]?.arrayValue ?? [] }
  guard case .object(let byURI)? = edit?["changes"] else { return [] }
  return byURI.first?.1.arrayValue ?? []
}

/// The four-version `Tasks.xcdatamodeld` of the fixtures, with the version-1 document `v1.outline`.
enum VersionsFixture {
  static let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures/versions")

  /// A fresh folder holding the model and `v1.outline`.
  static func project() throws -> URL {
    let folder = try CLI.temporaryFolder()
    for name in ["Tasks.xcdatamodeld", "v1.outline"] {
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    return folder
  }
}
