import Foundation
import OutlineWorkspace

/// What a file looked like: enough to tell that it was written, created or removed.
struct FileStamp: Equatable, Sendable {
  var exists: Bool
  var seconds = 0
  var nanoseconds = 0
  var size: Int64 = 0
  var inode: UInt64 = 0

  init(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      exists = false
      return
    }
    exists = true
    let time = modificationTime(info)
    seconds = Int(time.tv_sec)
    nanoseconds = Int(time.tv_nsec)
    size = Int64(info.st_size)
    inode = UInt64(info.st_ino)
  }
}

/// The fallback for clients that do not watch files for the server: the
/// files the open documents' analyses read (model files, bundles and their
/// `.xccurrentversion`, the configuration file of every folder searched)
/// with their stamps, compared on each request.
final class DependencyStamps {
  private var known: [String: FileStamp] = [:]

  /// The files whose change can change an analysis the store made.
  static func paths(models: ModelCache, configurations: ConfigurationFinder) -> Set<String> {
    var paths: Set<String> = []
    for path in models.paths {
      paths.insert(path)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
        continue
      }
      // A folder (`.xcdatamodel`) or a bundle (`.xcdatamodeld`): its
      // contents, its current version and every version's contents.
      paths.insert(path + "/contents")
      paths.insert(path + "/.xccurrentversion")
      for version in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      where version.hasSuffix(".xcdatamodel") {
        paths.insert(path + "/" + version + "/contents")
      }
    }
    for folder in configurations.searchedFolders {
      paths.insert(folder + "/" + Configuration.fileName)
    }
    return paths
  }

  /// Records the stamps of `paths` not seen before (just after an analysis read them).
  func learn(_ paths: Set<String>) {
    for path in paths where known[path] == nil { known[path] = FileStamp(path) }
  }

  /// Whether a file seen before changed since; records what it is now.
  func changed() -> Bool {
    var changed = false
    for (path, stamp) in known {
      let now = FileStamp(path)
      if now != stamp {
        known[path] = now
        changed = true
      }
    }
    return changed
  }
}
