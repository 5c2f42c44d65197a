import OutlineCore
import OutlineModel
import OutlineValidation

/// Validates one document the way every face of the toolchain does: the
/// configuration found for it, its model chosen by SPEC §8's order, its rules applied.
public struct DocumentCheck: Sendable {
  /// The diagnostics after the configuration's rules.
  public var diagnostics: [Diagnostic]
  /// The item tree, when asked for.
  public var tree: ItemTree?
  /// The model it was validated against.
  public var model: Model?
  /// The configuration that applied.
  public var configuration: Configuration?

  /// Whether the text parsed (no OL100/OL104), so edits may be applied to it.
  public var parsed: Bool {
    !diagnostics.contains { $0.code == .notWellFormed || $0.code == .doctypePresent }
  }

  /// Checks `source`, found at `path` (nil for standard input or an unsaved buffer).
  public static func run(
    _ source: SourceText, path: String?, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache, buildTree: Bool
  ) -> DocumentCheck {
    let configuration = configurations.configuration(for: path ?? "./-")
    let resolution = ModelResolution(override: modelOverride, configuration: configuration, cache: models)
    let validator = OutlineValidator.validate(
      source, modelProvider: resolution.provider(for: path), buildTree: buildTree)
    var diagnostics = validator.diagnostics
    if let configuration { diagnostics = configuration.apply(to: diagnostics) }
    return DocumentCheck(
      diagnostics: Diagnostic.sortedByPosition(diagnostics), tree: validator.tree, model: validator.model,
      configuration: configuration)
  }
}
