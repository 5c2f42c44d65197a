import Foundation
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineModel
import OutlineValidation
import OutlineWorkspace
import OutlineXML

/// Finds the model history of documents and the version each is for, the way
/// `lint --verbose`, `fmt` and `migrate` need it; histories are loaded once per run.
final class DocumentVersions {
  private let configurations: ConfigurationFinder
  private let models: ModelCache
  private let modelOverride: String?
  private var histories: [String: Result<ModelHistory, VersionsError>] = [:]

  init(configurations: ConfigurationFinder, models: ModelCache, modelOverride: String?) {
    self.configurations = configurations
    self.models = models
    self.modelOverride = modelOverride
  }

  /// The root's attributes, read from the start of the file only; nil when it has no root.
  static func rootAttributes(path: String) throws(ReadError) -> [String: String]? {
    let descriptor = try InputFile.open(path)
    defer { close(descriptor) }
    let probe = RootProbe()
    let parser = XMLEventParser(handler: probe)
    FileChunks.readPrefix(descriptor: descriptor) { chunk in
      parser.feed(chunk)
      return !probe.done
    }
    if !probe.done { parser.finish() }
    return probe.attributes
  }

  /// The history of the model the document at `path` (whose root says `modelAttribute`) is read with.
  func history(for path: String, modelAttribute: String?) -> Result<ModelHistory, VersionsError> {
    let resolution = ModelResolution(
      override: modelOverride, configuration: configurations.configuration(for: path), cache: models)
    switch resolution.provider(for: path)(modelAttribute) {
    case .unreadable(let reason), .refused(let reason):
      return .failure(VersionsError(description: reason))
    case .loaded(let model):
      // The shipped default model is one version, whatever its display path says.
      guard let modelPath = model.path, !model.isShippedDefault else {
        return .success(ModelHistory(versions: [ModelVersion(name: "Outline", model: model)], current: 0))
      }
      // The version's own path: a document whose `model` names one version folder of a bundle
      // is pinned to it, and that version is its history's current one.
      let key = modelPath
      if let known = histories[key] { return known }
      let loaded: Result<ModelHistory, VersionsError>
      do {
        loaded = .success(try ModelLocator.history(path: key, limit: models.limit))
      } catch {
        loaded = .failure(VersionsError(description: "\(error)"))
      }
      histories[key] = loaded
      return loaded
    }
  }

  /// For `fmt`: the version a document was validated against, to record on its root, when it
  /// fits it with no error and its model has several versions (whether the root records one
  /// already is for the caller to see, ``RootProbe/recordingEdit(version:in:)``).
  func versionToRecord(for check: DocumentCheck) -> String? {
    check.versionToRecord(history: history(ofModelAt:))
  }

  /// For `fmt`: the version to record on a document whose root records none, as Migration.md
  /// says: the version it was validated against when it fits it with no error
  /// (``versionToRecord(for:)``); else, when its model is a bundle of several versions, the
  /// version it fits with no errors as the inference chooses it (the current one when several
  /// fit, else the newest before it), `feed` handing out its text again for that. Nil when it
  /// fits none with no errors.
  func versionToRecord(
    for check: DocumentCheck, feed: ((ByteView) -> Void) -> Void
  ) -> String? {
    check.versionToRecord(history: history(ofModelAt:), feed: feed)
  }

  /// The history of the bundle holding the model file at `modelPath`, loaded once; nil when it
  /// cannot be read.
  private func history(ofModelAt modelPath: String) -> ModelHistory? {
    let loaded =
      histories[modelPath]
      ?? Result { () throws(VersionsError) -> ModelHistory in
        do { return try ModelLocator.history(path: modelPath, limit: models.limit) } catch {
          throw VersionsError(description: "\(error)")
        }
      }
    histories[modelPath] = loaded
    return try? loaded.get()
  }

  /// Validates the file at `path` against every version of `history` in one streamed parse.
  static func infer(path: String, history: ModelHistory, limit: Int) throws(ReadError)
    -> VersionInference.Result
  {
    var failure: ReadError?
    let result = VersionInference.infer(history: history) { parser in
      do {
        try FileChunks.readViews(path, limit: limit) { parser.feed($0) }
      } catch let error as ReadError {
        failure = error
      } catch {}
    }
    if let failure { throw failure }
    return result
  }

  /// The `--verbose` line about the version of the document at `path`; nil for a model of one version.
  func note(for path: String, limit: Int) -> String? {
    guard let root = try? Self.rootAttributes(path: path),
      case .success(let history) = history(for: path, modelAttribute: root["model"]),
      history.versions.count > 1
    else { return nil }
    if let named = root["modelVersion"] {
      guard let index = history.index(named: named) else {
        return
          "\(path): names model version \(Excerpt.quoted(named)), which the model does not have (\(history.names.joined(separator: ", ")))"
      }
      let pending =
        index < history.current
        ? "; a migration to \(Excerpt.quoted(history.versions[history.current].name)) is pending" : ""
      return "\(path): written for model version \(Excerpt.quoted(history.versions[index].name))\(pending)"
    }
    guard let inferred = try? Self.infer(path: path, history: history, limit: limit) else { return nil }
    let errors = inferred.errors[inferred.version]
    let fit = errors == 0 ? "no errors" : "fewest errors: \(errors)"
    return
      "\(path): no modelVersion recorded; fits model version \(Excerpt.quoted(history.versions[inferred.version].name)) (\(fit))"
  }
}

/// Why the model history of a document could not be read.
struct VersionsError: Error, CustomStringConvertible {
  /// What went wrong, naming the path.
  let description: String
}
