import Foundation
import OutlineCore
import OutlineFiles
import OutlineModel

/// The lint cache of one run: each file's check kept under a key made of the
/// digests of everything it depended on, in the cache folder of its project.
///
/// A key is the SHA-256 of the cache's format and the tool's version, the
/// document's bytes and form, its path as given and the working directory
/// (both relative to the project's folder), the options that choose its model
/// and size limit, and the bytes of the configuration that applies. The model
/// is found by the check itself, so the entry records which model it was and
/// the ``TreeDigest`` of the bundle (or folder, or file) it came from; the
/// entry is used only when that digest is still the same. Modification times
/// play no part: a clone of the project with new times hits the entries of
/// another clone, and a file edited within the same second misses.
///
/// Each folder's entries are records of one ``CheckCacheIndex``, read at the
/// folder's first lookup and written by ``finish()``. Trouble with the folder
/// (it cannot be made or written, its index is corrupt or from a newer version)
/// is never fatal: the files are checked, and `trouble` hears one message for
/// the whole run.
public final class CheckCache: @unchecked Sendable {
  /// The folder every entry goes in (`--cache-dir`), or nil: each project's `.outline-cache`.
  public let folder: String?
  /// The options that choose a document's model and limit, as text for the key.
  private let options: String
  private let trouble: @Sendable (String) -> Void
  let lock = NSLock()
  /// Held while an index is read, so that it is read once.
  let loading = NSLock()
  /// Each folder's index and what the run did with it.
  var folders: [String: FolderState] = [:]
  /// The day of the run (since 1970, UTC), the day records used or made are marked with.
  let today = Int(time(nil) / 86_400)
  /// The user reading the files, whom their records name.
  let reader = geteuid()
  private var troubled = false
  private var prepared: [String: Bool] = [:]
  private var digests: [String: [UInt8]] = [:]
  private var trees: [String: [UInt8]] = [:]
  private var configurationDigests: [String: [UInt8]] = [:]
  private var projects: [CheckCacheProjectName: CheckCacheProject] = [:]
  private var lastProject: CheckCacheProject?
  private var lastFolder: FolderConfiguration?
  private var units: [String: String] = [:]
  private var roots: [String: String] = [:]
  private var gitRoots: [String: String?] = [:]
  private var workingFolders: [String: String] = [:]
  private var modelSources: [String: SourceText?] = [:]
  private var counts = Counts()

  /// How the files of a run went.
  public struct Counts: Sendable, Equatable {
    /// Files whose check was read from the cache.
    public var hits = 0
    /// Files checked (no entry, or one that no longer held).
    public var misses = 0
    /// Entries written.
    public var written = 0
    /// Hits whose file was not read: its `stat` was as recorded (``CheckCacheFileRecord``).
    public var unread = 0
  }

  /// The name of a project's cache folder, beside its `.outline.json`.
  public static let defaultFolderName = ".outline-cache"

  /// A cache whose entries go in `folder` (nil: each project's own), for a run
  /// whose model and size options say `options`; `trouble` hears the first problem.
  public init(folder: String?, options: String, trouble: @escaping @Sendable (String) -> Void) {
    self.folder = folder
    self.options = options
    self.trouble = trouble
  }

  /// How the files went so far.
  public var counted: Counts {
    lock.lock()
    defer { lock.unlock() }
    return counts
  }

  /// The project of the document at `path` with `configuration`: the one of the document
  /// before (as is usual, with the same configuration) without a search.
  private func project(path: String, configuration: Configuration?) -> CheckCacheProject {
    let name = CheckCacheProjectName(
      configuration: configuration?.path, folder: configuration == nil ? PathText.folder(of: path) : nil)
    lock.lock()
    if let last = lastProject, last.name == name {
      lock.unlock()
      return last
    }
    lock.unlock()
    let project = remembered(\.projects, name) { makeProject(name, path: path, configuration: configuration) }
    lock.lock()
    lastProject = project
    lock.unlock()
    return project
  }

