import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
