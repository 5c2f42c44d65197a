import Foundation

/// The file operations of a cache folder: its index read whole, and written so
/// that a reader sees a whole index or none.
///
/// A file is written to a temporary name in its own folder, then renamed over
/// its final name: two runs sharing the folder each rename a whole file, and a
/// run that stops midway leaves at most a temporary file (named `.tmp-...`,
/// never read, removed by a later run once a day old). Writers take the
/// folder's lock (``withLock(in:_:)``) to merge what another wrote meanwhile.
/// Nothing is synced to disk: a crash may leave a file cut short, which its
/// reader rejects by its checksum.
public enum CacheFolderFiles {
  /// What a cache folder's `.gitignore` holds: everything in it is ignored.
  public static let gitignore = Array("# Made by outline-lint: the lint cache, never committed.\n*\n".utf8)

  /// Makes the folder at `path` (and the folders above it) when missing, with a
  /// `.gitignore` that ignores everything in it; nil when it is there, else why not.
  public static func prepare(_ path: String) -> String? {
    var info = stat()
    if stat(path, &info) != 0 {
      do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      } catch {
        return "cannot make the folder \(InputFile.quoted(path)): \(reason(error))"
      }
    } else if (info.st_mode & S_IFMT) != S_IFDIR {
      return "\(InputFile.quoted(path)) is not a folder"
    }
    let ignore = path + "/.gitignore"
    if stat(ignore, &info) != 0 {
      // A failure here is the entries' failure too, and said there.
      _ = write(gitignore, named: ".gitignore", in: path)
    }
    return nil
  }

  /// The whole file `name` in `folder` when it is a regular file of at most `limit` bytes, else nil.
  public static func read(_ name: String, in folder: String, limit: Int) -> [UInt8]? {
    try? InputFile.read(folder + "/" + name, limit: limit)
  }

  /// The whole file `name` in `folder`: nil when there is none, else its bytes or why they
  /// could not be read (not a regular file, larger than `limit`, an error).
  public static func readIfPresent(_ name: String, in folder: String, limit: Int) -> Result<
    [UInt8], ReadError
  >? {
    let path = folder + "/" + name
    var info = stat()
    if lstat(path, &info) != 0 && errno == ENOENT { return nil }
    do throws(ReadError) {
      return .success(try InputFile.read(path, limit: limit))
    } catch {
      return .failure(error)
    }
  }

  /// The name of a folder's lock file.
  public static let lockName = ".lock"

  /// Runs `body` holding the lock of `folder` (an exclusive `flock` on its lock file), waited
  /// for at most `patience` seconds; without it when it cannot be had (the file cannot be
  /// made, or another holds it that long): the writes stay whole, only a merge may be missed.
  public static func withLock<T>(in folder: String, patience: Double = 5, _ body: () -> T) -> T {
    let descriptor = open(folder + "/" + lockName, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return body() }
    defer { close(descriptor) }
    var waited = 0.0
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, waited < patience else { return body() }
      usleep(10_000)
      waited += 0.01
    }
    defer { flock(descriptor, LOCK_UN) }
    return body()
  }

  /// Removes from `folder` what no reader takes: files named as `isStale` says, and
  /// temporary files (`.tmp-...`) changed more than a day ago (a run that stopped midway).
  public static func removeLeftovers(in folder: String, isStale: (String) -> Bool) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    let dayAgo = time(nil) - 86_400
    for name in names {
      let path = folder + "/" + name
      if isStale(name) {
        unlink(path)
      } else if name.hasPrefix(".tmp-") {
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_mtim.tv_sec < dayAgo {
          unlink(path)
        }
      }
    }
  }

  /// Writes `bytes` as the file `name` in `folder`, replacing any: through a
  /// temporary file renamed over it. Nil when written, else why not.
  public static func write(_ bytes: [UInt8], named name: String, in folder: String) -> String? {
    let temporary = folder + "/.tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))-" + name
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return "cannot write in \(InputFile.quoted(folder)): \(errorText(errno))" }
    let failed = FileDescriptorIO.writeAll(descriptor, bytes)
    let closed = close(descriptor) == 0 ? nil : errno
    if let code = failed ?? closed {
      unlink(temporary)
      return "cannot write in \(InputFile.quoted(folder)): \(errorText(code))"
    }
    guard rename(temporary, folder + "/" + name) == 0 else {
      let code = errno
      unlink(temporary)
      return "cannot write in \(InputFile.quoted(folder)): \(errorText(code))"
    }
    return nil
  }

  private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

  private static func reason(_ error: any Error) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return errorText(Int32(code)) }
    return (error as NSError).localizedDescription
  }
}
