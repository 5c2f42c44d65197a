import Foundation
import OutlineCore
import OutlineXML

/// Loads a model from the text of a `contents` file and runs the model checks.
public enum ModelLoader {
  /// Parses and resolves a model; never throws: problems are diagnostics.
  public static func load(_ source: SourceText, path: String? = nil) -> Model {
    let reader = ModelReader()
    XMLEventParser.parse(source.bytes, handler: reader)
    reader.finish(sourceLength: source.bytes.count)
    var resolver = ModelResolver(entities: reader.entities, diagnostics: reader.diagnostics)
    resolver.composites = reader.composites
    resolver.resolve()
    let model = Model(
      entities: resolver.entities, entityIndex: resolver.entityIndex,
      diagnostics: Diagnostic.sortedByPosition(resolver.diagnostics), source: source, path: path,
      composites: resolver.composites)
    let shared = sharedRenamingIdentifiers(in: model)
    guard !shared.isEmpty else { return model }
    return Model(
      entities: resolver.entities, entityIndex: resolver.entityIndex,
      diagnostics: Diagnostic.sortedByPosition(resolver.diagnostics + shared), source: source, path: path,
      composites: resolver.composites)
  }

  /// OM215: two entities, or two properties declared by one entity, with the same
  /// `renamingIdentifier` (at the second, the first related).
  static func sharedRenamingIdentifiers(in model: Model) -> [Diagnostic] {
    var found: [Diagnostic] = []
    func check(_ named: [(name: String, identifier: String?, range: TextRange?)], what: String) {
      var first: [String: (name: String, range: TextRange?)] = [:]
      for item in named {
        guard let identifier = item.identifier, let range = item.range else { continue }
        guard let earlier = first[identifier] else {
          first[identifier] = (item.name, range)
          continue
        }
        found.append(
          Diagnostic(
            .sharedRenamingIdentifier,
            "\(what) \(Excerpt.quoted(item.name)) has renamingIdentifier \(Excerpt.quoted(identifier)), as \(Excerpt.quoted(earlier.name)) has: a migration takes \(Excerpt.quoted(earlier.name)) for it",
            at: range,
            related: earlier.range.map {
              [RelatedLocation(range: $0, message: "\(Excerpt.quoted(earlier.name)) has it too")]
            } ?? []))
      }
    }
    check(
      model.entities.indices.map {
        (
          model.entities[$0].name, model.renamingIdentifier(ofEntity: $0),
          model.entities[$0].ranges["renamingIdentifier"]
        )
      }, what: "Entity")
    for entity in model.entities {
      check(
        entity.attributes.filter { $0.declaringEntity == entity.name }.map {
          ($0.name, model.renamingIdentifier(of: $0), $0.ranges["renamingIdentifier"])
        }
          + entity.relationships.filter { $0.declaringEntity == entity.name }.map {
            ($0.name, model.renamingIdentifier(of: $0), $0.ranges["renamingIdentifier"])
          }, what: "Property")
    }
    return found
  }

  /// The default model: the nested to-do list (`schema/Outline.xcdatamodeld`).
  public static let defaultModel: Model = load(
    SourceText(ShippedModels.outline), path: ShippedModels.outlinePath)
}

extension Model {
  /// Whether this is the shipped default model, embedded in the binary: one
  /// version, whatever a folder named like its display path holds.
  public var isShippedDefault: Bool {
    path == ShippedModels.outlinePath && source == ModelLoader.defaultModel.source
  }
}
