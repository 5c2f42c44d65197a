import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

/// Reading inputs: regular files and standard input only, never past a size limit.
enum FileInput {
  /// The file at `path` (or standard input for `-`), at most `limit` bytes.
  static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
    path == "-" ? try InputFile.readStandardInput(limit: limit) : try InputFile.read(path, limit: limit)
  }
}

/// `--max-size`: the largest input a command reads.
struct InputSize: ExpressibleByArgument {
  /// The limit in bytes.
  var bytes: Int

  init?(argument: String) {
    guard let bytes = ByteCount.parse(argument) else { return nil }
    self.bytes = bytes
  }

  static let help = ArgumentHelp(
    "The largest input read, e.g. 512M or 1G (default: maxSize in .outline.json, else 256M).",
    valueName: "size")
}

extension ConfigurationFinder {
  /// The size limit for the input at `path`: `--max-size`, else the configuration's `maxSize`, else the default.
  func inputLimit(for path: String, maxSize: InputSize?) -> Int {
    if let maxSize { return maxSize.bytes }
    return configuration(for: path == "-" ? "./-" : path)?.maxSize ?? InputFile.defaultLimit
  }
}

/// A path the collection could not take (missing, not a regular file, an unreadable folder, a
/// name that is not UTF-8), and where it stands among the files taken.
struct PathTrouble: Sendable {
  /// The path as shown: as given or found, a name that is not UTF-8 with its bytes escaped
  /// (`bad\xFFname.outline`, ``PathText/displayed(bytes:)``).
  var path: String
  /// The path's own bytes: those of `path`, but for a name that is not UTF-8.
  var bytes: [UInt8]
  /// The one-line message.
  var message: String
  /// How many of the collected files come before it in the run's order (as named, each
  /// folder's files and troubles sorted by the bytes of their paths).
  var position: Int

  init(path: String, bytes: [UInt8]? = nil, message: String, position: Int) {
    self.path = path
    self.bytes = bytes ?? Array(path.utf8)
    self.message = message
    self.position = position
  }
}

/// Expands the paths of a run: files as given, folders searched for `*.outline`.
///
/// Only regular files are taken. In a folder, a symbolic link to a regular
/// file is taken when its target (all links resolved) is inside the folder
/// being searched; links to folders are not followed. With `follow`, links
/// are followed wherever they lead, and each folder is searched once
/// (by device and inode), so a link loop ends. FIFOs, sockets, devices and
/// links to them are passed over; named on the command line, they are trouble.
///
/// A run that writes files (`oncePerFile`) takes each file once, however many names reach it
/// (named twice, a folder and a folder inside it, a link and its target, hard links): by
/// device and inode, under the first name found, so two jobs never rewrite one file through
/// two names (each would find it changed by the other). A run that only reads reports each
/// name it was given or found.
enum FileCollector {
  /// `found` hears each file as soon as it is known, in the order of the
  /// search (a run can start on it); the result is every file in the run's
  /// order: as named, each folder's files sorted.
  static func collect(
    _ paths: [String], configurations: ConfigurationFinder, follow: Bool = false, oncePerFile: Bool = false,
    trouble: (PathTrouble) -> Void, found: (String) -> Void = { _ in }
  ) -> [String] {
    collectWithOrder(
      paths, configurations: configurations, follow: follow, oncePerFile: oncePerFile, trouble: trouble,
      found: found
    ).files
  }

