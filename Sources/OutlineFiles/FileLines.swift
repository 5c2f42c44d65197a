import Foundation
import OutlineCore

/// A file validated as it streamed by: its line index is kept, its bytes are
/// not; a line is read back from disk when a diagnostic points to it.
public struct FileLines: DocumentLines {
  /// The file.
  public let path: String
  private let given: LineIndex?
  private let deferred: DeferredLines?

  /// Where each line starts: as given, or read from the file when first asked for.
  public var lines: LineIndex { given ?? deferred!.index(of: path) }

  /// Lines of `path` indexed by `lines`.
  public init(path: String, lines: LineIndex) {
    self.path = path
    given = lines
    deferred = nil
  }

  /// Lines of `path` indexed only when first asked for, by reading the file
  /// again: a file streamed by without diagnostics never needs its lines, so
  /// it costs no index while it is read (lines read back are read from disk
  /// either way). An unreadable file has no lines.
  public init(indexingWhenAsked path: String) {
    self.path = path
    given = nil
    deferred = DeferredLines()
  }

  public func lineBytes(_ line: Int) -> [UInt8] {
    guard line >= 0, line < lines.lineCount else { return [] }
    let start = lines.start(ofLine: line)
    let end = line + 1 < lines.lineCount ? lines.start(ofLine: line + 1) : lines.byteCount
    guard end > start else { return [] }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: end - start)
    let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, end - start, off_t(start)) }
    guard count > 0 else { return [] }
    bytes.removeLast(bytes.count - count)
    while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
    return bytes
  }

  public func bytes(in range: Range<Int>) -> [UInt8] {
    let start = max(0, range.lowerBound)
    let end = min(range.upperBound, lines.byteCount)
    guard end > start else { return [] }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: end - start)
    var filled = 0
    while filled < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(start + filled))
      }
      guard count > 0 else { break }
      filled += count
    }
    bytes.removeLast(bytes.count - filled)
    return bytes
  }
}

/// A line index made once, on first use, from the file as it is then.
private final class DeferredLines: @unchecked Sendable {
  private let lock = NSLock()
  private var made: LineIndex?

  func index(of path: String) -> LineIndex {
    lock.lock()
    defer { lock.unlock() }
    if let made { return made }
    var lines = LineIndex()
    // No size limit: the file was read once already, within the run's.
    if let descriptor = try? InputFile.open(path) {
      defer { close(descriptor) }
      try? FileChunks.read(descriptor: descriptor, name: path) { lines.append($0) }
    }
    made = lines
    return lines
  }
}
