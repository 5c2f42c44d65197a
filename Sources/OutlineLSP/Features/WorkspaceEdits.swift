/// How every WorkspaceEdit the server sends is written for this client
/// (rename, code actions, the edits of commands and `workspace/applyEdit`):
/// `documentChanges`, bound to the document versions they were computed
/// for, when the client declares `workspace.workspaceEdit.documentChanges`,
/// else `changes` by URI; never both.
struct WorkspaceEdits: Sendable {
  /// Whether the client takes `documentChanges`.
  let documentChanges: Bool

  /// The edits of one document.
  struct Change {
    /// The document.
    var uri: String
    /// The version the edits were computed for; nil for a file that is not open.
    var version: Int?
    /// The edits, in positions of the negotiated encoding.
    var edits: [LSP.TextEdit]
  }

  init(documentChanges: Bool) {
    self.documentChanges = documentChanges
  }

  /// The form the client's capabilities ask for.
  init(client: LSP.ClientCapabilities) {
    documentChanges = client.workspace?.workspaceEdit?.documentChanges ?? false
  }

  /// `edits` of the document `snapshot` holds, bound to its version.
  func edit(_ snapshot: Snapshot, _ edits: [LSP.TextEdit]) -> LSP.WorkspaceEdit {
    edit([Change(uri: snapshot.uri, version: snapshot.version, edits: edits)])
  }

  /// The edits of several documents, in one workspace edit.
  func edit(_ changes: [Change]) -> LSP.WorkspaceEdit {
    if documentChanges {
      return LSP.WorkspaceEdit(
        documentChanges: changes.map {
          LSP.TextDocumentEdit(
            textDocument: LSP.OptionalVersionedTextDocumentIdentifier(uri: $0.uri, version: $0.version),
            edits: $0.edits)
        })
    }
    var byURI: [String: [LSP.TextEdit]] = [:]
    for change in changes { byURI[change.uri, default: []] += change.edits }
    return LSP.WorkspaceEdit(changes: byURI)
  }
}