  /// ``collect(_:configurations:follow:trouble:found:)``, with, for each file of the
  /// result, the number of the `found` call that reported it (0 for the first): a run
  /// puts its results in order by these, not by looking each path up.
  static func collectWithOrder(
    _ paths: [String], configurations: ConfigurationFinder, follow: Bool = false, oncePerFile: Bool = false,
    trouble: (PathTrouble) -> Void, found: (String) -> Void = { _ in }
  ) -> (files: [String], reported: [Int]) {
    var files: [String] = []
    var reported: [Int] = []
    var seen = Seen(oncePerFile: oncePerFile)
    // Every file in `files` was reported once, so the count so far numbers the next report.
    for path in paths {
      if path == "-" {
        reported.append(files.count)
        files.append(path)
        found(path)
        continue
      }
      // A name that was not UTF-8 reaches here with U+FFFD in place of its bytes: its own
      // bytes are the process's argument's.
      if path.contains("\u{FFFD}"), let bytes = Self.undecodableArgument(path) {
        let shown = PathText.displayed(bytes: bytes)
        trouble(
          PathTrouble(
            path: shown, bytes: bytes,
            message: fileExists(bytes: bytes)
              ? "cannot read '\(shown)': file names that are not UTF-8 are not supported"
              : "'\(shown)' does not exist",
            position: files.count))
        continue
      }
      var info = stat()
      guard stat(path, &info) == 0 else {
        let code = errno
        trouble(
          PathTrouble(
            path: path,
            message: code == ENOENT && lstat(path, &info) != 0
              ? "\(InputFile.quoted(path)) does not exist" : ReadError(path: path, errno: code).description,
            position: files.count))
        continue
      }
      if (info.st_mode & S_IFMT) != S_IFDIR {
        if let refusal = InputFile.refusal(path) {
          trouble(PathTrouble(path: path, message: refusal.description, position: files.count))
        } else if seen.take(FileID(info), path: path) {
          reported.append(files.count)
          files.append(path)
          found(path)
        }
        continue
      }
      let first = files.count
      let (searched, order, troubles) = search(
        path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), seen: &seen,
        configurations: configurations, follow: follow, found: found)
      files += searched
      reported += order.lazy.map { first + $0 }
      for var found in troubles {
        found.position += first
        trouble(found)
      }
    }
    return (files, reported)
  }

  /// The bytes of the process's argument that is not UTF-8 and reads as `path` with each
  /// sequence that is not UTF-8 replaced by U+FFFD; nil when none does.
  static func undecodableArgument(_ path: String) -> [UInt8]? {
    rawArguments().first { !PathText.isUTF8($0) && String(decoding: $0, as: UTF8.self) == path }
  }

  /// A file or folder by device and inode.
  private struct FileID: Hashable {
    var device: UInt64
    var inode: UInt64

    init(device: UInt64, inode: UInt64) {
      self.device = device
      self.inode = inode
    }

    init(_ info: stat) { self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
  }

  /// The folders searched and the files taken so far: in the run when it takes each file once,
  /// else in the search of one folder named (so that it is searched once).
  private struct Seen {
    let oncePerFile: Bool
    var folders: Set<FileID> = []
    /// Each file taken, under the name it was taken by (only when each file is taken once).
    private var files: [FileID: String] = [:]

    init(oncePerFile: Bool) { self.oncePerFile = oncePerFile }

    /// Whether the file `path`, whose device and inode are `id` (the inode of its folder
    /// entry, for a file a search listed), is to be taken: always, unless each file is taken
    /// once and it was taken already.
    mutating func take(_ id: FileID, path: String) -> Bool {
      guard oncePerFile else { return true }
      guard let earlier = files[id] else {
        files[id] = path
        return true
      }
      // The same numbers are the same file, unless the file system numbers folder entries
      // otherwise than files (an overlay): both are looked at before one is passed over.
      var one = stat()
      var two = stat()
      guard stat(earlier, &one) == 0, stat(path, &two) == 0 else { return true }
      return one.st_dev != two.st_dev || one.st_ino != two.st_ino
    }
  }

  /// The `*.outline` files under `root` (the folder at `device` and `inode`), sorted by the
  /// bytes of their paths, where each came in the order they were reported, and what could not
  /// be taken (an unreadable folder, a name that is not UTF-8) with its place among the files
  /// in that order; explicit stack, each folder and each file once in the run (`seen`).
  private static func search(
    _ root: String, device: UInt64, inode: UInt64, seen: inout Seen, configurations: ConfigurationFinder,
    follow: Bool, found reported: (String) -> Void
  ) -> (files: [String], order: [Int], troubles: [PathTrouble]) {
    if !seen.oncePerFile { seen.folders.removeAll(keepingCapacity: true) }
    guard seen.folders.insert(FileID(device: device, inode: inode)).inserted else { return ([], [], []) }
    let realRoot = ProjectRoot.resolved(root)
    // Each folder with its device: a regular file listed in it is on the same one, so its
    // entry's inode identifies it without a stat.
    var pending = [(root, device)]
    var found: [String] = []
    var troubles: [PathTrouble] = []
    /// A path under `folder`: under `.` (also the path of a run given none), paths are written as
    /// ruff and taplo write them: `notes/a.outline`, not `./notes/a.outline`.
    func joined(_ folder: String, _ name: [UInt8]) -> [UInt8] {
      folder == "." ? name : Array(folder.utf8) + (folder.hasSuffix("/") ? [] : [UInt8(ascii: "/")]) + name
    }
    while let (folder, folderDevice) = pending.popLast() {
      let entries = folderEntries(folder) { name, type in
        let bytes = joined(folder, name)
        let shown = PathText.displayed(bytes: bytes)
        // A folder of such a name cannot be searched: said, as its outlines would go unchecked.
        if type == folderEntryFolder || (type == UInt8(DT_UNKNOWN) && isFolder(bytes: bytes)) {
          if let configuration = configurations.configuration(for: shown),
            configuration.excludes(in: folder, name: name + Array("/_".utf8))
          {
            return
          }
          troubles.append(
            PathTrouble(
              path: shown, bytes: bytes,
              message:
                "cannot search the folder '\(shown)': folder names that are not UTF-8 are not supported",
              position: 0))
          return
        }
        guard name.count > 8, name.suffix(8).elementsEqual(".outline".utf8) else { return }
        // Excluded, it is passed over as any other name would be: matched by its bytes.
        if let configuration = configurations.configuration(for: shown),
          configuration.excludes(in: folder, name: name)
        {
          return
        }
        troubles.append(
          PathTrouble(
            path: shown, bytes: bytes,
            message: "cannot read '\(shown)': file names that are not UTF-8 are not supported", position: 0))
      }
      guard let entries else {
        let reason = String(cString: strerror(errno))
        troubles.append(
          PathTrouble(
            path: folder, message: "cannot read the folder \(InputFile.quoted(folder)): \(reason)",
            position: 0))
        continue
      }
      for (name, kind, entryInode) in entries {
        // A regular file, as the folder says: taken or passed over by its name, with no stat.
        if kind == folderEntryRegular && !name.hasSuffix(".outline") { continue }
        let full = String(decoding: joined(folder, Array(name.utf8)), as: UTF8.self)
        if kind == folderEntryRegular {
          if let configuration = configurations.configuration(for: full), configuration.excludes(full) {
            continue
          }
          guard seen.take(FileID(device: folderDevice, inode: entryInode), path: full) else { continue }
          found.append(full)
          reported(full)
          continue
        }
        var info = stat()
        guard lstat(full, &info) == 0 else {
          // Gone since the folder was listed: passed over. Anything else (a path longer than
          // the system allows) is said when it is a folder or an outline, which would
          // otherwise go unchecked without a word.
          let failure = errno
          let isFolder = kind == folderEntryFolder
          if failure != ENOENT, isFolder || kind == UInt8(DT_UNKNOWN) || name.hasSuffix(".outline") {
            let what = isFolder ? "search the folder" : "read"
            troubles.append(
              PathTrouble(
                path: full,
                message: "cannot \(what) \(InputFile.quoted(full)): \(String(cString: strerror(failure)))",
                position: 0))
          }
          continue
        }
        var type = info.st_mode & S_IFMT
        if type == S_IFLNK {
          // A dangling link, a link loop or a link to something unreadable is passed over.
          guard stat(full, &info) == 0 else { continue }
          type = info.st_mode & S_IFMT
          if type == S_IFDIR && !follow { continue }
          if type == S_IFREG && !follow && !ProjectRoot.contains(realRoot, ProjectRoot.resolved(full)) {
            continue
          }
        }
        if type == S_IFDIR {
          if seen.folders.insert(FileID(info)).inserted {
            pending.append((full, UInt64(info.st_dev)))
          }
        } else if type == S_IFREG && name.hasSuffix(".outline") {
          if let configuration = configurations.configuration(for: full), configuration.excludes(full) {
            continue
          }
          guard seen.take(FileID(info), path: full) else { continue }
          found.append(full)
          reported(full)
        }
      }
    }
    // In the order of the paths' bytes, troubles among the files.
    let keys = found.map { Array($0.utf8) }
    let order = found.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }
    let sortedKeys = order.map { keys[$0] }
    troubles.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    for index in troubles.indices {
      let bytes = troubles[index].bytes
      troubles[index].position = Partition.point(sortedKeys.count) {
        sortedKeys[$0].lexicographicallyPrecedes(bytes)
      }
    }
    return (order.map { found[$0] }, order, troubles)
  }
}

