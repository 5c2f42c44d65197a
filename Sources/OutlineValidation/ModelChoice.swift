import OutlineCore
import OutlineModel

/// What the caller could make of the model a document asks for.
public enum ModelChoice: Sendable {
  /// The model to validate against.
  case loaded(Model)
  /// The model could not be read; the reason names the path.
  case unreadable(String)
  /// The model may not be read from where it is (outside the project); the reason says so.
  case refused(String)

  /// OL102's message for a model that cannot be read, in an XML document and in the JSON
  /// form alike.
  public static func unreadableMessage(_ reason: String) -> String {
    "The model cannot be read: \(reason)"
  }
}

/// Chooses the model once the root's `model` attribute is known (nil when absent).
///
/// The command line and the server pass one that applies `--model`,
/// `.outline.json` and the default model in SPEC §8's order.
public typealias ModelProvider = @Sendable (_ modelAttribute: String?) -> ModelChoice

/// The provider that always answers `model` (the default model unless given).
public func fixedModel(_ model: Model = ModelLoader.defaultModel) -> ModelProvider {
  { _ in .loaded(model) }
}
