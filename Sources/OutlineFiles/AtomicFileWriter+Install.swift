import Foundation
import OutlineCore

/// The three ways new contents reach the target: a rename over it, a new file kept from being
/// replaced, or a copy in place; and the backups that let a group put the old file back.
extension AtomicFileWriter {
  /// Rename over the target: atomic. The flush took time, during which another writer may have
  /// come: the target must still be `current` right before the rename, and (for a file that was
  /// read, or one a group may put back) the replaced file is kept under a second name across it.
  func installRenaming(replacing current: FileStatus?, keep: Bool) throws(WriteError) {
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
  func installKeeping(keep: Bool) throws(WriteError) {
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
  func installInPlace(_ current: FileStatus, keep: Bool) throws(WriteError) {
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
  static func copyBack(_ old: String, into target: String) -> Int32? {
    let source = open(old, O_RDONLY)
    guard source >= 0 else { return errno }
    defer { close(source) }
    let file = open(target, O_WRONLY | O_NOFOLLOW)
    guard file >= 0 else { return errno }
    defer { close(file) }
    return FileDescriptorIO.copy(from: source, to: file, size: Int64(lseek(source, 0, SEEK_END)))
  }
}
