import JSONRPC
import OutlineCore
import OutlineEditing
import OutlineXML

/// `textDocument/definition`, `references`, `prepareRename` and `rename` for ids.
struct NavigationFeature {
  let mapper: PositionMapper

  private func query(_ snapshot: Snapshot, _ position: LSP.Position) throws -> (
    DocumentQueries, (id: String, range: TextRange)?
  ) {
    guard let offset = mapper.offset(position, in: snapshot.source) else {
      throw ResponseError.invalidParams("position is not a position")
    }
    let queries = DocumentQueries(source: snapshot.source, analysis: snapshot.analysis)
    return (queries, queries.id(at: offset))
  }

  private func location(_ range: TextRange, _ snapshot: Snapshot) -> LSP.Location {
    LSP.Location(uri: snapshot.uri, range: mapper.range(range, in: snapshot.source))
  }

  /// An id's definition (on an `xml:id` of an id defined more than once, that
  /// one; on a reference to such an id, the first); on an element, attribute
  /// or relationship name, its declaration in the model file.
  func definition(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws -> LSP.Location? {
    let (queries, hit) = try query(snapshot, params.position)
    guard let hit else {
      let offset = mapper.offset(params.position, in: snapshot.source)!
      return ModelNavigationFeature(mapper: mapper).definition(snapshot, at: offset)
    }
    let definitions = queries.ids().index?.definitions(of: hit.id) ?? []
    guard let definition = definitions.first(where: { $0.range == hit.range }) ?? definitions.first else {
      return nil
    }
    return location(definition.range, snapshot)
  }

  /// The references to the id under the cursor, and its definitions (every one of a duplicate).
  func references(_ snapshot: Snapshot, _ params: LSP.ReferenceParams) throws -> [LSP.Location] {
    let (queries, hit) = try query(snapshot, params.position)
    guard let hit else { return [] }
    let ids = queries.ids()
    var ranges = ids.references[hit.id] ?? []
    if params.context?.includeDeclaration ?? true {
      ranges = ((ids.index?.definitions(of: hit.id) ?? []).map(\.range) + ranges).sorted()
    }
    return ranges.map { location($0, snapshot) }
  }

  /// Refuses an id defined more than once: which object a reference means is
  /// not known, and renaming one definition would leave the other.
  private func refuseDuplicate(_ id: String, _ index: ReferenceIndex?) throws {
    guard let refusal = index?.duplicateRefusal(id, before: "renaming it") else { return }
    throw ResponseError(code: ErrorCode.requestFailed, message: refusal.reason)
  }

  func prepareRename(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws
    -> LSP.PrepareRenameResult?
  {
    let (queries, hit) = try query(snapshot, params.position)
    guard let hit else { return nil }
    try refuseDuplicate(hit.id, queries.ids().index)
    return LSP.PrepareRenameResult(range: mapper.range(hit.range, in: snapshot.source), placeholder: hit.id)
  }

  /// The id under the cursor renamed at its definition and every reference, as `workspaceEdits` writes edits.
  func rename(_ snapshot: Snapshot, _ params: LSP.RenameParams, workspaceEdits: WorkspaceEdits) throws
    -> LSP.WorkspaceEdit
  {
    let newName = params.newName
    guard XMLName.isNCName(newName) else {
      throw ResponseError(
        code: ErrorCode.requestFailed,
        message: "\(Excerpt.quoted(newName)) is not a valid id (an XML name without spaces or colons)")
    }
    let (queries, hit) = try query(snapshot, params.position)
    guard let hit else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "There is no id here to rename")
    }
    let ids = queries.ids()
    try refuseDuplicate(hit.id, ids.index)
    if ids.index?.definitions[newName] != nil && newName != hit.id {
      throw ResponseError(
        code: ErrorCode.requestFailed, message: "The id \(Excerpt.quoted(newName)) is already used")
    }
    var ranges = ids.references[hit.id] ?? []
    if let definition = ids.index?.definitions[hit.id] { ranges.append(definition.range) }
    let edits = ranges.sorted().map {
      mapper.edit(TextEdit(range: $0, newText: newName), in: snapshot.source)
    }
    return workspaceEdits.edit(snapshot, edits)
  }
}
