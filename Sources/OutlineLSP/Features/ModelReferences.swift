import Foundation
import JSONRPC
import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineWorkspace
import OutlineXML

/// `textDocument/references` in a model file: every use, in the workspace's
/// outlines that use this model, of the entity, attribute or relationship
/// declared under the cursor (element names for an entity, attribute names
/// in start tags for the others), open documents as the editor has them.
struct ModelReferences: Sendable {
  let mapper: PositionMapper
  let folders: [String]
  let open: [Snapshot]
  let store: DocumentStore
  let findOutlines: OutlineSearch?

  /// Whether `path` is a model file rather than an outline (`…/contents`, `*.xcdatamodel`).
  static func isModelFile(_ path: String) -> Bool {
    path.hasSuffix("/contents") || path.hasSuffix(".xcdatamodel") || path.hasSuffix(".xcdatamodeld")
  }

  /// What the model declares under `offset`: an entity, or one of its own properties.
  enum Target: Equatable {
    case entity(String)
    case property(entity: String, name: String)
  }

  static func target(at offset: Int, in model: Model) -> Target? {
    func holds(_ range: TextRange) -> Bool { offset >= range.start && offset <= range.end }
    for entity in model.entities {
      if holds(entity.nameRange) { return .entity(entity.name) }
      for attribute in entity.attributes
      where attribute.declaringEntity == entity.name && holds(attribute.nameRange) {
        return .property(entity: entity.name, name: attribute.name)
      }
      for relationship in entity.relationships
      where relationship.declaringEntity == entity.name && holds(relationship.nameRange) {
        return .property(entity: entity.name, name: relationship.name)
      }
    }
    return nil
  }

  func references(path: String, position: LSP.Position, includeDeclaration: Bool, context: RequestContext)
    throws
    -> [LSP.Location]
  {
    guard case .success(let model) = store.models.model(at: path), let modelPath = model.path else {
      throw ResponseError(code: ErrorCode.requestFailed, message: "\(path) is not a model that can be read")
    }
    guard let offset = mapper.offset(position, in: model.source),
      let target = Self.target(at: offset, in: model)
    else { return [] }
    let wanted = WorkspaceDiagnosticsFeature.standardized(modelPath)
    var locations: [LSP.Location] = []
    if includeDeclaration, let declared = declaration(of: target, in: model) {
      locations.append(
        LSP.Location(
          uri: URL(fileURLWithPath: modelPath).absoluteString, range: mapper.range(declared, in: model.source)
        ))
    }
    let openByPath = Dictionary(
      open.compactMap { snapshot in
        snapshot.path.map { (WorkspaceDiagnosticsFeature.standardized($0), snapshot) }
      },
      uniquingKeysWith: { first, _ in first })
    var paths: [String] = []
    var seen: Set<String> = []
    for folder in folders {
      for path in findOutlines?(folder, store.configurations) ?? []
      where seen.insert(WorkspaceDiagnosticsFeature.standardized(path)).inserted {
        paths.append(path)
      }
    }
    paths += openByPath.keys.filter { !seen.contains($0) }.sorted()
    for path in paths {
      try context.cancellation.check()
      guard
        let snapshot = openByPath[WorkspaceDiagnosticsFeature.standardized(path)]
          ?? (try? store.closedFile(path, buildTree: true))
      else { continue }
      let analysis = snapshot.analysis
      guard let used = analysis.model, let usedPath = used.path,
        WorkspaceDiagnosticsFeature.standardized(usedPath) == wanted, let tree = analysis.tree
      else { continue }
      for range in uses(of: target, in: tree, model: used, source: snapshot.source) {
        locations.append(LSP.Location(uri: snapshot.uri, range: mapper.range(range, in: snapshot.source)))
      }
    }
    return locations
  }

  private func declaration(of target: Target, in model: Model) -> TextRange? {
    switch target {
    case .entity(let name):
      return model.entity(named: name).map { model.entities[$0].nameRange }
    case .property(let entityName, let name):
      guard let index = model.entity(named: entityName) else { return nil }
      let entity = model.entities[index]
      if let attribute = entity.attributeIndex[name] { return entity.attributes[attribute].nameRange }
      return entity.relationshipIndex[name].map { entity.relationships[$0].nameRange }
    }
  }

  /// The ranges in one outline that name `target`.
  private func uses(of target: Target, in tree: ItemTree, model: Model, source: SourceText) -> [TextRange] {
    var ranges: [TextRange] = []
    switch target {
    case .entity(let name):
      guard let entity = model.entity(named: name) else { return [] }
      for item in tree.items where Int(item.entity) == entity { ranges.append(item.nameRange) }
    case .property(let entityName, let name):
      guard let declaring = model.entity(named: entityName) else { return [] }
      for item in tree.items where item.entity >= 0 && model.isKind(Int(item.entity), of: declaring) {
        let found = TagScanner.withStartTag(in: source.bytes, range: item.startTag) { tag -> TextRange? in
          for index in 0..<tag.attributes.count where XMLName.string(tag.name(of: index)) == name {
            return tag.nameRange(of: index)
          }
          return nil
        }
        if let found { ranges.append(found) }
      }
    }
    return ranges
  }
}