/// Runs work over items on several threads, keeping results in input order.
enum ParallelMap {
  static func map<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ body: @Sendable (T) -> R) -> [R] {
    if jobs <= 1 || items.count <= 1 { return items.map(body) }
    let results = ResultSlots<R>(count: items.count)
    let next = AtomicCounter()
    DispatchQueue.concurrentPerform(iterations: min(jobs, items.count)) { _ in
      while true {
        let index = next.increment()
        if index >= items.count { return }
        results.set(index, body(items[index]))
      }
    }
    return results.values()
  }
}

/// Runs work over items on several threads as a producer finds them (a
/// folder's search), while it is still finding more: a shared queue the
/// threads take from one at a time, so a thread never waits on another's share.
enum StreamingMap {
  /// Runs `body` on up to `jobs` threads (one for each item emitted, at most
  /// ``maximumWorkers``) over every item `produce` emits, as soon as it is
  /// emitted, the calling thread joining them once `produce` is done; returns what `produce` returns (the items in the order
  /// wanted, each emitted once for each time it appears) with each one's result.
  static func map<R: Sendable>(
    jobs: Int, produce: (_ emit: (String) -> Void) -> [String], _ body: @escaping @Sendable (String) -> R
  ) -> (items: [String], results: [R]) {
    withoutActuallyEscaping(produce) { produce in run(jobs: jobs, produce: { (produce($0), nil) }, body) }
  }

