import OutlineFiles
import OutlineWorkspace

/// Standard output and error as file descriptors: whole writes, no buffering surprises.
enum Terminal {
  /// The binary's name, the prefix of its error messages (set once, at start).
  nonisolated(unsafe) static var toolName = "outline"

  static func write(_ text: String) { write(text, to: 1) }

  /// Writes `bytes` to standard output.
  static func write(_ bytes: [UInt8]) { write(bytes, to: 1) }

  /// One line on standard error: `outline-lint: message`.
  static func error(_ text: String) {
    write(toolName + ": " + (text.hasSuffix("\n") ? text : text + "\n"), to: 2)
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
  static var stderrIsTerminal: Bool { isTerminal(2) }

  /// Whether `descriptor` is a terminal.
  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }
}