  /// The document at `path`, read as `form` (`xml` or `json`), as the cache knows it before
  /// reading it, and whether the configuration that applies to it names a baseline; nil when it
  /// is not cached: without `--cache-dir`, only a document with a `.outline.json` found for it
  /// (`found`) is. The configuration is asked of `configuration` only when the document is in
  /// another folder than the one before (it depends on the folder alone, and a run meets the
  /// documents folder by folder).
  public func document(path: String, form: String, found: Bool, configuration: () -> Configuration?)
    -> (document: CheckCacheDocument, baseline: Bool)?
  {
    let utf8 = path.utf8
    let folderEnd = utf8.lastIndex(of: 0x2F).map { utf8.distance(from: utf8.startIndex, to: $0) + 1 } ?? 0
    lock.lock()
    var known = lastFolder
    lock.unlock()
    if known == nil || known!.bytes.count != folderEnd || !utf8.prefix(folderEnd).elementsEqual(known!.bytes)
    {
      let applying = configuration()
      let cached = folder != nil || (applying != nil && found)
      known = FolderConfiguration(
        bytes: Array(utf8.prefix(folderEnd)),
        project: cached ? project(path: path, configuration: applying) : nil,
        baseline: applying?.baseline != nil)
      lock.lock()
      lastFolder = known
      lock.unlock()
    }
    guard let known, let project = known.project else { return nil }
    return (document(path: path, form: form, project: project), known.baseline)
  }

