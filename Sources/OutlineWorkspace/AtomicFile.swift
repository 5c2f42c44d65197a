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

  /// A failure described by `description`.
  public init(description: String) {
    self.description = description
  }
}

/// Writes files so that a reader, or a crash, sees the old file or the new one, never a mix.
public enum AtomicFile {
  /// Writes `bytes` to a temporary file in `path`'s folder, flushes it, gives
  /// it the mode of the file it replaces, and renames it over `path`.
  public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
    let writer = try AtomicFileWriter(path: path)
    writer.write(bytes)
    try writer.commit()
  }
}

/// Writes a file in pieces with the guarantees of ``AtomicFile``: nothing
/// appears at the path until ``commit()``; ``discard()`` (or deinit) removes
/// the temporary file.
public final class AtomicFileWriter {
  private let path: String
  private let temporary: String
  private var descriptor: Int32
  private let mode: mode_t
  private var failure: String?

  /// Opens a temporary file beside `path`.
  public init(path: String) throws(WriteError) {
    self.path = path
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var template = Array("\(folder)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
    descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw WriteError(description: "cannot write in '\(folder)': \(String(cString: strerror(errno)))")
    }
    temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var existing = stat()
    if stat(path, &existing) == 0 {
      mode = existing.st_mode & 0o7777
    } else {
      let mask = umask(0o022)
      umask(mask)
      mode = 0o666 & ~mask
    }
  }

  deinit { discard() }

  /// Appends `bytes`.
  public func write(_ bytes: [UInt8]) {
    guard failure == nil, descriptor >= 0 else { return }
    if let code = FileDescriptorIO.writeAll(descriptor, bytes) { failure = String(cString: strerror(code)) }
  }

  /// Empties the temporary file, to write it again from the start.
  public func reset() {
    guard descriptor >= 0 else { return }
    if ftruncate(descriptor, 0) != 0 || lseek(descriptor, 0, SEEK_SET) != 0 {
      failure = String(cString: strerror(errno))
    }
  }

  /// Flushes, sets the mode and renames the temporary file over the path.
  public func commit() throws(WriteError) {
    guard descriptor >= 0 else { throw WriteError(description: "cannot write '\(path)': already closed") }
    if failure == nil && fchmod(descriptor, mode) != 0 { failure = String(cString: strerror(errno)) }
    if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    close(descriptor)
    descriptor = -1
    if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(temporary)
      throw WriteError(description: "cannot write '\(path)': \(failure)")
    }
  }

  /// Removes the temporary file; the path is untouched.
  public func discard() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
    unlink(temporary)
  }
}
