import Foundation
import OutlineCore
import OutlineFiles
import OutlineModel
import OutlineWorkspace

/// The lint cache as `outline-lint` uses it (Documentation/CLI.md, "The cache").
///
/// Used for each file read from disk (never standard input) that is smaller
/// than ``DocumentCheck/wholeFileBytes``, in a plain lint (`--fix` and `--diff`
/// check every file themselves: they need its tree), when the file has a
/// `.outline.json` found for it (its entries go in `.outline-cache/` beside it)
/// or a folder is named by `--cache-dir` or `OUTLINE_CACHE_DIR`; `--no-cache`
/// turns it off.
enum LintCaching {
  /// The environment variable naming the cache folder (as `--cache-dir`, which wins).
  static let environmentVariable = "OUTLINE_CACHE_DIR"

  /// The cache of a run with these settings, or nil when the run uses none.
  static func cache(for settings: LintSettings) -> CheckCache? {
    if settings.noCache || settings.fix || settings.diff { return nil }
    if settings.paths.allSatisfy({ $0 == "-" }) { return nil }
    var folder = settings.cacheDir
    if folder == nil, let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
      folder = named
    }
    let options = [
      "model " + (settings.model ?? "(none)"), "config " + (settings.config ?? "(found)"),
      "isolated \(settings.isolated)", "max-size \(settings.maxSize.map { String($0.bytes) } ?? "(default)")",
    ].joined(separator: "\n")
    return CheckCache(folder: folder, options: options) { problem in
      Terminal.error("warning: the cache was not used where it failed (\(problem)); those files were checked")
    }
  }

  /// The `--verbose` line saying how the cache went.
  static func note(_ cache: CheckCache) -> String {
    let counts = cache.counted
    return
      "cache: \(counted(counts.hits, "file")) read from the cache, \(counted(counts.misses, "file")) checked, \(counted(counts.written, "entry", plural: "entries")) written, \(counted(counts.unread, "file")) not read again (stat as recorded)"
  }
}