  /// The document at `path` of `project`.
  private func document(path: String, form: String, project: CheckCacheProject) -> CheckCacheDocument {
    // Where the file was read from: the same in a clone elsewhere, so that a clone's records
    // replace another's instead of piling up beside them.
    var place = project.placeSeed
    for byte in path.utf8 { place = (place ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return CheckCacheDocument(
      state: project.state, path: path, form: form, base: project.base, prefix: project.prefix, place: place)
  }

  /// The key of `document` when its `size` bytes have the SHA-256 `digest`.
  public func key(_ document: CheckCacheDocument, size: Int, digest: CheckCacheIndex.Key) -> CheckCacheKey {
    var bytes = document.prefix
    bytes.reserveCapacity(bytes.count + document.path.utf8.count + 80)
    Self.field(document.form, to: &bytes)
    Self.field(document.path, to: &bytes)
    Self.field("document \(size)", to: &bytes)
    digest.append(to: &bytes)
    return CheckCacheKey(digest: SHA256Digest.of(bytes), base: document.base)
  }

  /// Appends `text` to a key's bytes, its length first.
  static func field(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: String(text.utf8.count).utf8)
    bytes.append(0x3A)
    bytes.append(contentsOf: text.utf8)
  }

  /// What the keys of the documents of one project and configuration share, found once per run.
  private func makeProject(_ name: CheckCacheProjectName, path: String, configuration: Configuration?)
    -> CheckCacheProject
  {
    let base = base(for: path, configuration: configuration)
    var fields: [UInt8] = []
    Self.field("outline-lint cache \(CheckCacheEntry.format)", to: &fields)
    Self.field(ToolVersion.current, to: &fields)
    Self.field(options, to: &fields)
    let working = workingFolder(base: base)
    Self.field(working, to: &fields)
    if let configuration {
      Self.field(
        "configuration " + Self.described(CheckCacheEntry.StoredPath(configuration.path, base: base)),
        to: &fields)
      Self.field(SHA256Digest.hex(configurationDigest(configuration)), to: &fields)
    } else {
      Self.field("no configuration", to: &fields)
    }
    // FNV-1a, 64 bits: a place needs no more (``CheckCacheIndex``), and it is taken for every file.
    var placeSeed: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "outline-lint file\n\(working)\n".utf8 {
      placeSeed = (placeSeed ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    // The project's folder is the configuration's (found once per configuration).
    return CheckCacheProject(
      name: name, base: base, state: loaded(folder ?? base + "/" + Self.defaultFolderName),
      prefix: SHA256Digest.of(fields), placeSeed: placeSeed)
  }

  /// The entry kept for `key` of `document` when every file it depended on is as it was,
  /// else nil. `size` is the document's, which every diagnostic's range must lie within.
  public func entry(_ key: CheckCacheKey, of document: CheckCacheDocument, size: Int) -> CheckCacheEntry? {
    let state = document.state
    guard let indexKey = CheckCacheIndex.Key(key.digest), let slot = state.index.slot(indexKey) else {
      return nil
    }
    lock.lock()
    var checked = state.checked.indices.contains(slot.body) ? state.checked[slot.body] : nil
    lock.unlock()
    if checked == nil || checked!.base != key.base {
      // Decoded and its dependencies checked once per run: many records share a body.
      let entry = state.index.entry(body: slot.body)
      let current =
        entry?.dependencies.allSatisfy {
          dependencyDigest($0.path.path(base: key.base), key.base) == $0.digest
        }
        ?? false
      checked = CheckedBody(base: key.base, entry: entry, current: current)
    }
    guard let checked, let entry = checked.entry, entry.diagnostics.allSatisfy({ $0.range.end <= size })
    else {
      report("the index of \(InputFile.quoted(document.folder)) is corrupt")
      return nil
    }
    lock.lock()
    if state.checked.indices.contains(slot.body) { state.checked[slot.body] = checked }
    if checked.current {
      state.used.append(indexKey)
      if slot.day != today { state.changed = true }
    }
    lock.unlock()
    return checked.current ? entry : nil
  }

  /// Counts a file read from the cache (`hit`) or checked; `read` says whether it was read.
  public func record(hit: Bool, read: Bool = true) {
    count { counts in
      if hit { counts.hits += 1 } else { counts.misses += 1 }
      if hit && !read { counts.unread += 1 }
    }
  }

  /// Keeps `check` of `document` under `key` (written by ``finish()``), unless
  /// it holds what only this run or this place can say (a configuration with problems, a
  /// model that could not be read, or a path of the project written whole).
  /// `itemNames` are the names of the items the diagnostics are on, when the run made them.
  public func keep(
    _ check: DocumentCheck, itemNames: [String]? = nil, for key: CheckCacheKey,
    of document: CheckCacheDocument
  ) {
    guard let indexKey = CheckCacheIndex.Key(key.digest),
      let entry = entry(for: check, itemNames: itemNames, base: key.base)
    else { return }
    let body = entry.encodedBody()
    lock.lock()
    document.state.added[indexKey] = body
    lock.unlock()
  }

  /// The entry that keeps `check`, or nil when it may not be kept.
  func entry(for check: DocumentCheck, itemNames: [String]? = nil, base: String) -> CheckCacheEntry? {
    if let configuration = check.configuration, !configuration.diagnostics.isEmpty { return nil }
    if check.unreadableModelOrigin != nil { return nil }
    var model = CheckCacheEntry.ModelReference.none
    var dependencies: [CheckCacheEntry.Dependency] = []
    if let loaded = check.model {
      if loaded.isShippedDefault {
        model = .shippedDefault
      } else {
        guard let modelPath = loaded.path else { return nil }
        model = .file(CheckCacheEntry.StoredPath(modelPath, base: base))
        let unit = unit(of: modelPath)
        let stored = CheckCacheEntry.StoredPath(unit, base: base)
        dependencies.append(
          CheckCacheEntry.Dependency(path: stored, digest: dependencyDigest(stored.path(base: base), base)))
      }
    }
    var relatedFiles: [[CheckCacheEntry.StoredPath?]] = []
    var texts: [String] = []
    for diagnostic in check.diagnostics {
      texts.append(diagnostic.message)
      relatedFiles.append(
        diagnostic.related.map { related in
          texts.append(related.message)
          return related.file.map { CheckCacheEntry.StoredPath($0, base: base) }
        })
    }
    let entry = CheckCacheEntry(
      model: model, dependencies: dependencies, diagnostics: check.diagnostics, relatedFiles: relatedFiles,
      itemNames: itemNames)
    texts += itemNames ?? []
    // A path of this project's folder written whole would be wrong in a clone elsewhere.
    if case .file(.asWritten(let path)) = model { texts.append(path) }
    for files in relatedFiles { for case .some(.asWritten(let path)) in files { texts.append(path) } }
    for dependency in dependencies { texts.append(dependency.path.text) }
    let real = ProjectRoot.resolved(base)
    if base != "/" && texts.contains(where: { $0.contains(base) || $0.contains(real) }) { return nil }
    return entry
  }

  /// ``modelUnit(_:)`` of `modelPath`, found once per run.
  private func unit(of modelPath: String) -> String {
    remembered(\.units, modelPath) { Self.modelUnit(modelPath) }
  }

  /// What a document's model came from: its bundle, its version folder, or the file.
  static func modelUnit(_ modelPath: String) -> String {
    if let bundle = ModelLocator.bundle(containing: modelPath) { return bundle }
    let folder = PathText.folder(of: modelPath)
    if modelPath.hasSuffix("/contents") && folder.hasSuffix(".xcdatamodel") { return folder }
    return modelPath
  }

  /// The source of the model at `path` (a `contents` file), read once per run; nil when it cannot be read.
  public func modelSource(_ path: String, limit: Int) -> SourceText? {
    remembered(\.modelSources, path) {
      (try? InputFile.read(path, limit: limit)).map { SourceText(bytes: $0) }
    }
  }

  /// The digest of `path` and of where it leads, taken once per run.
  private func dependencyDigest(_ path: String, _ base: String) -> [UInt8] {
    remembered(\.digests, path + "\n" + base) {
      // Documents in many folders name one bundle by as many spellings (`../../Tasks.xcdatamodeld`):
      // it is read once, by where it leads.
      let real = ProjectRoot.resolved(path)
      let tree = remembered(\.trees, real) { TreeDigest.of(path) }
      var digest = SHA256Digest()
      digest.add(tree)
      // Where links lead decides whether the model is inside the project (OL106).
      digest.add(Self.described(CheckCacheEntry.StoredPath(real, base: ProjectRoot.resolved(base))))
      return digest.finish()
    }
  }

  private func configurationDigest(_ configuration: Configuration) -> [UInt8] {
    remembered(\.configurationDigests, configuration.path) { SHA256Digest.of(configuration.source.bytes) }
  }

  /// The value kept in `table` for `key`, made by `make` (outside the lock) and kept the
  /// first time it is asked for.
  private func remembered<Key: Hashable, Value>(
    _ table: ReferenceWritableKeyPath<CheckCache, [Key: Value]>, _ key: Key, make: () -> Value
  ) -> Value {
    lock.lock()
    if let known = self[keyPath: table][key] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let value = make()
    lock.lock()
    self[keyPath: table][key] = value
    lock.unlock()
    return value
  }

  /// The project folder of the document at `path` (``ProjectRoot``), found once per folder.
  private func base(for path: String, configuration: Configuration?) -> String {
    let spelled = configuration.map { "configuration " + $0.path } ?? "document " + PathText.folder(of: path)
    return remembered(\.roots, spelled) {
      if let configuration { return ProjectRoot.folder(for: path, configuration: configuration) }
      // ProjectRoot's rule without a configuration, each folder on the way up asked once for
      // `.git` (documents in a thousand folders share the folders above them).
      let folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
      if let git = gitRoot(folder) { return git }
      let working = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
      return ProjectRoot.contains(working, folder) ? working : folder
    }
  }

  /// The nearest folder from `folder` (absolute, standardized) up that holds `.git`, or nil.
  private func gitRoot(_ folder: String) -> String? {
    var visited: [String] = []
    var current = folder
    var found: String?
    while true {
      lock.lock()
      let known = gitRoots[current]
      lock.unlock()
      if let known {
        found = known
        break
      }
      visited.append(current)
      var info = stat()
      if lstat((current == "/" ? "" : current) + "/.git", &info) == 0 {
        found = current
        break
      }
      if current == "/" { break }
      let parent = PathText.folder(of: current)
      current = parent.isEmpty ? "/" : parent
    }
    lock.lock()
    for folder in visited { gitRoots[folder] = .some(found) }
    lock.unlock()
    return found
  }

  /// The working directory relative to `base` (absolute when outside it).
  private func workingFolder(base: String) -> String {
    remembered(\.workingFolders, base) {
      let working = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
      return Self.described(CheckCacheEntry.StoredPath(working, base: base))
    }
  }

  /// A stored path as key text, its kind first.
  private static func described(_ path: CheckCacheEntry.StoredPath) -> String {
    switch path {
    case .inProject(let relative): "in the project: " + relative
    case .asWritten(let written): "as written: " + written
    }
  }

  /// Whether `folder` is there to write in (made on first use).
  func ready(_ folder: String) -> Bool {
    remembered(\.prepared, folder) {
      let problem = CacheFolderFiles.prepare(folder)
      if let problem { report(problem) }
      return problem == nil
    }
  }

  func count(_ change: (inout Counts) -> Void) {
    lock.lock()
    change(&counts)
    lock.unlock()
  }

  /// Says the first problem of the run; the later ones go unsaid.
  func report(_ problem: String) {
    lock.lock()
    let first = !troubled
    troubled = true
    lock.unlock()
    if first { trouble(problem) }
  }
}

/// A document's key in the cache, and the project folder its entry's paths are relative to.
public struct CheckCacheKey: Sendable, Equatable {
  /// The SHA-256 of everything the document's check depends on.
  public var digest: [UInt8]
  /// The project's folder, absolute and standardized.
  public var base: String
}
