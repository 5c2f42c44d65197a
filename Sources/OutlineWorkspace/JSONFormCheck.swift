import OutlineConvert
import OutlineCore
import OutlineModel
import OutlineValidation

extension DocumentCheck {
  /// Whether `path` names a document in the JSON form: a `.json` file other
  /// than the configuration file `.outline.json`.
  public static func isJSONForm(_ path: String) -> Bool {
    path.hasSuffix(".json") && path.split(separator: "/").last != ".outline.json"
  }

  /// Checks the JSON form in `bytes`, found at `path` (nil for standard
  /// input or an unsaved buffer), the way `outline convert` reads it: every
  /// problem, at its JSON value, with the configuration's rules applied.
  /// The model is chosen as for XML, from the root's `@model`.
  public static func runJSON(
    _ bytes: ByteBuffer, path: String?, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache
  ) -> DocumentCheck {
    let configuration = configurations.configuration(for: path ?? "./-")
    let resolution = ModelResolution(override: modelOverride, configuration: configuration, cache: models)
    let provider = resolution.provider(for: path)
    var chosen: Model?
    var unreadableOrigin: ModelOrigin?
    var diagnostics: [Diagnostic] = []
    do {
      let problems = try JSONFormReader.check(bytes) { reference in
        switch provider(reference) {
        case .loaded(let model):
          chosen = model
          return model
        case .unreadable(let reason):
          unreadableOrigin = resolution.origin(of: reference, for: path)
          throw ModelProblem(code: .modelUnreadable, reason: ModelChoice.unreadableMessage(reason))
        case .refused(let reason):
          unreadableOrigin = resolution.origin(of: reference, for: path)
          throw ModelProblem(code: .modelOutsideProject, reason: reason)
        }
      }
      diagnostics = problems.map { problem in
        Diagnostic(
          problem.code, "\(problem.message) (at \(problem.path))",
          at: TextRange(start: problem.offset, end: problem.end), severity: problem.severity)
      }
    } catch let problem as ModelProblem {
      let at = modelRange(in: bytes.view)
      diagnostics = [Diagnostic(problem.code, problem.reason, at: at)]
    } catch {
      diagnostics = [Diagnostic(.modelUnreadable, "\(error)", at: TextRange(start: 0, end: 0))]
    }
    if let configuration { diagnostics = configuration.apply(to: diagnostics) }
    var check = DocumentCheck(
      diagnostics: Diagnostic.sortedByPosition(diagnostics), tree: nil, model: chosen,
      configuration: configuration, rootEntity: nil)
    check.isJSONForm = true
    check.unreadableModelOrigin = unreadableOrigin
    return check
  }

  /// The range of the root's `@model` value, found by its text (the start when absent).
  private static func modelRange(in bytes: ByteView) -> TextRange {
    let key = Array("\"@model\"".utf8)
    guard bytes.count >= key.count else { return TextRange(start: 0, end: 0) }
    for start in 0...(bytes.count - key.count) where bytes[start] == key[0] {
      guard bytes[start..<start + key.count].elementsEqual(key) else { continue }
      var at = start + key.count
      while at < bytes.count
        && (bytes[at] == 0x20 || bytes[at] == 0x3A || bytes[at] == 0x0A || bytes[at] == 0x09
          || bytes[at] == 0x0D)
      { at += 1 }
      var end = at + 1
      while end < bytes.count && bytes[end] != 0x22 { end += bytes[end] == 0x5C ? 2 : 1 }
      return TextRange(start: at, end: min(end + 1, bytes.count))
    }
    return TextRange(start: 0, end: 0)
  }

  private struct ModelProblem: Error {
    var code: DiagnosticCode
    var reason: String
  }
}