extension LintJob {
  /// The file's result through the cache, or nil when the cache does not apply to it (the
  /// caller checks it as it would without one).
  func cachedRun(_ cache: CheckCache, json: Bool, chosenConfiguration: Bool) -> Result? {
    guard
      let (document, baseline) = cache.document(
        path: path, form: json ? "json" : "xml", found: !chosenConfiguration,
        configuration: { configurations.configuration(for: path) })
    else { return nil }
    // Fingerprints name the item each problem is on, as ``LintJob/report(_:_:)`` does.
    let wantsNames = itemNames || baseline
    // A file whose `stat` is as its record says is not read: its digest is the record's. A
    // clean file's report needs nothing else; one with problems is read for its lines.
    var info = stat()
    if stat(path, &info) == 0, Int(info.st_size) <= limit, Int(info.st_size) < DocumentCheck.wholeFileBytes,
      let digest = cache.knownDigest(of: document, status: info)
    {
      let key = cache.key(document, size: Int(info.st_size), digest: digest)
      if let entry = cache.entry(key, of: document, size: Int(info.st_size)),
        entry.diagnostics.isEmpty,
        let report = report(entry, key: key, bytes: nil, json: json, cache: cache)
      {
        cache.record(hit: true, read: false)
        var report = report
        if wantsNames { report.itemNames = [] }
        return Result(report: report)
      }
    }
    let bytes: [UInt8]
    let key: CheckCacheKey
    do throws(ReadError) {
      // Taken before opening: a change made after it is stamped at or after it (``CheckCacheFileRecord/isRacy``).
      let hashed = CheckCacheFileRecord.Time.now
      let descriptor = try InputFile.open(path, status: &info, checked: true)
      defer { close(descriptor) }
      let size = Int(info.st_size)
      if size > limit { throw InputFile.tooLarge(InputFile.quoted(path), limit: limit) }
      // A large file streams through its check: hashing it first would read it twice.
      if size >= DocumentCheck.wholeFileBytes { return nil }
      bytes = try InputFile.read(descriptor: descriptor, name: InputFile.quoted(path), limit: limit)
      let digest = CheckCacheIndex.Key(SHA256Digest.of(bytes))!
      if bytes.count == size { cache.remember(document, status: info, hashed: hashed, digest: digest) }
      key = cache.key(document, size: bytes.count, digest: digest)
    } catch {
      return Result(failure: error.description)
    }
    if let entry = cache.entry(key, of: document, size: bytes.count),
      var report = report(entry, key: key, bytes: bytes, json: json, cache: cache)
    {
      if wantsNames {
        if entry.diagnostics.isEmpty {
          report.itemNames = []
        } else if json {
          report.itemNames = entry.diagnostics.map { _ in "" }
        } else {
          report.itemNames = entry.itemNames.flatMap { $0.count == entry.diagnostics.count ? $0 : nil }
        }
      }
      if !wantsNames || report.itemNames != nil {
        cache.record(hit: true)
        return Result(report: report)
      }
    }
    cache.record(hit: false)
    let check: DocumentCheck
    let lines: any DocumentLines
    if json {
      let buffer = ByteBuffer(copying: bytes)
      var checked = DocumentCheck.runJSON(
        buffer, path: path, modelOverride: modelOverride, configurations: configurations, models: models)
      checked.checkVersion(histories: histories, json: buffer)
      check = checked
      lines = SourceText(bytes: bytes)
    } else {
      let source = SourceText(bytes: bytes)
      var checked = DocumentCheck.run(
        source, path: path, modelOverride: modelOverride, configurations: configurations, models: models,
        buildTree: false)
      checked.checkVersion(histories: histories, source: source)
      check = checked
      lines = FileLines(path: path, lines: source.lines)
    }
    let made = report(check, lines)
    cache.keep(check, itemNames: made.itemNames, for: key, of: document)
    return Result(
      report: made, configuration: check.configuration, modelTrouble: check.namedModelIsUnreadable)
  }

  /// The report an entry gives the file holding `bytes`, as its check would have made it; nil
  /// when a place it points to is not in the file or the model. `bytes` may be nil when the
  /// entry has no diagnostics.
  private func report(
    _ entry: CheckCacheEntry, key: CheckCacheKey, bytes: [UInt8]?, json: Bool, cache: CheckCache
  ) -> FileReport? {
    var diagnostics = entry.diagnostics
    var modelSource: (path: String, source: SourceText)?
    if !diagnostics.isEmpty {
      switch entry.model {
      case .none: break
      case .shippedDefault:
        let model = ModelLoader.defaultModel
        if let path = model.path { modelSource = (path, model.source) }
      case .file(let stored):
        let path = stored.path(base: key.base)
        guard let source = cache.modelSource(path, limit: models.limit) else { return nil }
        modelSource = (path, source)
      }
    }
    for index in diagnostics.indices {
      for (place, file) in entry.relatedFiles[index].enumerated() {
        let range = diagnostics[index].related[place].range
        guard let file else {
          guard let bytes, range.end <= bytes.count else { return nil }
          continue
        }
        let path = file.path(base: key.base)
        guard let modelSource, path == modelSource.path, range.end <= modelSource.source.bytes.count else {
          return nil
        }
        diagnostics[index].related[place].file = path
      }
    }
    if !diagnostics.isEmpty && bytes == nil { return nil }
    let lines: any DocumentLines =
      json
      ? SourceText(bytes: diagnostics.isEmpty ? [] : bytes ?? [])
      : FileLines(path: path, lines: diagnostics.isEmpty ? LineIndex() : LineIndex(bytes ?? []))
    var report = FileReport(path: path, source: lines, diagnostics: diagnostics)
    if let modelSource { report.relatedSources[modelSource.path] = modelSource.source }
    return report
  }
}