  /// ``map(jobs:produce:_:)`` where `produce` also says, for each item it returns, the
  /// number of the `emit` call that gave it (0 for the first): the results are put in
  /// that order by these numbers, with no lookup of the items.
  static func mapInOrder<R: Sendable>(
    jobs: Int, produce: (_ emit: (String) -> Void) -> (items: [String], emitted: [Int]),
    _ body: @escaping @Sendable (String) -> R
  ) -> (items: [String], results: [R]) {
    withoutActuallyEscaping(produce) { produce in
      // The same numbers, as the optional `run` takes.
      run(jobs: jobs, produce: { emit in produce(emit) as ([String], [Int]?) }, body)
    }
  }

  /// The most threads a run starts, whatever `--jobs` says: past a few hundred they only
  /// contend for the cores, and Linux refuses a thread somewhere past 32,000.
  static let maximumWorkers = 256

  private static func run<R: Sendable>(
    jobs: Int, produce: (_ emit: (String) -> Void) -> (items: [String], emitted: [Int]?),
    _ body: @escaping @Sendable (String) -> R
  ) -> (items: [String], results: [R]) {
    let queue = WorkQueue()
    let results = HandedResults<R>()
    let finished = DispatchGroup()
    let limit = min(max(1, jobs), maximumWorkers)
    var started = 0
    /// Takes items until the queue is closed and empty, handing the results over once at the end.
    @Sendable func work() {
      // Each thread keeps its results and hands them over once at its end: a lock and a
      // shared array written for every item moved their cache lines between the cores.
      var mine: [(index: Int, result: R)] = []
      while let (index, item) = queue.take() { mine.append((index, body(item))) }
      results.hand(mine)
    }
    let (items, given) = produce { item in
      queue.put(item)
      // A thread for each item found, up to the limit: never more threads than items.
      guard started < limit else { return }
      started += 1
      Thread {
        // Entered before its first take: an item this thread takes is waited for. A thread
        // that never starts (Linux refusing one fails silently) is never waited for.
        finished.enter()
        work()
        finished.leave()
      }.start()
    }
    let emitted = queue.close()
    // This thread takes what is left too, so the run ends even when no thread could start.
    work()
    finished.wait()
    let order = given ?? Self.order(of: items, emitted: emitted)
    // Each result is moved, never copied (copying and freeing ten thousand results was
    // most of the time the run spent on one core after the threads were done).
    var all = results.take(count: emitted.count)
    var ordered: [R] = []
    ordered.reserveCapacity(items.count)
    for index in order { ordered.append(all[index].take()!) }
    return (items, ordered)
  }

