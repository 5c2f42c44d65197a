import Foundation
import OutlineCore
import OutlineFiles
import OutlineModel

extension ModelLocator {
  /// Every version of the model at `path`: each `.xcdatamodel` of a
  /// `.xcdatamodeld` bundle in version order with the current one marked, or
  /// the one model of a `.xcdatamodel` folder or `contents` file (a version
  /// inside a bundle, `Tasks.xcdatamodeld/Tasks 2.xcdatamodel`, loads the
  /// whole bundle with that version as the current one).
  public static func history(path: String, limit: Int = InputFile.defaultLimit) throws -> ModelHistory {
    if let (bundle, version) = bundleAndVersion(of: path) {
      var history = try bundleHistory(bundle, limit: limit)
      if let version, let index = history.index(named: version) { history.current = index }
      return history
    }
    let contents = try contentsPath(for: path)
    let model = try load(path: path, limit: limit)
    return ModelHistory(versions: [ModelVersion(name: versionName(of: contents), model: model)], current: 0)
  }

  /// Loads every version of bundle `path`.
  private static func bundleHistory(_ path: String, limit: Int) throws -> ModelHistory {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: path))?
      .filter { $0.hasSuffix(".xcdatamodel") }
      .sorted { versionKey($0) < versionKey($1) } ?? []
    guard !names.isEmpty else {
      throw ModelLoadError(
        description: "model bundle \(InputFile.quoted(path)) holds no .xcdatamodel version")
    }
    // The versions are independent files: load them on every core, then take them in order
    // (so the first failure in version order is the one reported, whatever finished first).
    let loaded = Loaded(count: names.count)
    DispatchQueue.concurrentPerform(iterations: names.count) { index in
      loaded.set(index, Result { try load(path: join(path, names[index]), limit: limit) })
    }
    var versions: [ModelVersion] = []
    for (name, result) in zip(names, loaded.results) {
      versions.append(
        ModelVersion(name: String(name.dropLast(".xcdatamodel".count)), model: try result.get()))
    }
    var current = versions.count - 1
    if let named = currentVersionName(inBundle: path),
      let index = names.firstIndex(of: named)
    {
      current = index
    }
    return ModelHistory(versions: versions, current: current, bundlePath: path)
  }

  /// Results filled in by concurrent loads, one slot each.
  private final class Loaded: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Model, any Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Model, any Error>) {
      lock.lock()
      defer { lock.unlock() }
      slots[index] = result
    }

    /// Every slot's result, once `concurrentPerform` has returned.
    var results: [Result<Model, any Error>] {
      lock.lock()
      defer { lock.unlock() }
      return slots.map { $0! }
    }
  }

  /// The bundle a path lies in, with the version it names (nil for the bundle itself).
  static func bundleAndVersion(of path: String) -> (bundle: String, version: String?)? {
    // Path strings, not URLs, so messages keep the user's spelling.
    var path = trimmed(path) as NSString
    if path.lastPathComponent == "contents" { path = PathText.folder(of: path as String) as NSString }
    if path.pathExtension == "xcdatamodeld" { return (path as String, nil) }
    let folder = PathText.folder(of: path as String) as NSString
    if path.pathExtension == "xcdatamodel", folder.pathExtension == "xcdatamodeld" {
      return (folder as String, (path.lastPathComponent as NSString).deletingPathExtension)
    }
    return nil
  }

  /// The bundle `path` (a model's `contents` path) belongs to, if any.
  public static func bundle(containing path: String) -> String? {
    bundleAndVersion(of: path)?.bundle
  }

  /// `path` without trailing slashes; one ending in `.` or `..` (`model diff .` inside a bundle)
  /// is made absolute and standardized, so that its last component names the folder itself.
  private static func trimmed(_ path: String) -> String {
    var path = path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    let last = path.split(separator: "/").last
    if path == "." || path == ".." || last == "." || last == ".." {
      path = URL(fileURLWithPath: path).standardizedFileURL.path
    }
    return path
  }

  private static func versionName(of contents: String) -> String {
    var url = URL(fileURLWithPath: contents)
    if url.lastPathComponent == "contents" { url.deleteLastPathComponent() }
    return url.deletingPathExtension().lastPathComponent
  }
}
