import Foundation
import OutlineCore
import OutlineFiles
import OutlineXML

/// Finds the `.outline.json` for a file: in its folder or the nearest above.
public final class ConfigurationFinder: @unchecked Sendable {
  private let lock = NSLock()
  private var byFolder: [String: Configuration?] = [:]
  /// The same answers by the folder as the document path spells it (all
  /// before its last `/`), so files of one folder cost one dictionary
  /// lookup, not a URL's standardization each (the working directory does
  /// not change during a run).
  /// (String keys, as `byFolder`'s: one dictionary type's metadata to build at start, not two.)
  private var bySpelledFolder: [String: Configuration?] = [:]
  /// The largest configuration file read.
  public let limit: Int
  /// This finder's number, unique in the process: what a thread's kept answer names it by.
  private let serial: Int
  /// Bumped by ``invalidate()`` (atomically: read without the lock): a thread's
  /// answer kept from an earlier generation is not used.
  private let generation = AtomicCounter()

  private static let serials = NSLock()
  nonisolated(unsafe) private static var lastSerial = 0

  /// What every document is given instead of the configuration found for it.
  public enum Choice: Sendable, Equatable {
    /// The one named (`--config PATH`), whatever its name: its paths and globs are relative to its folder.
    case file(String)
    /// None at all (`--isolated`): the default model and every code at its own severity.
    case isolated
  }

  /// The configuration every document is given, when a `Choice` was made: nil inside for `.isolated`.
  private let chosen: Configuration??

  /// An empty finder (it caches what it reads) that reads files of at most `limit` bytes; with
  /// `choice`, it searches for none and gives every document the one chosen.
  public init(limit: Int = InputFile.defaultLimit, choice: Choice? = nil) {
    self.limit = limit
    switch choice {
    case nil: chosen = nil
    case .isolated: chosen = .some(nil)
    case .file(let path):
      // Read once, as a found one is: one that cannot be read is an error (OC100), never skipped.
      let absolute = Self.standardized(path)
      do {
        chosen = Configuration(
          path: absolute, source: SourceText(bytes: try InputFile.read(absolute, limit: limit)))
      } catch {
        chosen = Configuration(path: absolute, unreadable: error)
      }
    }
    Self.serials.lock()
    Self.lastSerial += 1
    serial = Self.lastSerial
    Self.serials.unlock()
  }

  /// Each thread's last answer (files come folder by folder): a thread asking
  /// again for the same folder takes no lock and writes nothing other threads
  /// read. With a lock and a last answer shared by every thread, each file's
  /// three questions (the search's, the size limit's, the check's) moved the
  /// lock's and the answer's cache lines between the cores of a run with
  /// several jobs, and cost many times what they cost now (the answer's string
  /// retained and compared as a `Substring`).
  private final class KeptAnswer {
    var finder = 0
    var generation = -1
    /// The document path's folder as spelled, through its last `/` (empty for none).
    var folder: [UInt8] = []
    var configuration: Configuration?
  }

  private static let keptAnswers = ThreadSlot { pointer in
    if let pointer { Unmanaged<KeptAnswer>.fromOpaque(pointer).release() }
  }

  /// The calling thread's kept answer, made on its first question.
  private static var keptAnswer: KeptAnswer {
    if let pointer = keptAnswers.current {
      return Unmanaged<KeptAnswer>.fromOpaque(pointer).takeUnretainedValue()
    }
    let answer = KeptAnswer()
    _ = keptAnswers.put(Unmanaged.passRetained(answer).toOpaque())
    return answer
  }

  /// The configuration that applies to `documentPath`.
  public func configuration(for documentPath: String) -> Configuration? {
    if let chosen { return chosen }
    // Read before anything is looked up: an answer found after an invalidation is kept as this generation's.
    let current = generation.current
    let kept = Self.keptAnswer
    var path = documentPath
    // By bytes: a `/` is one, and Character-wise search would break graphemes all along the path.
    let folderBytes = path.withUTF8 { bytes in bytes.lastIndex(of: 0x2F).map { $0 + 1 } ?? 0 }
    if kept.finder == serial && kept.generation == current && kept.folder.count == folderBytes
      && path.withUTF8({ bytes in
        bytes.prefix(folderBytes).elementsEqual(kept.folder)
      })
    {
      return kept.configuration
    }
    let folder = path.withUTF8 { Array($0[..<folderBytes]) }
    let spelled = String(decoding: folder, as: UTF8.self)
    lock.lock()
    let cached = bySpelledFolder[spelled]
    lock.unlock()
    let found: Configuration?
    if let cached {
      found = cached
    } else {
      found = search(for: documentPath)
      lock.lock()
      bySpelledFolder[spelled] = .some(found)
      lock.unlock()
    }
    kept.finder = serial
    kept.generation = current
    kept.folder = folder
    kept.configuration = found
    return found
  }

