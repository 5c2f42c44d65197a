import JSONRPC
import OutlineCore
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

  /// An id's definition; on an element, attribute or relationship name, its declaration in the model file.
  func definition(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws -> LSP.Location? {
    let (queries, hit) = try query(snapshot, params.position)
    guard let hit else {
      let offset = mapper.offset(params.position, in: snapshot.source)!
      return ModelNavigationFeature(mapper: mapper).definition(snapshot, at: offset)
    }
    guard let definition = queries.ids().definitions[hit.id] else { return nil }
    return location(definition.range, snapshot)
  }

  func references(_ snapshot: Snapshot, _ params: LSP.ReferenceParams) throws -> [LSP.Location] {
    let (queries, hit) = try query(snapshot, params.position)
    guard let hit else { return [] }
    let ids = queries.ids()
    var ranges = ids.references[hit.id] ?? []
    if params.context?.includeDeclaration ?? true, let definition = ids.definitions[hit.id] {
      ranges.insert(definition.range, at: 0)
    }
    return ranges.map { location($0, snapshot) }
  }

  func prepareRename(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws
    -> LSP.PrepareRenameResult?
  {
    let (_, hit) = try query(snapshot, params.position)
    guard let hit else { return nil }
    return LSP.PrepareRenameResult(range: mapper.range(hit.range, in: snapshot.source), placeholder: hit.id)
  }

  func rename(_ snapshot: Snapshot, _ params: LSP.RenameParams) throws -> LSP.WorkspaceEdit {
    let newName = params.newName
    guard XMLName.isNCName(newName) else {
      throw ResponseError(
        code: ErrorCode.requestFailed,
        message: "'\(newName)' is not a valid id (an XML name without spaces or colons)")
    }
    let (queries, hit) = try query(snapshot, params.position)
    guard let hit else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "There is no id here to rename")
    }
    let ids = queries.ids()
    if ids.definitions[newName] != nil && newName != hit.id {
      throw ResponseError(code: ErrorCode.requestFailed, message: "The id '\(newName)' is already used")
    }
    var ranges = ids.references[hit.id] ?? []
    if let definition = ids.definitions[hit.id] { ranges.append(definition.range) }
    let edits = ranges.sorted().map {
      mapper.edit(TextEdit(range: $0, newText: newName), in: snapshot.source)
    }
    return WorkspaceEdits.edit(snapshot, edits)
  }
}

/// WorkspaceEdits bound to the document version they were computed for.
enum WorkspaceEdits {
  static func edit(_ snapshot: Snapshot, _ edits: [LSP.TextEdit]) -> LSP.WorkspaceEdit {
    LSP.WorkspaceEdit(documentChanges: [
      LSP.TextDocumentEdit(
        textDocument: LSP.OptionalVersionedTextDocumentIdentifier(
          uri: snapshot.uri, version: snapshot.version),
        edits: edits)
    ])
  }
}
