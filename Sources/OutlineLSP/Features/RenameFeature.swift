import Foundation
import JSONRPC
import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineXML

/// `textDocument/prepareRename` and `rename`: an id renames in its document
/// (``NavigationFeature``); an attribute or relationship name (an XML
/// attribute's name in an outline, or its declaration in a model file's
/// `contents`) renames the property in the model, with a
/// `renamingIdentifier` as `outline model rename` sets it, and an entity
/// (an element's name, or its declaration) renames it and every reference
/// to it in the model the same way; either is renamed in every
/// outline of the workspace folders that uses that model and is for its
/// current version, open documents as the editor has them: one workspace edit.
struct RenameFeature {
  /// The workspace: folders, open documents, store, outline search.
  let workspace: ModelReferences
  /// How the edits are written for the client: `documentChanges` (versioned) or `changes` by URI.
  let workspaceEdits: WorkspaceEdits

  var mapper: PositionMapper { workspace.mapper }

  /// What a rename at a position would rename.
  enum Target {
    /// An id, renamed in its document.
    case id
    /// A property of the model at `model` (its text as the editor has it).
    case property(model: Model, entity: String, name: String, range: TextRange, source: SourceText)
    /// An entity of the model at `model`: its declaration, or an element of an outline.
    case entity(model: Model, name: String, range: TextRange, source: SourceText)
  }

  static func failure(_ message: String) -> ResponseError {
    ResponseError(code: ErrorCode.requestFailed, message: message)
  }

  /// The model file at `path`, as the editor has it when it is open, else as on disk.
  func model(at path: String) -> Model? {
    let wanted = WorkspaceDiagnosticsFeature.standardized(path)
    if let open = workspace.open.first(where: {
      $0.path.map(WorkspaceDiagnosticsFeature.standardized) == wanted
    }) {
      return ModelLoader.load(open.source, path: path)
    }
    guard case .success(let model) = workspace.store.models.model(at: path) else { return nil }
    return model
  }

  /// The target at `position` of the document at `uri`; throws, saying why, when nothing there can be renamed.
  func target(uri: String, position: LSP.Position) throws -> Target {
    guard let path = Snapshot.path(of: uri) else { throw Self.failure("Only a saved file can be renamed in") }
    if ModelReferences.isModelFile(path) {
      guard let model = model(at: path) else { throw Self.failure("\(path) is not a model that can be read") }
      guard let offset = mapper.offset(position, in: model.source) else {
        throw ResponseError.invalidParams("position is not a position")
      }
      switch ModelReferences.target(at: offset, in: model) {
      case .property(let entity, let name):
        let index = model.entity(named: entity)!
        let declared = model.entities[index]
        let range =
          declared.attributeIndex[name].map { declared.attributes[$0].nameRange }
          ?? declared.relationships[declared.relationshipIndex[name]!].nameRange
        return .property(model: model, entity: entity, name: name, range: range, source: model.source)
      case .entity(let name):
        let range = model.entities[model.entity(named: name)!].nameRange
        return .entity(model: model, name: name, range: range, source: model.source)
      case nil:
        throw Self.failure("Put the cursor on the name of an entity, attribute or relationship to rename it")
      }
    }
    guard let snapshot = workspace.open.first(where: { $0.uri == uri }) else {
      throw ResponseError.invalidParams("\(uri) is not open")
    }
    guard let offset = mapper.offset(position, in: snapshot.source) else {
      throw ResponseError.invalidParams("position is not a position")
    }
    let queries = DocumentQueries(source: snapshot.source, analysis: snapshot.analysis)
    if queries.id(at: offset) != nil { return .id }
    guard let tree = queries.tree, let (item, hit) = queries.startTag(at: offset) else {
      throw Self.failure("Put the cursor on an attribute's name in a start tag to rename it in the model")
    }
    guard let hit else {
      let nameRange = tree.items[item].nameRange
      guard nameRange.contains(offset) || nameRange.end == offset else {
        throw Self.failure("Put the cursor on an element's or an attribute's name to rename it in the model")
      }
      let entityIndex = Int(tree.items[item].entity)
      guard let model = snapshot.analysis.model, entityIndex >= 0 else {
        throw Self.failure(
          "\(Excerpt.quoted(snapshot.source.string(in: nameRange))) is not an entity of the model")
      }
      guard let modelPath = model.path, let editable = self.model(at: modelPath) else {
        throw Self.failure("The model is not a file (the built-in model cannot be renamed in)")
      }
      return .entity(
        model: editable, name: model.entities[entityIndex].name, range: nameRange, source: snapshot.source)
    }
    guard offset <= hit.nameRange.end else {
      throw Self.failure("A value cannot be renamed here; put the cursor on the attribute's name")
    }
    let entityIndex = Int(tree.items[item].entity)
    guard let model = snapshot.analysis.model, entityIndex >= 0 else {
      throw Self.failure("\(Excerpt.quoted(hit.name)) is not a property of the model")
    }
    let entity = model.entities[entityIndex]
    let declaring: String
    if DocumentQueries.isFormatAttribute(hit.name, of: item) {
      throw Self.failure(
        "\(Excerpt.quoted(hit.name)) on the root element is \(RootFormat.meaning(of: hit.name)), not a property of the model (format attributes cannot be renamed)"
      )
    } else if let index = entity.attributeIndex[hit.name] {
      declaring = entity.attributes[index].declaringEntity
    } else if let index = entity.relationshipIndex[hit.name] {
      declaring = entity.relationships[index].declaringEntity
    } else {
      throw Self.failure(
        "\(Excerpt.quoted(hit.name)) is not an attribute or relationship of \(Excerpt.quoted(entity.name)) (format attributes cannot be renamed)"
      )
    }
    guard let modelPath = model.path, let editable = self.model(at: modelPath) else {
      throw Self.failure("The model is not a file (the built-in model cannot be renamed in)")
    }
    return .property(
      model: editable, entity: declaring.isEmpty ? entity.name : declaring, name: hit.name,
      range: hit.nameRange, source: snapshot.source)
  }

