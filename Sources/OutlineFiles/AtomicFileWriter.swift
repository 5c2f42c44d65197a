import Foundation
import OutlineCore

/// Writes a file in pieces: nothing appears at the path until ``commit()``;
/// ``discard()`` (or deinit) removes the temporary file.
///
/// - A symbolic link is written through: its final target is replaced and the link stays.
/// - The new file gets the old one's mode and owner; a file without write permission is refused.
/// - Normally the new contents go to a temporary file in the target's folder, flushed, then renamed
///   over it: atomic. A file with several hard links (or whose owner cannot be given to the new
///   file) is instead rewritten in place from the flushed temporary file, so every name sees the
///   new contents; that copy is not atomic, and if it fails the temporary file is kept and named.
/// - Given a ``FileSnapshot``, the commit first checks that the file is still the one read. A
///   writer that rewrites the file in place (`cat x > file`) can still open it between that
///   check and the rename, and would write into a file no name shows any more: so the replaced
///   file is kept under a second name (a hard link) across the rename and checked again after
///   it; if it was written meanwhile, it is renamed back and the commit reports the change.
public final class AtomicFileWriter {
  let path: String
  let target: String
  var temporary: String
  var descriptor: Int32
  let existing: ExistingFile
  let snapshot: FileSnapshot?
  let activity: String
  var failure: Int32?
  /// Whether the temporary file is closed until it is needed again (``park()``).
  var parked = false
  /// How ``prepare()`` found the new contents should appear at the target.
  var installation: Installation?
  /// What ``install(keepingReplaced:)`` keeps, for a group, to put the old file back.
  var kept: Kept?
  /// The file the install put at the target.
  var installed: FileStatus?
  /// For tests: runs between the commit's last check and its rename, where another writer can
  /// still come.
  var beforeRename: (() -> Void)?

  /// Opens a temporary file beside `path`'s final target. `existing` says whether a file already
  /// there may be replaced; `unchangedSince` is the snapshot taken when the file was read (for
  /// commands that rewrite their input; `activity`, e.g. "formatted", names it in the message);
  /// `distinctFrom` is an input the output must not be.
  public init(
    path: String, existing: ExistingFile = .replace, unchangedSince: FileSnapshot? = nil,
    activity: String = "written", distinctFrom input: String? = nil
  ) throws(WriteError) {
    self.path = path
    self.existing = existing
    self.snapshot = unchangedSince
    self.activity = activity
    descriptor = -1
    target = try Self.finalTarget(of: path)
    if existing == .keep && target != path && !AtomicFile.exists(target) {
      // A dangling link is something the user put there: not followed to make a file.
      throw WriteError(
        description: "\(Excerpt.quotedPath(path)) already exists; not replaced", reason: .exists)
    }
    if let status = FileStatus.of(target, followingLinks: false) {
      guard status.isRegularFile else {
        throw WriteError(
          description: "cannot write \(Excerpt.quotedPath(path)): not a regular file", reason: .notRegularFile
        )
      }
      if let input, AtomicFile.sameFile(input, target) {
        throw WriteError(
          description:
            "the output \(Excerpt.quotedPath(path)) is the input \(Excerpt.quotedPath(input)); nothing was written",
          reason: .sameAsInput)
      }
      if existing == .replace { try Self.checkWritable(target, status: status, as: path) }
    } else if errno != ENOENT {
      throw WriteError(description: "cannot write \(Excerpt.quotedPath(path)): \(Self.describe(errno))")
    }
    temporary = ""
    (descriptor, temporary) = try Self.temporaryFile(beside: target, for: path)
  }

  deinit { discard() }

  /// How the new contents appear at the target.
  enum Installation {
    /// Renamed over it, replacing the file `current` (nil: none is there).
    case renaming(replacing: FileStatus?)
    /// Copied into its own inode: it has several hard links, or an owner the new file cannot have.
    case inPlace(FileStatus)
    /// Linked where nothing is (``ExistingFile/keep``).
    case keeping
  }

  /// What puts the old file back after an install.
  enum Kept {
    /// The replaced file under a second name (a hard link): renamed back.
    case replaced(String)
    /// A copy of its contents: renamed back, or copied back into a file written in place.
    case copy(String, inPlace: Bool)
    /// Nothing was there: the new file (this one) is removed.
    case created(FileStatus)
  }

  /// A new file in `target`'s folder, opened, and its path.
  static func temporaryFile(beside target: String, for path: String) throws(WriteError) -> (
    Int32, String
  ) {
    let written = PathText.folder(of: target)
    // A bare name's folder is the current one: named `.` in the message too.
    let folder = written.isEmpty ? "." : written
    let name = (target as NSString).lastPathComponent
    var template = Array("\(folder)/.\(name).tmp-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw WriteError(
        description:
          "cannot write \(InputFile.quoted(path)): \(Self.describe(errno)) (creating a temporary file in \(InputFile.quoted(folder)))"
      )
    }
    return (descriptor, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
  }

  /// Appends `bytes`.
  public func write(_ bytes: [UInt8]) {
    guard failure == nil, unpark(), descriptor >= 0 else { return }
    failure = FileDescriptorIO.writeAll(descriptor, bytes)
  }

