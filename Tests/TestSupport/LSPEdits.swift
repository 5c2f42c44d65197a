import OutlineCore
import OutlineJSON

/// Applies LSP text edits (in `unit` positions) to a text, as an editor does.
public func applyLSPEdits(_ edits: [JSONValue], to text: String, unit: ColumnUnit = .utf16) -> String {
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
public func workspaceEdits(_ edit: JSONValue?) -> [JSONValue] {
  if let changes = edit?["documentChanges"]?.arrayValue { return changes.first?["edits"]?.arrayValue ?? [] }
  guard case .object(let byURI)? = edit?["changes"] else { return [] }
  return byURI.first?.1.arrayValue ?? []
}