  /// For each of `items`, the index in `emitted` of its next occurrence.
  private static func order(of items: [String], emitted: [String]) -> [Int] {
    // Per item its first emitted index, and per index the item's next one (an item named
    // twice is emitted twice): no array made for each item.
    var first: [String: Int] = [:]
    first.reserveCapacity(emitted.count)
    var next = [Int](repeating: -1, count: emitted.count)
    for (index, item) in emitted.enumerated().reversed() {
      if let later = first.updateValue(index, forKey: item) { next[index] = later }
    }
    return items.map { advance(&first[$0]!, next) }
  }

  /// The index `slot` holds, leaving it at the next one.
  private static func advance(_ slot: inout Int, _ next: [Int]) -> Int {
    let index = slot
    slot = next[index]
    return index
  }
}

/// Items put by one thread and taken by several, each once, in order.
final class WorkQueue: @unchecked Sendable {
  private var items: [String] = []
  private var next = 0
  private var closed = false
  private let condition = NSCondition()

  func put(_ item: String) {
    condition.lock()
    items.append(item)
    condition.signal()
    condition.unlock()
  }

  /// Ends the queue; every item put, in order.
  func close() -> [String] {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
    return items
  }

  /// The next item and its index, waiting for one; nil once the queue is closed and empty.
  func take() -> (Int, String)? {
    condition.lock()
    defer { condition.unlock() }
    while next == items.count && !closed { condition.wait() }
    guard next < items.count else { return nil }
    next += 1
    return (next - 1, items[next - 1])
  }
}

/// Results by index, handed over by several threads (each its own, once), the count not known in advance.
final class HandedResults<R: Sendable>: @unchecked Sendable {
  private var handed: [[(index: Int, result: R)]] = []
  private let lock = NSLock()
  /// One thread's results, each with its index.
  func hand(_ results: [(index: Int, result: R)]) {
    lock.lock()
    handed.append(results)
    lock.unlock()
  }
  /// The results of indexes `0..<count`, every one handed over, moved out by index.
  func take(count: Int) -> [R?] {
    lock.lock()
    var all = handed
    handed = []
    lock.unlock()
    var slots = [R?](repeating: nil, count: count)
    // Popped, so each result is moved into its slot, not copied and released.
    while var results = all.popLast() {
      while let (index, result) = results.popLast() { slots[index] = result }
    }
    return slots
  }
}

