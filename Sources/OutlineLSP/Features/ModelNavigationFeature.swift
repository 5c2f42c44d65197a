import Foundation
import JSONRPC
import OutlineCore
import OutlineModel
import OutlineWorkspace
import OutlineXML

/// From an outline to its model: the document link on the root's `model`
/// attribute, definition and type definition from element, attribute and
/// relationship names to their declarations in the model file, and (in
/// ``ModelReferences``) from a model file's declaration to every use in the
/// workspace's outlines.
struct ModelNavigationFeature {
  let mapper: PositionMapper

  /// What a name in an outline stands for in its model.
  enum Declaration {
    case entity(Int)
    case attribute(entity: Int, index: Int)
    case relationship(entity: Int, index: Int)
  }

  /// The declaration whose name is under `offset`: an element name, or the name of an attribute in a start tag.
  static func declaration(at offset: Int, in snapshot: Snapshot) -> Declaration? {
    let queries = DocumentQueries(source: snapshot.source, analysis: snapshot.analysis)
    guard let tree = queries.tree, let model = queries.model, let (item, hit) = queries.startTag(at: offset)
    else {
      return nil
    }
    let entityIndex = Int(tree.items[item].entity)
    guard entityIndex >= 0 else { return nil }
    let name = tree.items[item].nameRange
    if offset >= name.start && offset <= name.end { return .entity(entityIndex) }
    guard let hit, offset >= hit.nameRange.start, offset <= hit.nameRange.end,
      !DocumentQueries.isFormatAttribute(hit.name, of: item)
    else { return nil }
    let entity = model.entities[entityIndex]
    if let index = entity.attributeIndex[hit.name] { return .attribute(entity: entityIndex, index: index) }
    if let index = entity.relationshipIndex[hit.name] {
      return .relationship(entity: entityIndex, index: index)
    }
    return nil
  }

  /// Where `declaration` is written in `model`'s file.
  static func nameRange(of declaration: Declaration, in model: Model) -> TextRange {
    switch declaration {
    case .entity(let entity): model.entities[entity].nameRange
    case .attribute(let entity, let index): model.entities[entity].attributes[index].nameRange
    case .relationship(let entity, let index): model.entities[entity].relationships[index].nameRange
    }
  }

  /// The file the model was read from: none for one built in memory, nor for the shipped
  /// default model, which is embedded and whose display path names no file beside the document.
  static func file(of model: Model) -> String? {
    model.isShippedDefault ? nil : model.path
  }

  /// The location of `range` in the model file, when the model was read from one.
  func location(_ range: TextRange, in model: Model) -> LSP.Location? {
    guard let path = Self.file(of: model) else { return nil }
    return LSP.Location(
      uri: URL(fileURLWithPath: path).absoluteString, range: mapper.range(range, in: model.source))
  }

  /// `textDocument/definition` on a name: its declaration in the model file.
  func definition(_ snapshot: Snapshot, at offset: Int) -> LSP.Location? {
    guard let model = snapshot.analysis.model, let declaration = Self.declaration(at: offset, in: snapshot)
    else {
      return nil
    }
    return location(Self.nameRange(of: declaration, in: model), in: model)
  }

  /// `textDocument/typeDefinition`: the entity of the object (or the destination of a relationship).
  func typeDefinition(_ snapshot: Snapshot, _ params: LSP.TextDocumentPositionParams) throws -> LSP.Location?
  {
    guard let offset = mapper.offset(params.position, in: snapshot.source) else {
      throw ResponseError.invalidParams("position is not a position")
    }
    let analysis = snapshot.analysis
    guard let model = analysis.model, let tree = analysis.tree else { return nil }
    switch Self.declaration(at: offset, in: snapshot) {
    case .relationship(let entity, let index):
      guard let destination = model.entities[entity].relationships[index].destination else { return nil }
      return location(model.entities[destination].nameRange, in: model)
    case .entity(let entity), .attribute(let entity, _):
      return location(model.entities[entity].nameRange, in: model)
    case nil:
      guard let item = tree.item(at: offset), tree.items[item].entity >= 0 else { return nil }
      return location(model.entities[Int(tree.items[item].entity)].nameRange, in: model)
    }
  }

  /// Where the declaration stands, for hover: `contents:12` linked to the line.
  func declaredAt(_ declaration: Declaration, in model: Model) -> String? {
    guard let path = Self.file(of: model) else { return nil }
    let range = Self.nameRange(of: declaration, in: model)
    let line = model.source.position(of: range.start, unit: .utf8).line + 1
    let url = URL(fileURLWithPath: path)
    let name = url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
    return "declared at [\(name):\(line)](\(url.absoluteString)#L\(line))"
  }

  /// `textDocument/documentLink`: the root's `model` attribute, to the model
  /// file (a bundle's current version), when it can be found.
  func links(_ snapshot: Snapshot) -> [LSP.DocumentLink] {
    guard let tree = snapshot.analysis.tree, !tree.items.isEmpty else { return [] }
    let root = tree.items[0].startTag
    guard root.end > root.start else { return [] }
    let value = TagScanner.withStartTag(in: snapshot.source.bytes, range: root) {
      tag -> (TextRange, String)? in
      for index in 0..<tag.attributes.count where XMLName.string(tag.name(of: index)) == "model" {
        return (tag.valueRange(of: index), tag.value(of: index))
      }
      return nil
    }
    guard let (range, named) = value, !named.isEmpty else { return [] }
    let folder = snapshot.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? "."
    let path = named.hasPrefix("/") ? named : folder + "/" + named
    guard let contents = try? ModelLocator.contentsPath(for: path) else { return [] }
    return [
      LSP.DocumentLink(
        range: mapper.range(range, in: snapshot.source),
        target: URL(fileURLWithPath: contents).absoluteString,
        tooltip: "The model: \(URL(fileURLWithPath: contents).deletingLastPathComponent().lastPathComponent)")
    ]
  }
}