  func prepare(uri: String, position: LSP.Position) throws -> LSP.PrepareRenameResult? {
    switch try target(uri: uri, position: position) {
    case .id:
      let snapshot = workspace.open.first { $0.uri == uri }!
      return try NavigationFeature(mapper: mapper).prepareRename(
        snapshot, LSP.TextDocumentPositionParams(textDocument: .init(uri: uri), position: position))
    case .property(_, _, let name, let range, let source), .entity(_, let name, let range, let source):
      return LSP.PrepareRenameResult(range: mapper.range(range, in: source), placeholder: name)
    }
  }

  func rename(_ params: LSP.RenameParams, context: RequestContext) throws -> LSP.WorkspaceEdit {
    let uri = params.textDocument.uri
    switch try target(uri: uri, position: params.position) {
    case .id:
      let snapshot = workspace.open.first { $0.uri == uri }!
      return try NavigationFeature(mapper: mapper).rename(snapshot, params, workspaceEdits: workspaceEdits)
    case .property(let model, let entity, let name, _, _):
      return try rename(Excerpt.quoted(entity + "." + name), in: model, context: context) {
        () throws(ModelRename.Refusal) in
        try ModelRename.edits(in: model, entity: entity, property: name, to: params.newName)
      }
    case .entity(let model, let name, _, _):
      return try rename("entity \(Excerpt.quoted(name))", in: model, context: context) {
        () throws(ModelRename.Refusal) in
        try ModelRename.entityEdits(in: model, entity: name, to: params.newName)
      }
    }
  }

  /// The model's edits and those of every outline that uses it, for its current version.
  func rename(
    _ what: String, in model: Model, context: RequestContext,
    edits: () throws(ModelRename.Refusal) -> [TextEdit]
  ) throws -> LSP.WorkspaceEdit {
    guard let modelPath = model.path else { throw Self.failure("The model is not a file") }
    let modelEdits: [TextEdit]
    do {
      modelEdits = try edits()
    } catch {
      throw Self.failure("Cannot rename \(what): \(error.description)")
    }
    let wanted = WorkspaceDiagnosticsFeature.standardized(modelPath)
    let openByPath = Dictionary(
      workspace.open.compactMap { snapshot in
        snapshot.path.map { (WorkspaceDiagnosticsFeature.standardized($0), snapshot) }
      },
      uniquingKeysWith: { first, _ in first })
    var changes: [WorkspaceEdits.Change] = []
    let modelURI = openByPath[wanted]?.uri ?? URL(fileURLWithPath: modelPath).absoluteString
    changes.append(
      WorkspaceEdits.Change(
        uri: modelURI, version: openByPath[wanted]?.version,
        edits: modelEdits.map { mapper.edit($0, in: model.source) }))
    var paths: [String] = []
    var seen: Set<String> = []
    for folder in workspace.folders {
      for path in workspace.findOutlines?(folder, workspace.store.configurations) ?? []
      where seen.insert(WorkspaceDiagnosticsFeature.standardized(path)).inserted {
        paths.append(path)
      }
    }
    paths += openByPath.keys.filter { !seen.contains($0) && !ModelReferences.isModelFile($0) }.sorted()
    for path in paths {
      try context.cancellation.check()
      let open = openByPath[WorkspaceDiagnosticsFeature.standardized(path)]
      guard let snapshot = open ?? (try? workspace.store.closedFile(path)) else { continue }
      let analysis = snapshot.analysis
      guard let used = analysis.model?.path, WorkspaceDiagnosticsFeature.standardized(used) == wanted,
        analysis.parsed
      else { continue }
      // A document for an older version is left for migrate, as `outline model rename` leaves it.
      if let status = analysis.versionStatus, status.version != status.history.current { continue }
      let edits: [TextEdit]
      do {
        edits = try ModelRename.documentEdits(snapshot.source, model: model, applying: modelEdits)
      } catch {
        throw Self.failure("Cannot rename \(what): \(error.description)")
      }
      guard !edits.isEmpty else { continue }
      changes.append(
        WorkspaceEdits.Change(
          uri: snapshot.uri, version: open?.version, edits: edits.map { mapper.edit($0, in: snapshot.source) }
        ))
    }
    return workspaceEdits.edit(changes)
  }
}

extension LanguageServer {
  /// Renames over this server's folders and open documents, as they are now.
  func renames() -> RenameFeature {
    RenameFeature(workspace: modelReferences(), workspaceEdits: workspaceEdits)
  }
}
