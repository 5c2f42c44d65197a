import Foundation
import OutlineConvert
import OutlineCore
import OutlineFiles
import OutlineMigration
import OutlineWorkspace

/// Where a file's formatted text goes: compared with the input as both stream by, and written
/// to a temporary file only from the first difference (with the equal start copied from the
/// input), so an unchanged file is never written and `--check` writes nothing.
final class FileOutput: @unchecked Sendable {
  let comparison = StreamComparison()
  private let path: String
  private let writes: Bool
  private let snapshot: FileSnapshot?
  /// Reads a range of the input, handing it over in pieces.
  private let input: (Range<Int>, (ByteView) -> Void) -> Bool
  private var writer: AtomicFileWriter?
  private var failure: WriteError?
  private var started = false
  private var replaced = false

  init(
    path: String, writes: Bool, snapshot: FileSnapshot?,
    input: @escaping (Range<Int>, (ByteView) -> Void) -> Bool
  ) {
    self.path = path
    self.writes = writes
    self.snapshot = snapshot
    self.input = input
  }

  /// The next formatted bytes (on the formatter's thread).
  func formatted(_ bytes: ByteView) {
    if started {
      writer?.write(bytes)
      return
    }
    comparison.output(bytes)
    guard comparison.differs else { return }
    // With --check nothing is written: the answer is known.
    if writes { start() } else { started = true }
  }

  /// Opens the temporary file and writes into it what was formatted so far.
  private func start() {
    started = true
    let (equal, rest) = comparison.takeDivergence()
    do {
      writer = try AtomicFileWriter(path: path, unchangedSince: snapshot, activity: "formatted")
    } catch {
      failure = error
      return
    }
    guard input(0..<equal, { self.writer?.write($0) }) else {
      failure = WriteError(
        description: "cannot write \(Excerpt.quotedPath(path)): it could not be read again; not changed")
      writer = nil
      return
    }
    rest.withByteView { writer?.write($0) }
  }

  /// Whether the formatted text differs from the input (once both ended).
  var changed: Bool { replaced || !comparison.equal }

  /// Replaces `range` of the formatted text with `bytes` (once both ended).
  func replace(_ range: Range<Int>, with bytes: [UInt8]) {
    replaced = true
    guard writes else { return }
    if !started { start() }
    writer?.splice(range, with: bytes)
  }

  /// Removes the temporary file, if one was started: nothing is written.
  func discard() { writer?.discard() }

  /// Makes the formatted text appear at the path.
  func commit() throws(WriteError) {
    if !started { start() }
    if let failure { throw failure }
    try writer?.commit()
  }
}
