import Foundation
import OutlineCore

// One job, one type: the writer's steps (prepare, install by rename or in place, keep and
// check the replaced file, restore) share its state, so it stays whole past 500 lines.

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
  private let path: String
  private let target: String
  private var temporary: String
  private var descriptor: Int32
  private let existing: ExistingFile
  private let snapshot: FileSnapshot?
  private let activity: String
  private var failure: Int32?
  /// Whether the temporary file is closed until it is needed again (``park()``).
  private var parked = false
  /// How ``prepare()`` found the new contents should appear at the target.
  private var installation: Installation?
  /// What ``install(keepingReplaced:)`` keeps, for a group, to put the old file back.
  private var kept: Kept?
  /// The file the install put at the target.
  private var installed: FileStatus?
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
  private enum Installation {
    /// Renamed over it, replacing the file `current` (nil: none is there).
    case renaming(replacing: FileStatus?)
    /// Copied into its own inode: it has several hard links, or an owner the new file cannot have.
    case inPlace(FileStatus)
    /// Linked where nothing is (``ExistingFile/keep``).
    case keeping
  }

  /// What puts the old file back after an install.
  private enum Kept {
    /// The replaced file under a second name (a hard link): renamed back.
    case replaced(String)
    /// A copy of its contents: renamed back, or copied back into a file written in place.
    case copy(String, inPlace: Bool)
    /// Nothing was there: the new file (this one) is removed.
    case created(FileStatus)
  }

  /// A new file in `target`'s folder, opened, and its path.
  private static func temporaryFile(beside target: String, for path: String) throws(WriteError) -> (
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
  private func unpark() -> Bool {
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

  // MARK: - The steps of a commit

  /// Every check a commit makes before it changes anything: what was written reached the
  /// temporary file, the target is still the one read, it may be written and (unless it is
  /// written in place) so may its folder; then the temporary file is given its mode and owner
  /// and flushed. Nothing at the path changes.
  func prepare() throws(WriteError) {
    let wasParked = parked
    // A parked writer is parked again once prepared: a group prepares every file first.
    defer { if wasParked && installation != nil { park() } }
    unpark()
    guard descriptor >= 0 else {
      if let failure { throw abandon("cannot write \(Excerpt.quotedPath(path)): \(Self.describe(failure))") }
      throw WriteError(description: "cannot write \(Excerpt.quotedPath(path)): already closed")
    }
    if let failure { throw abandon("cannot write \(Excerpt.quotedPath(path)): \(Self.describe(failure))") }
    let current = FileStatus.of(target, followingLinks: false)
    if let snapshot, current.map({ !snapshot.matches($0, at: target) }) ?? true {
      throw abandon(
        "\(Excerpt.quotedPath(path)) changed while being \(activity); run again", reason: .changed)
    }
    if existing == .replace, let current {
      do throws(WriteError) {
        try Self.checkWritable(target, status: current, as: path)
      } catch {
        discard()
        throw error
      }
    }
    var way = Installation.keeping
    var mode = Self.newFileMode()
    if existing == .replace, let current {
      var mine = stat()
      let needsOwner =
        fstat(descriptor, &mine) == 0 && (mine.st_uid != current.owner || mine.st_gid != current.group)
      let owned = !needsOwner || fchown(descriptor, current.owner, current.group) == 0
      way = current.links > 1 || !owned ? .inPlace(current) : .renaming(replacing: current)
      mode = current.permissions
    } else if existing == .replace {
      way = .renaming(replacing: nil)
    }
    if case .inPlace = way {
      if fsync(descriptor) != 0 {
        throw abandon("cannot write \(Excerpt.quotedPath(path)): \(Self.describe(errno))")
      }
    } else {
      let written = PathText.folder(of: target)
      let folder = written.isEmpty ? "." : written
      if access(folder, W_OK) != 0 {
        throw abandon(
          "cannot write \(InputFile.quoted(path)): \(Self.describe(errno)) (replacing it in \(InputFile.quoted(folder)))"
        )
      }
      if fchmod(descriptor, mode) != 0 || fsync(descriptor) != 0 {
        throw abandon("cannot write \(Excerpt.quotedPath(path)): \(Self.describe(errno))")
      }
    }
    installation = way
  }

  /// Makes the prepared contents appear at the target. `keepingReplaced` (for ``AtomicFileGroup``)
  /// keeps what ``restore()`` needs to put the old file back, until ``settle()``.
  func install(keepingReplaced keep: Bool) throws(WriteError) {
    guard unpark() else {
      throw abandon("cannot write \(Excerpt.quotedPath(path)): \(Self.describe(failure ?? EIO))")
    }
    switch installation {
    case .renaming(let current)?: try installRenaming(replacing: current, keep: keep)
    case .inPlace(let current)?: try installInPlace(current, keep: keep)
    case .keeping?: try installKeeping(keep: keep)
    case nil: throw abandon("cannot write \(Excerpt.quotedPath(path)): not prepared")
    }
  }

  /// Puts back the file ``install(keepingReplaced:)`` replaced (a later file of the group
  /// failed): nil when it is back (or nothing was there and the new file is gone), else why not
  /// and where the old contents are.
  func restore() -> String? {
    guard let kept else { return nil }
    self.kept = nil
    let now = FileStatus.of(target, followingLinks: false)
    let ours =
      now != nil && installed != nil && now!.device == installed!.device && now!.inode == installed!.inode
    switch kept {
    case .replaced(let old), .copy(let old, inPlace: false):
      if ours && rename(old, target) == 0 {
        Self.syncFolder(of: target)
        return nil
      }
      let why = ours ? Self.describe(errno) : "another file is there now"
      return
        "\(Excerpt.quotedPath(path)) could not be put back (\(why)); its old contents are in \(Excerpt.quotedPath(old))"
    case .copy(let old, inPlace: true):
      if let code = Self.copyBack(old, into: target) {
        return
          "\(Excerpt.quotedPath(path)) could not be put back (\(Self.describe(code))); its old contents are in \(Excerpt.quotedPath(old))"
      }
      unlink(old)
      return nil
    case .created:
      if ours { unlink(target) }
      Self.syncFolder(of: target)
      return nil
    }
  }

  /// Drops what ``install(keepingReplaced:)`` kept to put the old file back: the group is in.
  func settle() {
    switch kept {
    case .replaced(let old)?, .copy(let old, _)?: unlink(old)
    case .created?, nil: break
    }
    kept = nil
  }

  // MARK: - The three ways in

  /// Rename over the target: atomic. The flush took time, during which another writer may have
  /// come: the target must still be `current` right before the rename, and (for a file that was
  /// read, or one a group may put back) the replaced file is kept under a second name across it.
  private func installRenaming(replacing current: FileStatus?, keep: Bool) throws(WriteError) {
    let guardPath = temporary + "-replaced"
    var guarded = false
    if let current, snapshot != nil || keep {
      // The link moves the file's change time; its other stamps must still be `current`'s.
      guarded = link(target, guardPath) == 0
      let now = FileStatus.of(target, followingLinks: false)
      let unchanged = guarded ? now?.sameWriteStamp(as: current) : now?.sameContentStamp(as: current)
      if unchanged != true {
        if guarded { unlink(guardPath) }
        throw abandon(
          "\(Excerpt.quotedPath(path)) changed while being \(activity); run again", reason: .changed)
      }
      // A file system without hard links: a copy of the old contents to put back.
      if keep && !guarded { kept = .copy(try backup(current), inPlace: false) }
    }
    let mine = FileStatus.of(descriptor: descriptor)
    beforeRename?()
    let closed = close(descriptor)
    descriptor = -1
    if closed != 0 || rename(temporary, target) != 0 {
      let code = errno
      unlink(temporary)
      if guarded { unlink(guardPath) }
      settle()
      throw WriteError(description: "cannot write \(Excerpt.quotedPath(path)): \(Self.describe(code))")
    }
    installed = mine
    if guarded {
      if snapshot != nil { try checkReplaced(keptAt: guardPath, replacedBy: mine) }
      if keep { kept = .replaced(guardPath) } else { unlink(guardPath) }
    } else if keep && current == nil, let mine {
      kept = .created(mine)
    }
    Self.syncFolder(of: target)
  }

  /// After the rename: the replaced file, kept at `guardPath`, must not have been written since
  /// the last check (by a writer that opened it just before the rename). If it was, it goes back
  /// to the path, unless the path no longer shows this writer's file (`mine`: a third writer came
  /// there too, and keeps it), and the commit reports the change.
  private func checkReplaced(keptAt guardPath: String, replacedBy mine: FileStatus?) throws(WriteError) {
    if let snapshot, let replaced = FileStatus.of(guardPath, followingLinks: false),
      snapshot.stillHolds(replaced, at: guardPath)
    {
      return
    }
    let now = FileStatus.of(target, followingLinks: false)
    let ours = now != nil && mine != nil && now!.device == mine!.device && now!.inode == mine!.inode
    if ours && rename(guardPath, target) == 0 {
      Self.syncFolder(of: target)
    } else {
      unlink(guardPath)
    }
    throw WriteError(
      description: "\(Excerpt.quotedPath(path)) changed while being \(activity); run again", reason: .changed)
  }

  /// Appears only where nothing is (a hard link of the temporary file, which fails if a file came
  /// meanwhile); a file already there holding the same bytes is left as it is.
  private func installKeeping(keep: Bool) throws(WriteError) {
    let code = link(temporary, target) == 0 ? 0 : errno
    if code == 0 {
      if keep, let mine = FileStatus.of(descriptor: descriptor) {
        installed = mine
        kept = .created(mine)
      }
      discard()
      Self.syncFolder(of: target)
      return
    }
    if code == EEXIST {
      if FileStatus.contents(of: target, equalTo: descriptor) {
        discard()
        return
      }
      throw abandon("\(Excerpt.quotedPath(path)) already exists; not replaced", reason: .exists)
    }
    throw abandon("cannot write \(Excerpt.quotedPath(path)): \(Self.describe(code))")
  }

  /// Copies the flushed temporary file into the target's own inode, so its hard links and owner
  /// stay. Space for a longer file is reserved first; a failure during the copy keeps the
  /// temporary file (the complete new contents) and says where it is, unless a group kept a
  /// copy of the old contents: those are copied back.
  private func installInPlace(_ current: FileStatus, keep: Bool) throws(WriteError) {
    let file = open(target, O_WRONLY | O_NOFOLLOW)
    guard file >= 0 else {
      let code = errno
      throw abandon(
        "\(Excerpt.quotedPath(path)) \(code == EACCES ? "is read-only" : "cannot be opened: \(Self.describe(code))"); not changed",
        reason: code == EACCES ? .readOnly : .system)
    }
    defer { close(file) }
    guard let opened = FileStatus.of(descriptor: file), opened.sameContentStamp(as: current) else {
      throw abandon(
        "\(Excerpt.quotedPath(path)) changed while being \(activity); run again", reason: .changed)
    }
    let old = keep ? try backup(current) : nil
    let size = Int64(lseek(descriptor, 0, SEEK_END))
    if let code = FileDescriptorIO.reserve(file, from: Int64(current.size), to: size) {
      if let old { unlink(old) }
      throw abandon("cannot write \(Excerpt.quotedPath(path)): \(Self.describe(code)); not changed")
    }
    if let code = FileDescriptorIO.copy(from: descriptor, to: file, size: size) {
      if let old, Self.copyBack(old, into: target) == nil {
        unlink(old)
        throw abandon("cannot write \(Excerpt.quotedPath(path)): \(Self.describe(code)); not changed")
      }
      let kept = temporary
      close(descriptor)
      descriptor = -1
      throw WriteError(
        description:
          "cannot write \(Excerpt.quotedPath(path)): \(Self.describe(code)); it may be incomplete: its new contents are in \(Excerpt.quotedPath(kept))"
      )
    }
    installed = FileStatus.of(descriptor: file)
    if let old { kept = .copy(old, inPlace: true) }
    discard()
  }

  /// A copy of the target's contents (`current`: its status) in a new file beside it, flushed,
  /// with its mode and (where it can be given) owner: what a group puts back. Its path.
  private func backup(_ current: FileStatus) throws(WriteError) -> String {
    let source = open(target, O_RDONLY | O_NOFOLLOW)
    guard source >= 0 else {
      throw abandon(
        "cannot write \(Excerpt.quotedPath(path)): \(Self.describe(errno)) (keeping a copy of it); not changed"
      )
    }
    defer { close(source) }
    let copy: (descriptor: Int32, path: String)
    do throws(WriteError) {
      copy = try Self.temporaryFile(beside: target, for: path)
    } catch {
      discard()
      throw error
    }
    defer { close(copy.descriptor) }
    _ = fchown(copy.descriptor, current.owner, current.group)
    if let code = FileDescriptorIO.copy(from: source, to: copy.descriptor, size: Int64(current.size))
      ?? (fchmod(copy.descriptor, current.permissions) == 0 ? nil : errno)
    {
      unlink(copy.path)
      throw abandon(
        "cannot write \(Excerpt.quotedPath(path)): \(Self.describe(code)) (keeping a copy of it); not changed"
      )
    }
    return copy.path
  }

  /// Copies the file at `old` over the contents of `target` in place; the errno of a failure, or nil.
  private static func copyBack(_ old: String, into target: String) -> Int32? {
    let source = open(old, O_RDONLY)
    guard source >= 0 else { return errno }
    defer { close(source) }
    let file = open(target, O_WRONLY | O_NOFOLLOW)
    guard file >= 0 else { return errno }
    defer { close(file) }
    return FileDescriptorIO.copy(from: source, to: file, size: Int64(lseek(source, 0, SEEK_END)))
  }

  // MARK: - Helpers

  /// Discards the temporary file and returns the error to throw.
  private func abandon(_ message: String, reason: WriteError.Reason = .system) -> WriteError {
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
  private static func checkWritable(_ target: String, status: FileStatus, as path: String) throws(WriteError)
  {
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

  private static func newFileMode() -> mode_t {
    let mask = umask(0o022)
    umask(mask)
    return 0o666 & ~mask
  }

  private static func syncFolder(of target: String) {
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
