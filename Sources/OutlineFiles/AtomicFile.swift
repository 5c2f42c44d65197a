import Foundation
import OutlineCore

/// Why a write failed; the original file is untouched (unless the message says otherwise).
public struct WriteError: Error, CustomStringConvertible, Sendable {
  /// The kinds of refusal a command may answer differently (e.g. suggest `--force`).
  public enum Reason: Equatable, Sendable {
    /// The file has no write permission for this user (or none at all); it was not replaced.
    case readOnly
    /// A file the caller asked to keep is already there with other contents.
    case exists
    /// The file is no longer the one that was read (another writer came first).
    case changed
    /// The output is the input (the same file, through links or not).
    case sameAsInput
    /// The path names something that is not a regular file (a folder, a device, a FIFO).
    case notRegularFile
    /// The system refused: permissions, a full disk, a read-only file system...
    case system
  }

  /// What failed, naming the path.
  public let description: String
  /// What kind of failure it is.
  public let reason: Reason

  /// A failure described by `description`.
  public init(description: String, reason: Reason = .system) {
    self.description = description
    self.reason = reason
  }
}

/// What a writer does about a file already at its path.
public enum ExistingFile: Sendable {
  /// Replace it (through links, keeping its mode, owner and hard links): the user named the path,
  /// or the command rewrites its input by design.
  case replace
  /// Keep it: refuse (``WriteError/Reason/exists``) unless it already holds exactly the new bytes.
  case keep
}

/// Writes files so that a reader, or a crash, sees the old file or the new one, never a mix.
public enum AtomicFile {
  /// Writes `bytes` to `path` with ``AtomicFileWriter``.
  public static func write(
    _ bytes: [UInt8], to path: String, existing: ExistingFile = .replace, unchangedSince: FileSnapshot? = nil,
    activity: String = "written"
  ) throws(WriteError) {
    let writer = try AtomicFileWriter(
      path: path, existing: existing, unchangedSince: unchangedSince, activity: activity)
    writer.write(bytes)
    try writer.commit()
  }

  /// Whether something (a file, a folder, a link, even a dangling one) is at `path`.
  public static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Whether `path` and `other` are the same file (links followed, hard links compared by device
  /// and inode); false when either does not exist.
  public static func sameFile(_ path: String, _ other: String) -> Bool {
    guard let one = FileStatus.of(path, followingLinks: true),
      let two = FileStatus.of(other, followingLinks: true)
    else { return false }
    return one.device == two.device && one.inode == two.inode
  }
}
