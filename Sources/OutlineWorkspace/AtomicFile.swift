import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a write failed; the original file is untouched.
public struct WriteError: Error, CustomStringConvertible, Sendable {
  /// What failed, naming the path.
  public let description: String
}

/// Writes files so that a reader, or a crash, sees the old file or the new one, never a mix.
public enum AtomicFile {
  /// Writes `bytes` to a temporary file in `path`'s folder, flushes it, gives
  /// it the mode of the file it replaces, and renames it over `path`.
  public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var template = Array("\(folder)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw WriteError(description: "cannot write in '\(folder)': \(String(cString: strerror(errno)))")
    }
    let temporary = String(cString: template)
    var existing = stat()
    let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644 & ~currentUmask()
    var failure: String?
    bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = String(cString: strerror(errno))
          return
        }
        offset += written
      }
    }
    if failure == nil && fchmod(descriptor, mode) != 0 { failure = String(cString: strerror(errno)) }
    if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    close(descriptor)
    if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(temporary)
      throw WriteError(description: "cannot write '\(path)': \(failure)")
    }
  }

  private static func currentUmask() -> mode_t {
    let mask = umask(0o022)
    umask(mask)
    return mask
  }
}
