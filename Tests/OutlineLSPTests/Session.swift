import Foundation
import OutlineCore
import OutlineJSON
import TestSupport

@testable import OutlineLSP

/// Features in process: a document store, the context the server would
/// pass, and helpers to turn markers and edits into LSP values and back.
struct Session {
  static let uri = "file:///tmp/outline-lsp-tests/doc.outline"

  let store = DocumentStore()
  let context: FeatureContext

  /// A client in `unit` positions that takes `documentChanges` unless told otherwise.
  init(unit: ColumnUnit = .utf16, documentChanges: Bool = true) {
    context = FeatureContext(
      mapper: PositionMapper(unit: unit), workspaceEdits: WorkspaceEdits(documentChanges: documentChanges))
  }

  var mapper: PositionMapper { context.mapper }
  var workspaceEdits: WorkspaceEdits { context.workspaceEdits }

  /// Opens `text` (markers stripped) and returns its snapshot and the markers' offsets.
  @discardableResult
  func open(_ marked: String, uri: String = Session.uri) -> (Snapshot, [Int]) {
    let fixture = Marked(marked)
    return (store.open(uri: uri, version: 1, text: fixture.text), fixture.offsets)
  }

  func position(_ offset: Int, in snapshot: Snapshot) -> LSP.Position {
    mapper.position(offset, in: snapshot.source)
  }

  func at(_ offset: Int, in snapshot: Snapshot) -> LSP.TextDocumentPositionParams {
    LSP.TextDocumentPositionParams(
      textDocument: .init(uri: snapshot.uri), position: position(offset, in: snapshot))
  }

  func offset(_ position: LSP.Position, in snapshot: Snapshot) -> Int? {
    mapper.offset(position, in: snapshot.source)
  }

  /// `edits` applied to the snapshot's text.
  func apply(_ edits: [LSP.TextEdit], to snapshot: Snapshot) -> String {
    let textEdits = edits.map {
      TextEdit(range: mapper.textRange($0.range, in: snapshot.source)!, newText: $0.newText)
    }
    return String(decoding: TextEdit.apply(textEdits, to: snapshot.source.bytes)!, as: UTF8.self)
  }

  func apply(_ edit: LSP.WorkspaceEdit?, to snapshot: Snapshot) -> String {
    apply(edit?.documentChanges?.first?.edits ?? edit?.changes?[snapshot.uri] ?? [], to: snapshot)
  }

  /// The diagnostic codes of `text` on its own (the same engine as `outline-lint`).
  static func codes(_ text: String) -> [String] {
    DocumentStore().open(uri: uri, text: text).analysis.diagnostics.map(\.code.rawValue)
  }

  /// A result written as JSON text, read back as `T`.
  static func decode<T: Decodable>(_ type: T.Type, _ any: LSPAny) throws -> T {
    try JSONValueCoding.decode(T.self, from: JSONValue.parse(any.value.serializedBytes()))
  }
}

let weekend = """
  <?xml version="1.0" encoding="UTF-8"?>
  <outline version="1" title="Weekend">
    <!-- a
         comment -->
    <1️⃣Item title="Groceries 😀" order="0" 2️⃣xml:id="g">
      <3️⃣Item title="Milk" order="0"/>
      <4️⃣Item title="Eggs" order="1"/>
    </Item>
    <Item title="Work" order="1" xml:id="5️⃣w"/>
  </outline>

  """
