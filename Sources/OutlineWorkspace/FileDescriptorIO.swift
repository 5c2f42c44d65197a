#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole writes to a file descriptor.
public enum FileDescriptorIO {
  /// Writes all of `bytes`, retrying short and interrupted writes; the errno of a failure, or nil.
  @discardableResult
  public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBufferPointer { buffer in
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
  }
}
