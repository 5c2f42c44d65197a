import Foundation
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

  /// Writes all of `bytes` to `descriptor`, retrying short writes. A failed write to standard
  /// output is remembered (``outputFailure``), and later ones are not tried.
  static func write(_ bytes: [UInt8], to descriptor: Int32) {
    guard descriptor == 1 else {
      FileDescriptorIO.writeAll(descriptor, bytes)
      return
    }
    output.write(bytes)
  }

  /// Why standard output could not be written (`cannot write standard output: ...`), or nil:
  /// trouble of the run, which ``CommandLineTool`` reports once at its end (exit 2). A reader
  /// gone (EPIPE, when SIGPIPE is ignored) is not trouble: the run ends quietly, as by SIGPIPE.
  static var outputFailure: String? {
    guard let code = output.failure, code != EPIPE else { return nil }
    return "cannot write standard output: \(String(cString: strerror(code)))"
  }

  private static let output = StandardOutput()

  /// Whether standard error is a terminal (progress is shown only then).
  static var stderrIsTerminal: Bool { isTerminal(2) }

  /// Whether `descriptor` is a terminal.
  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }
}

/// Standard output's writes, ended by the first that fails (its errno kept).
private final class StandardOutput: @unchecked Sendable {
  private let lock = NSLock()
  private var code: Int32?

  /// Writes all of `bytes`, unless an earlier write failed.
  func write(_ bytes: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    guard code == nil else { return }
    code = FileDescriptorIO.writeAll(1, bytes)
  }

  /// The errno of the write that failed, or nil.
  var failure: Int32? {
    lock.lock()
    defer { lock.unlock() }
    return code
  }
}
