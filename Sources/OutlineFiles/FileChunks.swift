import OutlineCore

/// Reads a file front to back in 1 MiB chunks.
public enum FileChunks {
  /// Calls `body` with each chunk of the regular file at `path` (at most `limit` bytes).
  public static func read(
    _ path: String, limit: Int = InputFile.defaultLimit, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(ReadError) {
    let descriptor = try InputFile.open(path)
    defer { close(descriptor) }
    try read(descriptor: descriptor, name: InputFile.quoted(path), limit: limit, body)
  }

  /// Calls `body` with each chunk read from `descriptor` until its end;
  /// `name` says what it is in an error (`'path'`, `standard input`); it
  /// is made only for an error (quoting a path costs more than reading a small file).
  /// With a `limit`, an input longer than it is an error, found having read
  /// at most `limit + 1` bytes (`body` never sees more than `limit`).
  public static func read(
    descriptor: Int32, name: @autoclosure () -> String, limit: Int? = nil,
    _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(ReadError) {
    // Chunks of 1 MiB, or the size of a smaller regular file and one byte
    // (to see its end): a run over many small files allocates little, and
    // nothing is zeroed before it is read into.
    var info = stat()
    let size =
      fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 1 << 20
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(1 << 20, max(1 << 12, size + 1)))
    defer { chunk.deallocate() }
    try read(descriptor: descriptor, name: name(), limit: limit, into: { chunk }) { count in
      body(UnsafeBufferPointer(rebasing: chunk[0..<count]))
    }
  }

  /// Reads `descriptor` until its end as ``read(descriptor:name:limit:_:)`` does, each time into
  /// the memory `buffer` gives; `body` is told how many bytes that memory then holds.
  public static func read(
    descriptor: Int32, name: @autoclosure () -> String, limit: Int? = nil,
    into buffer: () -> UnsafeMutableBufferPointer<UInt8>, _ body: (_ count: Int) -> Void
  ) throws(ReadError) {
    var total = 0
    while true {
      let chunk = buffer()
      // Ask for no more than one byte past the limit.
      let wanted = limit.map { min(chunk.count, $0 + 1 - total) } ?? chunk.count
      let count = platformRead(descriptor, chunk.baseAddress, wanted)
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK {
          // A non-blocking descriptor with nothing yet (standard input can be one): wait for it.
          var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          _ = poll(&poller, 1, -1)
          continue
        }
        throw ReadError(
          description: "cannot read \(name()): \(String(decoding: strerrorBytes(errno), as: UTF8.self))")
      }
      if count == 0 { return }
      total += count
      if let limit, total > limit { throw InputFile.tooLarge(name(), limit: limit) }
      body(count)
    }
  }
}

/// Why a file could not be read.
public struct ReadError: Error, CustomStringConvertible, Sendable {
  /// What failed, naming the path.
  public let description: String

  /// An error saying `description`, which names the path and the cause.
  public init(description: String) { self.description = description }
}

func strerrorBytes(_ code: Int32) -> [UInt8] {
  guard let message = strerror(code) else { return Array("error \(code)".utf8) }
  return Array(
    UnsafeBufferPointer(
      start: UnsafeRawPointer(message).assumingMemoryBound(to: UInt8.self), count: strlen(message)))
}
