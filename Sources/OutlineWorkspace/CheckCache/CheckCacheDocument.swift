import OutlineCore

/// A document as the cache knows it before reading it (``CheckCache/document(path:form:found:configuration:)``).
public struct CheckCacheDocument: Sendable {
  /// Its cache folder's index and what the run did with it.
  let state: FolderState
  /// Its path as given.
  public let path: String
  /// `xml` or `json`.
  let form: String
  /// The project's folder, absolute and standardized.
  let base: String
  /// The digest of the key's fields it shares with the other documents of its project and configuration.
  let prefix: [UInt8]
  /// Its path and the working directory (relative to the project's folder), hashed: the name
  /// of its file's record in the index.
  let place: UInt64

  /// The cache folder its entry goes in.
  public var folder: String { state.folder }
}

/// What names a project among a run's documents: its configuration's path, else the folder of
/// the document (with `--cache-dir` and no configuration).
struct CheckCacheProjectName: Hashable {
  var configuration: String?
  var folder: String?
}

/// What the documents of one folder share: their project (nil when they are not cached) and
/// whether their configuration names a baseline.
struct FolderConfiguration {
  /// The folder as the documents' paths spell it, with its last `/`.
  var bytes: [UInt8]
  var project: CheckCacheProject?
  var baseline: Bool
}

/// What the keys of one project's documents share.
struct CheckCacheProject {
  var name: CheckCacheProjectName
  /// The project's folder, absolute and standardized.
  var base: String
  /// The index of the cache folder its entries go in.
  var state: FolderState
  /// The digest of the key's fields its documents share.
  var prefix: [UInt8]
  /// The hash each document's place starts from (before its path).
  var placeSeed: UInt64
}

/// A record's body decoded, and whether what it depended on is as it was.
final class CheckedBody: Sendable {
  let base: String
  let entry: CheckCacheEntry?
  let current: Bool

  init(base: String, entry: CheckCacheEntry?, current: Bool) {
    self.base = base
    self.entry = entry
    self.current = current
  }
}
