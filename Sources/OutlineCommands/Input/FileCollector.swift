import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

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
    let order = found.indices.sorted { SystemNames.precedes(keys[$0], keys[$1]) }
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
