import Foundation
import OutlineCore

/// The steps of a commit: the checks before anything changes, the install, and (for a group)
/// putting the replaced file back or letting it go.
extension AtomicFileWriter {
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
}