final class ResultSlots<R: Sendable>: @unchecked Sendable {
  private var slots: [R?]
  private let lock = NSLock()
  init(count: Int) { slots = Array(repeating: nil, count: count) }
  func set(_ index: Int, _ value: R) {
    lock.lock()
    slots[index] = value
    lock.unlock()
  }
  func values() -> [R] { slots.map { $0! } }
}

final class AtomicCounter: @unchecked Sendable {
  private var value = 0
  private let lock = NSLock()
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value - 1
  }
}

/// A progress line on standard error, only when it is a terminal: files
/// done of all for a run over many files, bytes read for one large file.
final class Progress: @unchecked Sendable {
  /// Runs over more files than this show progress.
  static let manyFiles = 20
  /// A single file at least this large shows progress.
  static let largeFile = 16 << 20

  private let total: Int
  private let enabled: Bool
  private var done = 0
  private var lastDrawn = Date.distantPast
  private let lock = NSLock()

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  /// Whether a run over `files` shows progress: stderr is a terminal, and
  /// there are many files or one large one.
  static func wanted(for files: [String]) -> (files: Bool, bytes: Bool) {
    guard Terminal.stderrIsTerminal else { return (false, false) }
    if files.count > manyFiles { return (true, false) }
    var info = stat()
    let large =
      files.count == 1 && files[0] != "-" && stat(files[0], &info) == 0 && Int(info.st_size) >= largeFile
    return (false, large)
  }

  func advance() {
    guard enabled else { return }
    lock.lock()
    done += 1
    draw("linting \(done)/\(total)", last: done == total)
    lock.unlock()
  }

  /// One large file: `linting big.outline 42% (108/256 MB)`.
  func bytes(_ path: String, read: Int, size: Int) {
    guard enabled, size > 0 else { return }
    lock.lock()
    draw(
      "linting \(path) \(read * 100 / size)% (\(read >> 20)/\(size >> 20) MB)", last: read >= size)
    lock.unlock()
  }

  private func draw(_ line: String, last: Bool) {
    let now = Date()
    if now.timeIntervalSince(lastDrawn) > 0.1 || last {
      lastDrawn = now
      Terminal.write("\r\u{1B}[K" + line, to: 2)
    }
  }

  func finish() {
    if enabled { Terminal.write("\r\u{1B}[K", to: 2) }
  }
}
/// How a path the tool found itself (a configuration file, found upward from a document as an
/// absolute path) is shown: relative to the working folder when it lies inside it, as the
/// documents the user named are (`.outline.json:1:11`, and a relative SARIF `uri`).
enum DisplayPath {
  private static let workingFolder: String = {
    let folder = FileManager.default.currentDirectoryPath
    return folder.hasSuffix("/") ? folder : folder + "/"
  }()

  static func of(_ path: String) -> String {
    guard path.hasPrefix("/"), path.hasPrefix(workingFolder), path.count > workingFolder.count else {
      return path
    }
    return String(path.dropFirst(workingFolder.count))
  }
}

/// Configuration problems for commands that print no report of their own (fmt, convert, export).
enum ConfigurationProblems {
  private static let reported = ReportedPaths()

  /// Prints the problems of `configuration` on standard error, once per file
  /// and run, as `path:line:col: error[OC100]: ...`; whether it has any.
  static func report(_ configuration: Configuration?) -> Bool {
    guard let configuration, !configuration.diagnostics.isEmpty else { return false }
    if reported.insert(configuration.path) {
      Terminal.write(
        TextFormat.render([
          FileReport(
            path: DisplayPath.of(configuration.path), source: configuration.source,
            diagnostics: configuration.diagnostics)
        ]), to: 2)
    }
    return true
  }
}

/// A set of paths shared by threads.
final class ReportedPaths: @unchecked Sendable {
  private var paths: Set<String> = []
  private let lock = NSLock()

  /// Adds `path`; whether it was new.
  func insert(_ path: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return paths.insert(path).inserted
  }
}
