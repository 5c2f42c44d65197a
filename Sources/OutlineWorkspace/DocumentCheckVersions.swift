import Foundation
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineModel
import OutlineXML

/// Every version of the bundles that documents' models belong to, each
/// bundle loaded once and shared between threads (the linter's jobs, the
/// server's analyses).
public final class ModelHistoryCache: @unchecked Sendable {
  private let lock = NSLock()
  private var histories: [String: ModelHistory?] = [:]
  /// The same answers by model path as asked: every document of a run asks
  /// with the same few paths, and finding a path's bundle and standardizing
  /// it costs more than linting a small file's root (the working directory
  /// does not change during a run).
  private var byModelPath: [String: ModelHistory?] = [:]
  /// The largest model file read.
  public let limit: Int

  /// An empty cache reading model files of at most `limit` bytes.
  public init(limit: Int = InputFile.defaultLimit) { self.limit = limit }

  /// The history of the bundle holding the model at `modelPath` (its
  /// `contents`), with that version as the current one (the bundle's current version, unless
  /// the document named another version's folder); nil when the model is not in a bundle or
  /// the bundle cannot be read.
  public func history(forModelAt modelPath: String) -> ModelHistory? {
    lock.lock()
    if let known = byModelPath[modelPath] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let found = lookUp(modelPath)
    lock.lock()
    byModelPath[modelPath] = .some(found)
    lock.unlock()
    return found
  }

  private func lookUp(_ modelPath: String) -> ModelHistory? {
    guard ModelLocator.bundle(containing: modelPath) != nil else { return nil }
    // By the version's path, not the bundle's: a document whose `model` names one version
    // folder is pinned to it, and that version is its history's current one.
    let key = ConfigurationFinder.standardized(modelPath)
    lock.lock()
    if let known = histories[key] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let loaded = try? ModelLocator.history(path: modelPath, limit: limit)
    lock.lock()
    histories[key] = .some(loaded)
    lock.unlock()
    return loaded
  }

  /// Forgets every history (the server calls it when a model file changes).
  public func invalidate() {
    lock.lock()
    histories.removeAll()
    byModelPath.removeAll()
    lock.unlock()
  }
}

extension DocumentCheck {
  /// Adds what the document's model version says, for the text `source`:
  /// ``versionStatus`` and, when a migration to the current version is
  /// pending, OL108 on the root (after the configuration's rules and the
  /// document's `outline-disable` comments), saying
  /// why `outline migrate` would refuse it when it would. Only for an XML
  /// document that parsed, whose model is a bundle of several versions.
  public mutating func checkVersion(histories: ModelHistoryCache, source: SourceText) {
    checkVersion(
      histories: histories, root: { DocumentRoot.read(source.bytes) },
      chunks: { body in source.bytes.withByteView { body($0) } })
  }

  /// ``checkVersion(histories:source:)`` for a document's bytes held in memory.
  public mutating func checkVersion(histories: ModelHistoryCache, bytes: ByteView) {
    checkVersion(
      histories: histories, root: { DocumentRoot.read { body in _ = body(bytes) } },
      chunks: { body in body(bytes) })
  }

  /// ``checkVersion(histories:source:)`` for the file at `path`, read again
  /// from disk in chunks (only the root's bytes, unless a version must be
  /// inferred or a migration is pending).
  public mutating func checkVersion(histories: ModelHistoryCache, path: String, limit: Int) {
    checkVersion(
      histories: histories,
      root: {
        DocumentRoot.read { body in FileChunks.readPrefix(path, body) }
      },
      chunks: { body in try? FileChunks.readViews(path, limit: limit) { body($0) } })
  }

