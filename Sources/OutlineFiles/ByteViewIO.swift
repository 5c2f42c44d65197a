import OutlineCore

extension FileChunks {
  /// Calls `body` with each chunk of the regular file at `path` (at most `limit` bytes), lent
  /// as a view: ``read(_:limit:_:)`` for the modules that hold no buffers.
  public static func readViews(
    _ path: String, limit: Int = InputFile.defaultLimit, _ body: (ByteView) -> Void
  ) throws(ReadError) {
    try read(path, limit: limit) { body(ByteView($0)) }
  }

  /// Calls `body` with each chunk read from `descriptor` until its end, lent as a view:
  /// ``read(descriptor:name:limit:_:)`` for the modules that hold no buffers.
  public static func readViews(
    descriptor: Int32, name: @autoclosure () -> String, limit: Int? = nil, _ body: (ByteView) -> Void
  ) throws(ReadError) {
    try read(descriptor: descriptor, name: name(), limit: limit) { body(ByteView($0)) }
  }

  /// Reads the file at `path` from its start in chunks of `chunkBytes` until `body` answers
  /// false or the file ends: for a reader that wants only the document's first bytes (its
  /// root). A file that cannot be opened, or a failed read, ends the chunks quietly.
  public static func readPrefix(_ path: String, chunkBytes: Int = 64 << 10, _ body: (ByteView) -> Bool) {
    guard let descriptor = try? InputFile.open(path) else { return }
    defer { close(descriptor) }
    readPrefix(descriptor: descriptor, chunkBytes: chunkBytes, body)
  }

  /// ``readPrefix(_:chunkBytes:_:)`` from `descriptor`, read on from where it is.
  public static func readPrefix(descriptor: Int32, chunkBytes: Int = 64 << 10, _ body: (ByteView) -> Bool) {
    var chunk = [UInt8](repeating: 0, count: chunkBytes)
    while true {
      let count = chunk.withUnsafeMutableBufferPointer { platformRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return }
      guard chunk.withByteView(0..<count, body) else { return }
    }
  }
}

extension FileChunks {
  /// Reads `range` of `descriptor` with `pread` (its offset left where it was), handing it to
  /// `body` in pieces of at most 1 MiB lent as views; whether all of it was read.
  @discardableResult
  public static func readViews(descriptor: Int32, range: Range<Int>, _ body: (ByteView) -> Void) -> Bool {
    var chunk = [UInt8](repeating: 0, count: min(1 << 20, max(1, range.count)))
    var offset = range.lowerBound
    while offset < range.upperBound {
      let count = chunk.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, min($0.count, range.upperBound - offset), off_t(offset))
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      chunk.withByteView(0..<count, body)
      offset += count
    }
    return true
  }
}

/// A small regular file read whole, in one `read` when it did not change since its `fstat`.
public enum WholeFile {
  /// Reads `descriptor` (a regular file `fstat` said is `size` bytes) to its end, at most `limit` bytes.
  ///
  /// A read that stops short exactly at `size` is the end (a regular file's
  /// read is short only at its end), so a file that did not change since the
  /// `fstat` takes one `read`; a file that grew is read on to its end.
  public static func load(descriptor: Int32, size: Int, path: String, limit: Int) throws(ReadError)
    -> ByteBuffer
  {
    var storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(size, limit) + 1)
    var count = 0
    while true {
      if count == storage.count {
        // The file grew since the fstat: room for more, never past one byte over the limit.
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(storage.count * 2, limit + 1))
        _ = grown.initialize(from: storage)
        storage.deallocate()
        storage = grown
      }
      let wanted = storage.count - count
      let got = read(descriptor, storage.baseAddress! + count, wanted)
      if got < 0 {
        if errno == EINTR { continue }
        let code = errno
        storage.deallocate()
        throw ReadError(path: path, errno: code)
      }
      if got == 0 { break }
      count += got
      if count > limit {
        storage.deallocate()
        throw InputFile.tooLarge(InputFile.quoted(path), limit: limit)
      }
      if got < wanted && count == size { break }
    }
    let kept = storage
    return ByteBuffer(
      buffer: UnsafeBufferPointer(rebasing: UnsafeBufferPointer(storage)[0..<count]),
      release: { kept.deallocate() }, discard: nil)
  }
}

extension FileDescriptorIO {
  /// Writes all of `bytes` to `descriptor`; the `errno` of a failed write, or nil.
  @inlinable
  public static func writeAll(_ descriptor: Int32, _ bytes: ByteView) -> Int32? {
    writeAll(descriptor, bytes.unsafeBuffer)
  }
}

extension AtomicFileWriter {
  /// Appends `bytes` (valid only during the call).
  public func write(_ bytes: ByteView) { write(bytes.unsafeBuffer) }
}

extension Spool {
  /// Appends `bytes` (valid only during the call).
  public func append(_ bytes: ByteView) { append(bytes.unsafeBuffer) }
}

extension StreamDigest {
  /// Adds the next bytes read.
  public func add(_ bytes: ByteView) { add(bytes.unsafeBuffer) }
}

extension StreamComparison {
  /// Adds the next bytes read.
  public func input(_ bytes: ByteView) { input(bytes.unsafeBuffer) }

  /// Adds the next bytes written.
  public func output(_ bytes: ByteView) { output(bytes.unsafeBuffer) }
}
