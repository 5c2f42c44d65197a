import Foundation

/// Temporary files and folders for tests, none of them left behind.
///
/// Everything a test process makes lives under one folder of its own,
/// `$TMPDIR/outline-tests.PID`, removed when the process exits. A run that
/// died before it could (a crash, a kill at a time limit) leaves a folder
/// whose process is gone, and the next test process removes it. Test folders
/// used to be left in the temporary folder one by one, and a runner's disk
/// filled with them.
public enum Scratch {
  /// The name every process folder starts with.
  static let stem = "outline-tests."

  /// This process's folder, made (and the leftovers of dead runs removed)
  /// on first use; removed at exit.
  public static let root: String = {
    let base = temporaryBase()
    sweep(base)
    let path = "\(base)/\(stem)\(getpid())"
    remove(path)
    mkdir(path, 0o755)  // tests that run as nobody go through it
    atexit { Scratch.remove(Scratch.root) }
    return path
  }()

  /// A fresh path under this process's folder, `prefix-UUID` then `suffix`; not created.
  public static func url(_ prefix: String, suffix: String = "") -> URL {
    URL(fileURLWithPath: path(prefix, suffix: suffix))
  }

  /// A fresh path under this process's folder, `prefix-UUID` then `suffix`; not created.
  public static func path(_ prefix: String, suffix: String = "") -> String {
    "\(root)/\(prefix)-\(UUID().uuidString)\(suffix)"
  }

  /// A fresh folder under this process's folder, created.
  public static func folder(_ prefix: String) throws -> URL {
    let url = url(prefix)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The temporary folder, without a trailing slash.
  static func temporaryBase() -> String {
    var base = NSTemporaryDirectory()
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    return base
  }

  /// Removes the folders of test processes that are gone, and the loose
  /// test folders older versions of the tests left (`outline-tests-UUID`,
  /// older than an hour), when they belong to this user.
  static func sweep(_ base: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
    let hourAgo = time(nil) - 3600
    for name in names where name.hasPrefix("outline-tests") {
      let path = "\(base)/\(name)"
      var status = stat()
      guard lstat(path, &status) == 0, status.st_uid == getuid(),
        (status.st_mode & S_IFMT) == S_IFDIR
      else { continue }
      if name.hasPrefix(stem) {
        guard let pid = pid_t(name.dropFirst(stem.count)), pid != getpid() else { continue }
        if kill(pid, 0) == 0 || errno != ESRCH { continue }
      } else {
        let rest = name.dropFirst("outline-tests-".count)
        guard name.hasPrefix("outline-tests-"), UUID(uuidString: String(rest)) != nil,
          status.st_mtim.tv_sec < hourAgo
        else { continue }
      }
      remove(path)
    }
  }

  /// Removes `path` and everything under it, as far as it can: folders a
  /// test made read-only or unreadable are opened up first, symbolic links
  /// are removed and never followed, names need not be UTF-8, and a mount
  /// left behind is taken off (detached) where this process may, and never
  /// entered otherwise. An explicit stack, not recursion.
  public static func remove(_ path: String) {
    var top = stat()
    guard lstat(path, &top) == 0 else { return }
    guard (top.st_mode & S_IFMT) == S_IFDIR else {
      unlink(path)
      return
    }
    // Paths as NUL-terminated bytes. Each folder is pushed once to list
    // it, and again (listed) to remove it once it is empty.
    var stack: [(path: [CChar], listed: Bool)] = [(Array(path.utf8CString), false)]
    while let (folder, listed) = stack.popLast() {
      if listed {
        rmdir(folder)
        continue
      }
      chmod(folder, 0o700)
      stack.append((folder, true))
      guard let directory = opendir(folder) else { continue }
      while let entry = readdir(directory) {
        var child = folder.dropLast()  // the NUL
        child.append(CChar(UInt8(ascii: "/")))
        let named = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          raw.prefix(while: { $0 != 0 }).map { CChar(bitPattern: $0) }
        }
        if named == [46] || named == [46, 46] { continue }
        child.append(contentsOf: named)
        child.append(0)
        let path = Array(child)
        var status = stat()
        guard lstat(path, &status) == 0 else { continue }
        if (status.st_mode & S_IFMT) == S_IFDIR {
          // A mount a test left (tests of full disks mount a tmpfs): taken off first.
          #if os(Linux)
            if status.st_dev != top.st_dev && umount2(path, Int32(MNT_DETACH)) == 0 {
              _ = lstat(path, &status)
            }
          #endif
          if status.st_dev == top.st_dev { stack.append((path, false)) }
        } else {
          unlink(path)
        }
      }
      closedir(directory)
    }
  }
}
