import Foundation

/// Whole writes to a file descriptor, and files that have no name.
public enum FileDescriptorIO {
  /// A file in the temporary folder, opened for reading and writing and
  /// already unlinked, so nothing is left behind however the process ends;
  /// nil on failure, with `errno` saying why.
  public static func anonymousTemporaryFile(prefix: String) -> Int32? {
    var folder = NSTemporaryDirectory()
    if folder.hasSuffix("/") { folder.removeLast() }
    var template = Array("\(folder)/\(prefix)-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return nil }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return descriptor
  }

  /// Writes all of `bytes`, retrying short and interrupted writes; the errno of a failure, or nil.
  @discardableResult
  public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBufferPointer { writeAll(descriptor, $0) }
  }

  /// Writes all of `buffer`, retrying short and interrupted writes; the errno of a failure, or nil.
  @discardableResult
  public static func writeAll(_ descriptor: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Int32? {
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }

  /// Writes all of `buffer` at `position` in the file (`pwrite`); the errno of a failure, or nil.
  public static func writeAll(_ descriptor: Int32, _ buffer: UnsafeBufferPointer<UInt8>, at position: Int)
    -> Int32?
  {
    var offset = 0
    while offset < buffer.count {
      let written = pwrite(
        descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(position + offset))
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }
}

extension FileDescriptorIO {
  /// Reads `descriptor` to its end in 64 KiB chunks, handing each to `matches` with its offset;
  /// the number of bytes read when every chunk matched, else -1.
  static func contents(
    of descriptor: Int32, equal matches: (Int, UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Int {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var offset = 0
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return -1
      }
      if count == 0 { return offset }
      let same = chunk.withUnsafeBufferPointer {
        matches(offset, UnsafeBufferPointer(rebasing: $0[0..<count]))
      }
      guard same else { return -1 }
      offset += count
    }
  }

  /// Reserves disk space for a file growing from `size` to `newSize` without changing its
  /// length, so a full disk is found before anything is written; the errno of a failure, or nil
  /// (also where the file system cannot reserve: the copy then finds out).
  static func reserve(_ descriptor: Int32, from size: Int64, to newSize: Int64) -> Int32? {
    guard newSize > size else { return nil }
    #if os(Linux)
      // fallocate(2) with FALLOC_FL_KEEP_SIZE; the C library's module leaves out the GNU declaration.
      guard let fallocate = linuxFallocate else { return nil }
      if fallocate(descriptor, 1, off_t(size), off_t(newSize - size)) != 0 {
        let code = errno
        return code == EOPNOTSUPP || code == ENOSYS ? nil : code
      }
    #endif
    return nil
  }

  #if os(Linux)
    private typealias Fallocate = @convention(c) (Int32, Int32, off_t, off_t) -> Int32
    private static let linuxFallocate: Fallocate? = {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
      return unsafeBitCast(symbol, to: Fallocate.self)
    }()
  #endif

  /// Copies the first `size` bytes of `source` over the start of `destination`, cuts it to
  /// `size` and flushes it; the errno of a failure, or nil.
  static func copy(from source: Int32, to destination: Int32, size: Int64) -> Int32? {
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var offset: Int64 = 0
    while offset < size {
      let count = chunk.withUnsafeMutableBytes {
        pread(source, $0.baseAddress, min($0.count, Int(size - offset)), off_t(offset))
      }
      if count < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if count == 0 { return EIO }
      var written = 0
      while written < count {
        let step = chunk.withUnsafeBytes {
          pwrite(destination, $0.baseAddress! + written, count - written, off_t(offset) + off_t(written))
        }
        if step < 0 {
          if errno == EINTR { continue }
          return errno
        }
        written += step
      }
      offset += Int64(count)
    }
    if ftruncate(destination, off_t(size)) != 0 || fsync(destination) != 0 { return errno }
    return nil
  }
}
