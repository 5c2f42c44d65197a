import Foundation

/// The file operations of a cache folder: small entries read whole, and written
/// so that a reader sees a whole entry or none.
///
/// An entry is written to a temporary name in its own folder, then renamed over
/// its final name: two runs sharing the folder each rename a whole file, the
/// last one wins, and a run that stops midway leaves at most a temporary file
/// (named `.tmp-...`, never read as an entry). Nothing is synced to disk: a
/// crash may leave an entry cut short, which its reader rejects by its checksum.
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
