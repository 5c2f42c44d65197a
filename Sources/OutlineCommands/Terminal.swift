import OutlineWorkspace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output and error as file descriptors: whole writes, no buffering surprises.
enum Terminal {
  static func write(_ text: String) { write(text, to: 1) }

  /// `outline: ...` or `outline-lint: ...`: one line, named after the program that runs.
  static func error(_ text: String) {
    write(programName + ": " + (text.hasSuffix("\n") ? text : text + "\n"), to: 2)
  }

  /// The running program's name (`outline` unless it is `outline-lint`).
  static let programName =
    CommandLine.arguments.first.map { $0.split(separator: "/").last == "outline-lint" } == true
    ? "outline-lint" : "outline"

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
