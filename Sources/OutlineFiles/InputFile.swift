import Foundation
import OutlineCore

/// Opens and reads inputs so that nothing blocks and nothing is read past a limit.
///
/// Every file the tools read (documents, models, configurations) goes through
/// here: the path is checked with `stat` before it is opened, opened with
/// `O_NONBLOCK` (opening a FIFO never waits for a writer), and the opened
/// descriptor is checked again with `fstat`, so a path swapped for a FIFO or a
/// device in between is refused too. Only regular files are read. Reads stop
/// one byte past the limit.
public enum InputFile {
  /// The default limit on one input: 256 MiB, far above any real outline.
  public static let defaultLimit = 256 << 20

  /// What kind of file `mode` is, as an error message says it ("a FIFO"), nil for a regular file.
  public static func kind(ofMode mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "a folder"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "not a regular file"
    }
  }

  /// Why `path` cannot be read as a regular file without opening it
  /// (following links), or nil when it is one. `errno` failures are reported too.
  public static func refusal(_ path: String) -> ReadError? {
    var info = stat()
    guard stat(path, &info) == 0 else { return ReadError(path: path, errno: errno) }
    return notRegular(path, info.st_mode)
  }

  /// Opens the regular file at `path` for reading; throws for anything else.
  public static func open(_ path: String) throws(ReadError) -> Int32 {
    var info = stat()
    return try open(path, status: &info)
  }

  /// ``open(_:)``, also saying what `fstat` found on the descriptor (its size),
  /// so a caller need not ask again. `checked` says the caller has just seen
  /// the path name a regular file (a folder search's `d_type`, a `stat`), so
  /// the `stat` before opening is not made again; the `fstat` after is.
  public static func open(_ path: String, status info: inout stat, checked: Bool = false) throws(ReadError)
    -> Int32
  {
    if !checked, let refused = refusal(path) { throw refused }
    let descriptor = platformOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw ReadError(path: path, errno: errno) }
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw ReadError(path: path, errno: code)
    }
    if let refused = notRegular(path, info.st_mode) {
      close(descriptor)
      throw refused
    }
    return descriptor
  }

  /// The whole regular file at `path`, at most `limit` bytes.
  public static func read(_ path: String, limit: Int = defaultLimit) throws(ReadError) -> [UInt8] {
    let descriptor = try open(path)
    defer { close(descriptor) }
    return try read(descriptor: descriptor, name: quoted(path), limit: limit)
  }

  /// Everything readable from `descriptor` until its end, at most `limit`
  /// bytes: it never reads more than `limit + 1`. `name` says what it is in
  /// an error (`'path'` or `standard input`).
  public static func read(descriptor: Int32, name: @autoclosure () -> String, limit: Int = defaultLimit)
    throws(ReadError)
    -> [UInt8]
  {
    var bytes: [UInt8] = []
    try FileChunks.read(descriptor: descriptor, name: name(), limit: limit) { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// Standard input, at most `limit` bytes, whatever it is (a pipe, a file, a device).
  public static func readStandardInput(limit: Int = defaultLimit) throws(ReadError) -> [UInt8] {
    try read(descriptor: 0, name: "standard input", limit: limit)
  }

  /// The error for an input over `limit` bytes.
  public static func tooLarge(_ name: String, limit: Int) -> ReadError {
    ReadError(
      description:
        "\(name) is larger than the input size limit of \(ByteCount.describe(limit)) (change it with --max-size)"
    )
  }

  /// A path as messages quote it: in single quotes, control characters escaped.
  public static func quoted(_ path: String) -> String { Excerpt.quotedPath(path) }

  private static func notRegular(_ path: String, _ mode: mode_t) -> ReadError? {
    guard let kind = kind(ofMode: mode) else { return nil }
    return ReadError(description: "\(quoted(path)) is not a regular file (\(kind))")
  }
}

/// Sizes as users write them: `1048576`, `512K`, `256M`, `1G` (K, M, G are 1024-based; `KiB`, `MiB`, `GiB` too).
public enum ByteCount {
  /// The number of bytes `text` says, nil when it is not a size (or not positive).
  public static func parse(_ text: String) -> Int? {
    var digits = Substring(text.trimmingCharacters(in: .whitespaces))
    var unit = 1
    let suffixes: [(String, Int)] = [
      ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1 << 10), ("MB", 1 << 20),
      ("GB", 1 << 30), ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("B", 1),
    ]
    for (suffix, size) in suffixes where digits.uppercased().hasSuffix(suffix.uppercased()) {
      digits = Substring(digits.dropLast(suffix.count).trimmingCharacters(in: .whitespaces))
      unit = size
      break
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits),
      number > 0
    else { return nil }
    let (bytes, overflow) = number.multipliedReportingOverflow(by: unit)
    return overflow ? nil : bytes
  }

  /// `256 MiB`, `1536 KiB`, `100 bytes`: the largest unit that divides it.
  public static func describe(_ bytes: Int) -> String {
    for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
    where bytes >= size && bytes % size == 0 {
      return "\(bytes / size) \(unit)"
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}

extension ReadError {
  /// "cannot read 'path': reason" for a failed system call.
  public init(path: String, errno code: Int32) {
    self.init(
      description:
        "cannot read \(InputFile.quoted(path)): \(String(decoding: strerrorBytes(code), as: UTF8.self))")
  }
}