  private func search(for documentPath: String) -> Configuration? {
    var folder = Self.folder(of: documentPath)
    var visited: [String] = []
    while true {
      lock.lock()
      if let cached = byFolder[folder] {
        lock.unlock()
        remember(visited, cached)
        return cached
      }
      lock.unlock()
      visited.append(folder)
      let candidate = folder == "/" ? "/" + Configuration.fileName : folder + "/" + Configuration.fileName
      var info = stat()
      if lstat(candidate, &info) == 0 {
        // Whatever is there is the configuration: one that cannot be read
        // (permissions, a FIFO, a dangling link) is an error, never skipped.
        let configuration: Configuration
        do {
          configuration = Configuration(
            path: candidate, source: SourceText(bytes: try InputFile.read(candidate, limit: limit)))
        } catch {
          configuration = Configuration(path: candidate, unreadable: error)
        }
        remember(visited, configuration)
        return configuration
      }
      guard folder != "/", let slash = folder.utf8.lastIndex(of: UInt8(ascii: "/")) else {
        remember(visited, nil)
        return nil
      }
      folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
    }
  }

  /// The absolute folder of `documentPath`, with `.`, `..` and repeated `/`
  /// removed, as `URL.standardizedFileURL` spells it (links are not
  /// resolved), by string operations: a URL's standardization costs more
  /// than the rest of a folder's search.
  static func folder(of documentPath: String) -> String {
    if documentPath.hasPrefix("~") {
      // A home folder's tilde is the URL's to expand.
      return URL(fileURLWithPath: documentPath).standardizedFileURL.deletingLastPathComponent().path
    }
    // The document's own name goes (a path ending in `/` names its last folder, as URLs read it).
    return spelled(components(of: documentPath).dropLast())
  }

  /// `path` absolute, with `.`, `..` and repeated `/` removed, as
  /// `URL(fileURLWithPath:).standardizedFileURL.path` spells it, by string operations.
  static func standardized(_ path: String) -> String {
    if path.hasPrefix("~") { return URL(fileURLWithPath: path).standardizedFileURL.path }
    return spelled(components(of: path)[...])
  }

  /// `/a/b` for `[a, b]`, `/` for none; by appends (`joined` costs a tiny run
  /// its generic metadata the first time it is called).
  private static func spelled(_ parts: ArraySlice<Substring>) -> String {
    if parts.isEmpty { return "/" }
    var path = ""
    for part in parts {
      path.append("/")
      path.append(contentsOf: part)
    }
    return path
  }

  /// The names from the root to `path` (made absolute against the working directory), `.` and `..` applied.
  private static func components(of path: String) -> [Substring] {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var parts: [Substring] = []
    let add = { (part: Substring) in
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
      } else if part != "." {
        parts.append(part)
      }
    }
    guard absolute.utf8.allSatisfy({ $0 < 0x80 }) else {
      // By characters, as before: a `/` with a combining mark after it is no separator.
      for part in absolute.split(separator: "/") { add(part) }
      return parts
    }
    // An ASCII path by bytes (splitting by characters was most of a new folder's search).
    let bytes = absolute.utf8
    var start = bytes.startIndex
    var index = start
    while index != bytes.endIndex {
      if bytes[index] == UInt8(ascii: "/") {
        if index != start { add(absolute[start..<index]) }
        start = bytes.index(after: index)
      }
      index = bytes.index(after: index)
    }
    if start != bytes.endIndex { add(absolute[start...]) }
    return parts
  }

  /// Forgets what was read (the server calls it when a configuration changes).
  public func invalidate() {
    lock.lock()
    byFolder.removeAll()
    bySpelledFolder.removeAll()
    generation.increment()
    lock.unlock()
  }

  /// Every folder looked in so far: a configuration file appearing,
  /// changing or going away in one of them can change what applies.
  public var searchedFolders: [String] {
    lock.lock()
    defer { lock.unlock() }
    return Array(byFolder.keys)
  }

  private func remember(_ folders: [String], _ configuration: Configuration?) {
    lock.lock()
    for folder in folders { byFolder[folder] = .some(configuration) }
    lock.unlock()
  }
}
