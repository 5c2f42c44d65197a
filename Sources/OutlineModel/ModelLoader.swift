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
    return Model(
      entities: resolver.entities, entityIndex: resolver.entityIndex,
      diagnostics: Diagnostic.sortedByPosition(resolver.diagnostics), source: source, path: path,
      composites: resolver.composites)
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