  /// Appends `bytes`.
  public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard failure == nil, unpark(), descriptor >= 0 else { return }
    failure = FileDescriptorIO.writeAll(descriptor, bytes)
  }

  /// Closes the temporary file until the writer needs it again (a write, the commit's steps),
  /// which reopens it where it ended: a group of many files (``AtomicFileGroup``, a rename
  /// across a whole project) then holds a descriptor or two at a time, not one a file, and
  /// stays under the process's limit on open files.
  public func park() {
    guard descriptor >= 0, !parked else { return }
    if close(descriptor) != 0 && failure == nil { failure = errno }
    descriptor = -1
    parked = true
  }

  /// Reopens a parked temporary file, positioned at its end; false (the failure noted) when it
  /// cannot be.
  @discardableResult
  func unpark() -> Bool {
    guard parked else { return true }
    let reopened = open(temporary, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard reopened >= 0, lseek(reopened, 0, SEEK_END) >= 0 else {
      if failure == nil { failure = errno }
      if reopened >= 0 { close(reopened) }
      return false
    }
    descriptor = reopened
    parked = false
    return true
  }

  /// Replaces the bytes of `range` in what was written so far with `replacement`: the contents
  /// are copied into a new temporary file beside the first, which is removed (time linear in
  /// what was written; for a change near the start found only at the end).
  public func splice(_ range: Range<Int>, with replacement: [UInt8]) {
    guard failure == nil, unpark(), descriptor >= 0 else { return }
    let size = Int(lseek(descriptor, 0, SEEK_END))
    guard range.lowerBound >= 0, range.upperBound <= size, !range.isEmpty || !replacement.isEmpty else {
      return
    }
    let old = (descriptor, temporary)
    guard let new = try? Self.temporaryFile(beside: target, for: path) else {
      failure = errno == 0 ? EIO : errno
      return
    }
    (descriptor, temporary) = new
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    func copy(_ part: Range<Int>) -> Int32? {
      var offset = part.lowerBound
      while offset < part.upperBound {
        let count = chunk.withUnsafeMutableBytes {
          pread(old.0, $0.baseAddress, min($0.count, part.upperBound - offset), off_t(offset))
        }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return count < 0 ? errno : EIO }
        if let code = chunk.withUnsafeBufferPointer({
          FileDescriptorIO.writeAll(descriptor, UnsafeBufferPointer(rebasing: $0[0..<count]))
        }) {
          return code
        }
        offset += count
      }
      return nil
    }
    failure =
      copy(0..<range.lowerBound) ?? FileDescriptorIO.writeAll(descriptor, replacement)
      ?? copy(range.upperBound..<size)
    close(old.0)
    unlink(old.1)
  }

  /// Empties the temporary file, to write it again from the start.
  public func reset() {
    guard unpark(), descriptor >= 0 else { return }
    if ftruncate(descriptor, 0) != 0 || lseek(descriptor, 0, SEEK_SET) != 0 { failure = errno }
  }

  /// Checks that the target may still be written, then makes the new contents appear at it.
  public func commit() throws(WriteError) {
    try prepare()
    try install(keepingReplaced: false)
  }

  /// Removes the temporary file; the path is untouched.
  public func discard() {
    guard descriptor >= 0 || parked else { return }
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    parked = false
    unlink(temporary)
  }

  // MARK: - Helpers

  /// Discards the temporary file and returns the error to throw.
  func abandon(_ message: String, reason: WriteError.Reason = .system) -> WriteError {
    discard()
    return WriteError(description: message, reason: reason)
  }

  /// The file a path finally names: symbolic links followed one by one (relative ones from their
  /// own folder), at most 40.
  static func finalTarget(of path: String) throws(WriteError) -> String {
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count >= 0 else {
        throw WriteError(description: "cannot write \(Excerpt.quotedPath(path)): \(describe(errno))")
      }
      let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if destination.hasPrefix("/") {
        current = destination
      } else {
        let folder = PathText.folder(of: current)
        current = folder.isEmpty ? destination : folder + "/" + destination
      }
    }
    throw WriteError(description: "cannot write \(Excerpt.quotedPath(path)): \(describe(ELOOP))")
  }

  /// Refuses a file this user may not write, or one with no write permission at all (root
  /// could write it, but its owner said read-only).
  static func checkWritable(_ target: String, status: FileStatus, as path: String) throws(WriteError) {
    if access(target, W_OK) != 0 {
      let code = errno
      if code == EROFS {
        throw WriteError(
          description: "cannot write \(Excerpt.quotedPath(path)): \(describe(code)); not changed")
      }
      throw WriteError(
        description: "\(Excerpt.quotedPath(path)) is read-only; not changed", reason: .readOnly)
    }
    if status.permissions & 0o222 == 0 {
      throw WriteError(
        description: "\(Excerpt.quotedPath(path)) is read-only; not changed", reason: .readOnly)
    }
  }

  static func newFileMode() -> mode_t {
    let mask = umask(0o022)
    umask(mask)
    return 0o666 & ~mask
  }

  static func syncFolder(of target: String) {
    let folder = PathText.folder(of: target)
    let handle = open(folder.isEmpty ? "." : folder, O_RDONLY)
    guard handle >= 0 else { return }
    fsync(handle)
    close(handle)
  }

  static func describe(_ code: Int32) -> String {
    String(decoding: strerrorBytes(code), as: UTF8.self)
  }
}
