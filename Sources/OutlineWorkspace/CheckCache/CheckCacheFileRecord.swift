import Foundation

/// What `stat` said of a file when its bytes were read and hashed, with the SHA-256 of
/// those bytes: git's index entry, which lets a later run take the digest without reading
/// the file again while its `stat` says the same.
///
/// The digest stays the key of every result; the record only vouches that the file still
/// holds the bytes it was hashed from. It does so when the file's device, inode, size,
/// modification and change times (with their nanoseconds), mode and the user reading it
/// are all as recorded, and neither time could be that of a change made once hashing
/// began (git's "racy" rule, ``isRacy``): a file written in the same tick as it was hashed
/// is read again, whatever its `stat` says.
public struct CheckCacheFileRecord: Sendable, Equatable {
  /// A file time: seconds since 1970 and nanoseconds.
  public struct Time: Sendable, Equatable, Comparable {
    /// Seconds since 1970, UTC.
    public var seconds: Int64
    /// Nanoseconds within the second.
    public var nanoseconds: UInt32

    /// A time.
    public init(seconds: Int64, nanoseconds: UInt32) {
      self.seconds = seconds
      self.nanoseconds = nanoseconds
    }

    init(_ time: timespec) {
      self.init(seconds: Int64(time.tv_sec), nanoseconds: UInt32(truncatingIfNeeded: time.tv_nsec))
    }

    /// The time of the coarse clock, which file times are taken from (and never before).
    public static var now: Time {
      Time(coarseRealTime())
    }

    /// The modification and status change times of `info` (named apart on each platform).
    static func times(of info: stat) -> (modified: Time, changed: Time) {
      (Time(modificationTime(info)), Time(statusChangeTime(info)))
    }

    public static func < (left: Time, right: Time) -> Bool {
      (left.seconds, left.nanoseconds) < (right.seconds, right.nanoseconds)
    }

    /// The step of the file system's clock this time shows at the most: the largest power
    /// of ten nanoseconds (up to a tenth of a second) its nanoseconds are a multiple of,
    /// and two seconds when they are zero (a file system keeping whole seconds, or FAT's two).
    var precision: Time {
      if nanoseconds == 0 { return Time(seconds: 2, nanoseconds: 0) }
      var step: UInt32 = 1
      while step < 100_000_000 && nanoseconds % (step * 10) == 0 { step *= 10 }
      return Time(seconds: 0, nanoseconds: step)
    }

    /// `self + other`.
    func adding(_ other: Time) -> Time {
      let sum = nanoseconds + other.nanoseconds
      return Time(
        seconds: seconds &+ other.seconds &+ Int64(sum / 1_000_000_000), nanoseconds: sum % 1_000_000_000)
    }
  }

  /// The file system's device.
  public var device: UInt64
  /// The inode.
  public var inode: UInt64
  /// The size in bytes.
  public var size: Int64
  /// The modification time.
  public var modified: Time
  /// The status change time.
  public var changed: Time
  /// The mode (type and permissions).
  public var mode: UInt32
  /// The effective user that read the file.
  public var reader: UInt32
  /// The coarse clock's time before the file was opened to be hashed.
  public var hashed: Time
  /// The SHA-256 of the bytes read.
  public var digest: CheckCacheIndex.Key

  /// The record of a file whose `stat` (taken after `hashed`, before reading) was `info`.
  public init(_ info: stat, hashed: Time, digest: CheckCacheIndex.Key, reader: UInt32 = geteuid()) {
    let times = Time.times(of: info)
    self.init(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modified: times.modified, changed: times.changed, mode: UInt32(info.st_mode), reader: reader,
      hashed: hashed, digest: digest)
  }

  /// A record.
  public init(
    device: UInt64, inode: UInt64, size: Int64, modified: Time, changed: Time, mode: UInt32, reader: UInt32,
    hashed: Time, digest: CheckCacheIndex.Key
  ) {
    self.device = device
    self.inode = inode
    self.size = size
    self.modified = modified
    self.changed = changed
    self.mode = mode
    self.reader = reader
    self.hashed = hashed
    self.digest = digest
  }

  /// Whether `info` is the `stat` recorded, read by `reader`.
  public func matches(_ info: stat, reader: UInt32 = geteuid()) -> Bool {
    guard
      UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode && Int64(info.st_size) == size
        && UInt32(info.st_mode) == mode && reader == self.reader
    else { return false }
    let times = Time.times(of: info)
    return times.modified == modified && times.changed == changed
  }

  /// Whether the record cannot vouch for the file: one of its times is not strictly older
  /// than the time hashing began, at the precision the time shows. A change made once
  /// hashing began is stamped at or after that time (file times come from the coarse
  /// clock, or a finer one); when it falls in the tick of the recorded times, the `stat`
  /// after it may be the same as before, so such a record is never trusted (git's "racy" entry).
  public var isRacy: Bool {
    Self.mayFollow(modified, hashed) || Self.mayFollow(changed, hashed)
  }

  /// Whether `stamp` may be that of a change made at or after `start`.
  static func mayFollow(_ stamp: Time, _ start: Time) -> Bool {
    !(stamp.adding(stamp.precision) <= start)
  }

  /// Whether the record is of a regular file.
  public var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
}
