import Foundation
import OutlineCore

/// A file as it was when a command read it: identity, size and times, and the bytes read. A
/// writer given one refuses to replace a file that has changed since (a lost update).
public struct FileSnapshot: Sendable {
  let status: FileStatus
  var takenAt: Timestamp
  /// The bytes read after the snapshot was taken.
  public private(set) var bytes: [UInt8] = []
  /// For a file streamed rather than held: the digest of the bytes read.
  public private(set) var digest: StreamDigest?

  /// Takes the snapshot of `path` (links followed) before reading it; nil if it cannot be stat'ed.
  public static func take(_ path: String) -> FileSnapshot? {
    let now = Timestamp.now()
    guard let status = FileStatus.of(path, followingLinks: true) else { return nil }
    return FileSnapshot(status: status, takenAt: now)
  }

  /// This snapshot with the bytes that were read.
  public func holding(_ bytes: [UInt8]) -> FileSnapshot {
    var copy = self
    copy.bytes = bytes
    return copy
  }

  /// This snapshot for a file that streams by: `digest` is fed the bytes as they are read.
  public func digesting(_ digest: StreamDigest) -> FileSnapshot {
    var copy = self
    copy.digest = digest
    return copy
  }

  /// Whether the file at `path`, whose status is `now`, is still the one read: same device and
  /// inode, size, modification and change times; when a change could hide in the timestamps'
  /// granularity (the file was touched less than 2 s before it was read), same bytes as well
  /// (the bytes held, or for a streamed file the digest of the bytes read, read again).
  func matches(_ now: FileStatus, at path: String) -> Bool {
    now.sameContentStamp(as: status) && holdsBytesRead(at: path, atTime: takenAt)
  }

  /// Whether the file at `path` is still the one read (as ``matches(_:at:)`` judges it); false
  /// when it is gone. A command checks it before it reports a problem at a position, which would
  /// point into bytes the file no longer holds.
  public func isUnchanged(at path: String) -> Bool {
    guard let now = FileStatus.of(path, followingLinks: true) else { return false }
    return matches(now, at: path)
  }

  /// Whether the file this snapshot was taken of, now at `path` with status `now` after the writer
  /// replaced it, was left alone meanwhile: same inode, size and modification time (its change
  /// time moved with the writer's own link and rename, which write nothing), and the same bytes
  /// when a write could hide in the timestamps' granularity.
  func stillHolds(_ now: FileStatus, at path: String) -> Bool {
    now.sameWriteStamp(as: status) && holdsBytesRead(at: path, atTime: Timestamp.now())
  }

  /// Whether the file at `path` holds the bytes read: trusted without reading when the file was
  /// last touched more than 2 s before `time` (a later write would have moved its stamp).
  private func holdsBytesRead(at path: String, atTime time: Timestamp) -> Bool {
    let latest = max(status.modified, status.changed)
    if latest.seconds + 2 < time.seconds { return true }
    if let digest { return digest.matches(fileAt: path) }
    return FileStatus.contents(of: path, equal: bytes)
  }
}

/// A point in time (seconds and nanoseconds), as file systems stamp files.
struct Timestamp: Comparable, Sendable {
  var seconds: Int
  var nanoseconds: Int

  static func now() -> Timestamp {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Timestamp(seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec))
  }

  static func < (left: Timestamp, right: Timestamp) -> Bool {
    (left.seconds, left.nanoseconds) < (right.seconds, right.nanoseconds)
  }
}

/// What `stat` says about a file, in portable fields.
struct FileStatus: Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int
  var links: Int
  var mode: mode_t
  var owner: uid_t
  var group: gid_t
  var modified: Timestamp
  var changed: Timestamp

  var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
  var permissions: mode_t { mode & 0o7777 }

  /// Same file, size and times: nothing wrote to it in between (up to the times' granularity).
  func sameContentStamp(as other: FileStatus) -> Bool {
    sameWriteStamp(as: other) && changed == other.changed
  }

  /// Same file, size and modification time: what a write moves, unlike a link or a rename.
  func sameWriteStamp(as other: FileStatus) -> Bool {
    device == other.device && inode == other.inode && size == other.size && modified == other.modified
  }

  /// The status of `path` (nil with `errno` set when there is none).
  static func of(_ path: String, followingLinks: Bool) -> FileStatus? {
    var info = stat()
    guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
    return FileStatus(info)
  }

  static func of(descriptor: Int32) -> FileStatus? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return FileStatus(info)
  }

  init(_ info: stat) {
    device = UInt64(truncatingIfNeeded: Int64(info.st_dev))
    inode = UInt64(info.st_ino)
    size = Int(info.st_size)
    links = Int(info.st_nlink)
    mode = info.st_mode
    owner = info.st_uid
    group = info.st_gid
    let modification = modificationTime(info)
    let change = statusChangeTime(info)
    modified = Timestamp(seconds: Int(modification.tv_sec), nanoseconds: Int(modification.tv_nsec))
    changed = Timestamp(seconds: Int(change.tv_sec), nanoseconds: Int(change.tv_nsec))
  }

  /// Whether the file at `path` holds exactly `bytes`.
  static func contents(of path: String, equal bytes: [UInt8]) -> Bool {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { return false }
    defer { close(file) }
    return bytes.withUnsafeBufferPointer { expected in
      FileDescriptorIO.contents(
        of: file,
        equal: { offset, chunk in
          offset + chunk.count <= expected.count
            && memcmp(expected.baseAddress! + offset, chunk.baseAddress!, chunk.count) == 0
        }) == expected.count
    }
  }

  /// Whether the file at `path` holds exactly what `descriptor` (read from its start) holds.
  static func contents(of path: String, equalTo descriptor: Int32) -> Bool {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { return false }
    defer { close(file) }
    let size = Int(lseek(descriptor, 0, SEEK_END))
    var other = [UInt8](repeating: 0, count: 1 << 16)
    return FileDescriptorIO.contents(
      of: file,
      equal: { offset, chunk in
        guard offset + chunk.count <= size else { return false }
        let count = other.withUnsafeMutableBytes {
          pread(descriptor, $0.baseAddress, chunk.count, off_t(offset))
        }
        return count == chunk.count && memcmp(other, chunk.baseAddress!, chunk.count) == 0
      }) == size
  }
}
