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
  private let input: (Range<Int>, (UnsafeBufferPointer<UInt8>) -> Void) -> Bool
  private var writer: AtomicFileWriter?
  private var failure: WriteError?
  private var started = false
  private var replaced = false

  init(
    path: String, writes: Bool, snapshot: FileSnapshot?,
    input: @escaping (Range<Int>, (UnsafeBufferPointer<UInt8>) -> Void) -> Bool
  ) {
    self.path = path
    self.writes = writes
    self.snapshot = snapshot
    self.input = input
  }

  /// The next formatted bytes (on the formatter's thread).
  func formatted(_ bytes: UnsafeBufferPointer<UInt8>) {
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
    rest.withUnsafeBufferPointer { writer?.write($0) }
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

  /// Reads `range` of `descriptor` with `pread`, handing it to `body` in pieces; whether all of it was read.
  @discardableResult
  static func read(_ descriptor: Int32, _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
    -> Bool
  {
    var chunk = [UInt8](repeating: 0, count: min(1 << 20, max(1, range.count)))
    var offset = range.lowerBound
    while offset < range.upperBound {
      let count = chunk.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, min($0.count, range.upperBound - offset), off_t(offset))
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
      offset += count
    }
    return true
  }
}
