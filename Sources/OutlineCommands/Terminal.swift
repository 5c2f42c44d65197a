import OutlineWorkspace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output and error as file descriptors: whole writes, no buffering surprises.
enum Terminal {
  static func write(_ text: String) { write(text, to: 1) }

  /// Writes `bytes` to standard output.
  static func write(_ bytes: [UInt8]) { write(bytes, to: 1) }

  static func error(_ text: String) {
    write("outline: " + (text.hasSuffix("\n") ? text : text + "\n"), to: 2)
  }

  /// Writes all of `text` to `descriptor`, retrying short writes.
  static func write(_ text: String, to descriptor: Int32) {
    write(Array(text.utf8), to: descriptor)
  }

  /// Writes all of `bytes` to `descriptor`, retrying short writes.
  static func write(_ bytes: [UInt8], to descriptor: Int32) {
    FileDescriptorIO.writeAll(descriptor, bytes)
  }

  /// Whether standard error is a terminal (progress is shown only then).
  static var stderrIsTerminal: Bool { isatty(2) == 1 }
}