  private mutating func checkVersion(
    histories: ModelHistoryCache, root readRoot: () -> DocumentRoot?,
    chunks: ((ByteView) -> Void) -> Void
  ) {
    // The shipped default model is embedded: its display path names no folder to read versions from.
    guard !isJSONForm, parsed, let model, !model.isShippedDefault, let modelPath = model.path,
      let history = histories.history(forModelAt: modelPath), history.versions.count > 1,
      let root = readRoot()
    else { return }
    let current = history.versions[history.current].model.path
    let fitsCurrent =
      current.map(Self.standardized) == Self.standardized(modelPath)
      && !diagnostics.contains { $0.severity == .error }
    let status = DocumentVersionStatus.of(root: root, history: history, fitsCurrent: fitsCurrent) { parser in
      chunks { parser.feed($0) }
    }
    versionStatus = status
    if let named = root.attributes["modelVersion"], history.index(named: named) == nil {
      // A version the model does not have: said, not silently replaced by the inferred one.
      let unknown = Diagnostic(
        .badRootOrVersion,
        "modelVersion \(Excerpt.quoted(named)) is not a version of the model (it has \(history.names.map { Excerpt.quoted($0) }.joined(separator: ", "))); the document fits \(Excerpt.quoted(status.versionName))",
        at: root.versionRange ?? root.nameRange)
      let added = suppression.filter(configuration?.apply(to: [unknown]) ?? [unknown])
      if !added.isEmpty { diagnostics = Diagnostic.sortedByPosition(diagnostics + added) }
    }
    guard status.migrationPending else { return }
    let outcome = status.pendingOutcome(feed: chunks)
    guard let pending = status.pendingDiagnostic(refusal: outcome.refusal(allowDataLoss: false)) else {
      return
    }
    let added = suppression.filter(configuration?.apply(to: [pending]) ?? [pending])
    if !added.isEmpty { diagnostics = Diagnostic.sortedByPosition(diagnostics + added) }
  }

  /// The version of its model's bundle the document was validated against, for `fmt` to
  /// record on its root (and the server's formatting, which gives `fmt`'s text): when it fits
  /// it with no error and the bundle has several versions (whether the root records one
  /// already is for the caller to see); nil otherwise. `history` gives the history of the
  /// bundle holding a model file, nil when it cannot be read.
  public func versionToRecord(history: (_ modelPath: String) -> ModelHistory?) -> String? {
    guard !isJSONForm, let model, !model.isShippedDefault, let modelPath = model.path,
      ModelLocator.bundle(containing: modelPath) != nil,
      !diagnostics.contains(where: { $0.severity == .error }),
      let history = history(modelPath), history.versions.count > 1
    else { return nil }
    // The version validated against: the folder holding the model's `contents`.
    let version = URL(fileURLWithPath: modelPath).deletingLastPathComponent().deletingPathExtension()
      .lastPathComponent
    return history.index(named: version) != nil ? version : nil
  }

  /// The version `fmt` records on a document whose root records none (Migration.md): the one
  /// ``versionToRecord(history:)`` gives; else, when its model is a bundle of several versions,
  /// the version it fits with no errors as the inference chooses it (the current one when
  /// several fit, else the newest before it), `feed` handing out its text again for that; nil
  /// when it fits none with no errors. The caller sees that the root records none first.
  public func versionToRecord(
    history: (_ modelPath: String) -> ModelHistory?, feed: ((ByteView) -> Void) -> Void
  ) -> String? {
    if let version = versionToRecord(history: history) { return version }
    guard !isJSONForm, parsed, let model, !model.isShippedDefault, let modelPath = model.path,
      ModelLocator.bundle(containing: modelPath) != nil, let history = history(modelPath),
      history.versions.count > 1
    else { return nil }
    let inferred = VersionInference.infer(history: history) { parser in feed { parser.feed($0) } }
    guard inferred.errors.indices.contains(inferred.version), inferred.errors[inferred.version] == 0 else {
      return nil
    }
    return history.versions[inferred.version].name
  }

  /// ``versionToRecord(history:)`` with the histories of `histories`.
  public func versionToRecord(histories: ModelHistoryCache) -> String? {
    versionToRecord { histories.history(forModelAt: $0) }
  }

  private static func standardized(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
