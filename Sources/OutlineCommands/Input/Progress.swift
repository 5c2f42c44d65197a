import Foundation
import OutlineCore

/// A progress line on standard error, only when it is a terminal: files
/// done of all for a run over many files, bytes read for one large file.
final class Progress: @unchecked Sendable {
  /// Runs over more files than this show progress.
  static let manyFiles = 20
  /// A single file at least this large shows progress.
  static let largeFile = 16 << 20

  private let total: Int
  private let enabled: Bool
  private var done = 0
  private var lastDrawn = Date.distantPast
  private let lock = NSLock()

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  /// Whether a run over `files` shows progress: stderr is a terminal, and
  /// there are many files or one large one.
  static func wanted(for files: [String]) -> (files: Bool, bytes: Bool) {
    guard Terminal.stderrIsTerminal else { return (false, false) }
    if files.count > manyFiles { return (true, false) }
    var info = stat()
    let large =
      files.count == 1 && files[0] != "-" && stat(files[0], &info) == 0 && Int(info.st_size) >= largeFile
    return (false, large)
  }

  func advance() {
    guard enabled else { return }
    lock.lock()
    done += 1
    draw("linting \(done)/\(total)", last: done == total)
    lock.unlock()
  }

  /// One large file: `linting big.outline 42% (108/256 MB)`.
  func bytes(_ path: String, read: Int, size: Int) {
    guard enabled, size > 0 else { return }
    lock.lock()
    draw(
      "linting \(path) \(read * 100 / size)% (\(read >> 20)/\(size >> 20) MB)", last: read >= size)
    lock.unlock()
  }

  private func draw(_ line: String, last: Bool) {
    let now = Date()
    if now.timeIntervalSince(lastDrawn) > 0.1 || last {
      lastDrawn = now
      Terminal.write("\r\u{1B}[K" + line, to: 2)
    }
  }

  func finish() {
    if enabled { Terminal.write("\r\u{1B}[K", to: 2) }
  }
}
