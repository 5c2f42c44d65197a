import Foundation
import OutlineFiles
import OutlineModel
import OutlineValidation

/// Loads each model file once per run and shares it between threads.
public final class ModelCache: @unchecked Sendable {
  private let lock = NSLock()
  private var models: [String: Result<Model, ModelLoadError>] = [:]
  /// The choices ``ModelResolution/provider(for:)`` made, by everything each depends on
  /// (``ModelResolution/choiceKey(attribute:documentPath:configuration:)``): the files of a
  /// project that name one model cost a lookup each, not a search for the project's root, the
  /// model's links resolved and its path standardized again (the working directory does not
  /// change during a run; the server forgets them with the models when a model or a
  /// configuration changes).
  private var choices: [String: ModelChoice] = [:]
  /// The largest model file read.
  public let limit: Int

  /// An empty cache that reads model files of at most `limit` bytes.
  public init(limit: Int = InputFile.defaultLimit) { self.limit = limit }

  /// The model at `path` (a file, `.xcdatamodel` or `.xcdatamodeld`), loaded once.
  public func model(at path: String) -> Result<Model, ModelLoadError> {
    let key = URL(fileURLWithPath: path).standardizedFileURL.path
    lock.lock()
    if let cached = models[key] {
      lock.unlock()
      return cached
    }
    lock.unlock()
    let loaded: Result<Model, ModelLoadError>
    do {
      loaded = .success(try ModelLocator.load(path: path, limit: limit))
    } catch let error as ModelLoadError {
      loaded = .failure(error)
    } catch {
      loaded = .failure(ModelLoadError(description: "\(error)"))
    }
    lock.lock()
    models[key] = loaded
    lock.unlock()
    return loaded
  }

  /// The choice remembered under `key`, else the one `make` makes, remembered.
  func choice(_ key: String, _ make: () -> ModelChoice) -> ModelChoice {
    lock.lock()
    if let known = choices[key] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let made = make()
    lock.lock()
    choices[key] = made
    lock.unlock()
    return made
  }

  /// Forgets every model and every choice (the server calls it when a model file or a
  /// configuration changes).
  public func invalidate() {
    lock.lock()
    models.removeAll()
    choices.removeAll()
    lock.unlock()
  }

  /// Every model path asked for so far, read or not (what the server watches).
  public var paths: [String] {
    lock.lock()
    defer { lock.unlock() }
    return Array(models.keys)
  }
}

/// Who named a document's model. A model the document names that cannot be
/// read is a problem of the document (a diagnostic, exit 1); one the command
/// line or the configuration names is trouble of the run (exit 2).
public enum ModelOrigin: Sendable, Equatable {
  /// `--model`.
  case commandLine
  /// The root's `model` attribute.
  case document
  /// `.outline.json` (`models` or `model`).
  case configuration
  /// The shipped default model.
  case builtIn
}

/// Chooses the model for a document, first match wins (SPEC §8): the command
/// line's `--model`, the file's own `model` attribute, the first `models` glob
/// of the configuration that matches, the configuration's `model`, the default.
public struct ModelResolution: Sendable {
  /// `--model`, already absolute or relative to the working directory.
  public var override: String?
  /// The configuration that applies to the file, if any.
  public var configuration: Configuration?
  /// The shared cache.
  public var cache: ModelCache

  /// Creates a resolution.
  public init(override: String?, configuration: Configuration?, cache: ModelCache) {
    self.override = override
    self.configuration = configuration
    self.cache = cache
  }

  /// Where the model of the document at `documentPath` whose root says
  /// `attribute` comes from, by the same order as `provider(for:)`.
  public func origin(of attribute: String?, for documentPath: String?) -> ModelOrigin {
    if override != nil { return .commandLine }
    if attribute != nil { return .document }
    if let configuration, configuration.modelPathAndName(for: documentPath) != nil { return .configuration }
    return .builtIn
  }

  /// The folders a model the document at `documentPath` (nil: standard input) or its
  /// configuration names may come from: its project, then the configuration's `modelRoots` (OL106).
  public static func modelRoots(for documentPath: String?, configuration: Configuration?) -> [String] {
    [ProjectRoot.folder(for: documentPath, configuration: configuration)]
      + (configuration?.allowedModelRoots ?? [])
  }

  /// A provider for the document at `documentPath` (nil for stdin or an unsaved buffer).
  public func provider(for documentPath: String?) -> ModelProvider {
    let override = self.override
    let configuration = self.configuration
    let cache = self.cache
    return { attribute in
      func load(_ path: String) -> ModelChoice {
        switch cache.model(at: path) {
        case .success(let model): .loaded(model)
        case .failure(let error): .unreadable(error.description)
        }
      }
      if let override { return load(override) }
      /// A model named by the document or the configuration: only from inside the project.
      func loadInside(_ path: String, named: String) -> ModelChoice {
        let roots = ModelResolution.modelRoots(for: documentPath, configuration: configuration)
        // The same model named from another folder of the project: the same choice.
        let key = ([ConfigurationFinder.standardized(path), named] + roots).joined(separator: "\u{0}")
        return cache.choice("m\u{0}" + key) {
          if let refusal = ProjectRoot.refusal(modelPath: path, named: named, roots: roots) {
            return .refused(refusal)
          }
          return load(path)
        }
      }
      if let attribute {
        return cache.choice(
          Self.choiceKey(attribute: attribute, documentPath: documentPath, configuration: configuration)
        ) {
          let folder = documentPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? "."
          return loadInside(attribute.hasPrefix("/") ? attribute : folder + "/" + attribute, named: attribute)
        }
      }
      if let configuration, let (path, named) = configuration.modelPathAndName(for: documentPath) {
        // The project is the configuration's folder, whichever document names the model.
        return cache.choice(Self.choiceKey(configured: path, named: named, configuration: configuration)) {
          loadInside(path, named: named)
        }
      }
      return .loaded(ModelLoader.defaultModel)
    }
  }

  /// What the choice of the model a document's `attribute` names depends on: the document's
  /// folder as spelled (all through its last `/`; `\u{0}` for standard input), the attribute, and
  /// the configuration's folder and `modelRoots` (the project and the other roots).
  static func choiceKey(attribute: String, documentPath: String?, configuration: Configuration?) -> String {
    // Asked for every document: the folder is found among the path's bytes, and the key is
    // written into one string of the right size (interpolation and a joined array made several).
    let folder: Substring =
      documentPath.map { path in
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { Substring(path.utf8[...$0]) } ?? ""
      } ?? "\u{0}"
    return key("d", folder, attribute, configuration)
  }

  /// What the choice of the model a configuration names depends on: its path and its name
  /// as written, and the configuration's folder and `modelRoots`.
  static func choiceKey(configured path: String, named: String, configuration: Configuration) -> String {
    key("c", Substring(path), named, configuration)
  }

  /// `kind`, `first`, `second`, the configuration's folder and its `modelRoots`, each after a NUL
  /// (none of the configuration's when there is none).
  private static func key(
    _ kind: String, _ first: Substring, _ second: String, _ configuration: Configuration?
  ) -> String {
    var length = kind.utf8.count + first.utf8.count + second.utf8.count + 3
    if let configuration {
      length += configuration.folder.utf8.count
      for root in configuration.modelRoots { length += root.utf8.count + 1 }
    }
    var key = ""
    key.reserveCapacity(length)
    key += kind
    key += "\u{0}"
    key += first
    key += "\u{0}"
    key += second
    key += "\u{0}"
    if let configuration {
      key += configuration.folder
      for root in configuration.modelRoots {
        key += "\u{0}"
        key += root
      }
    }
    return key
  }
}
