import Foundation
import OutlineCore

/// Bytes written front to back and read back later: in memory up to a limit, then in an
/// unlinked temporary file, so output held back until it is known to be good (fmt of standard
/// input) or input kept to quote later keeps memory flat. If the temporary file cannot be made
/// or written, the bytes stay in memory: nothing is lost, only memory grows.
public final class Spool: @unchecked Sendable {
  private let memoryLimit: Int
  /// The bytes from `spilled` on.
  private var memory: [UInt8] = []
  /// How many bytes, from the start, are in the temporary file.
  private var spilled = 0
  private var descriptor: Int32 = -1
  private var spillFailed = false
  /// How many bytes were appended.
  public private(set) var count = 0

  /// A spool that keeps up to `memoryLimit` bytes in memory before it moves them to a file.
  public init(memoryLimit: Int = 4 << 20) {
    self.memoryLimit = memoryLimit
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Appends `bytes`.
  public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    count += bytes.count
    memory.append(contentsOf: bytes)
    if memory.count >= memoryLimit && !spillFailed { spill() }
  }

  private func spill() {
    if descriptor < 0 {
      guard let file = FileDescriptorIO.anonymousTemporaryFile(prefix: "outline-spool") else {
        spillFailed = true
        return
      }
      descriptor = file
    }
    // Written at its offset: a failed write leaves the bytes in memory and the file's length moot.
    let failed = memory.withUnsafeBufferPointer { FileDescriptorIO.writeAll(descriptor, $0, at: spilled) }
    if failed != nil {
      spillFailed = true
      return
    }
    spilled += memory.count
    memory.removeAll(keepingCapacity: true)
  }

  /// The bytes of `range` (clamped to what was appended).
  public func bytes(in range: Range<Int>) -> [UInt8] {
    let start = max(0, range.lowerBound)
    let end = min(count, range.upperBound)
    guard end > start else { return [] }
    var result: [UInt8] = []
    result.reserveCapacity(end - start)
    _ = copy(start..<end) { piece in
      result.append(contentsOf: piece)
      return nil
    }
    return result
  }

  /// Writes everything appended to `descriptor`, with the bytes of `range` replaced by
  /// `replacement` when given; the errno of a failure, or nil.
  public func write(to descriptor: Int32, replacing range: Range<Int>? = nil, with replacement: [UInt8] = [])
    -> Int32?
  {
    let cut =
      range.map { max(0, $0.lowerBound)..<min(count, max($0.lowerBound, $0.upperBound)) } ?? count..<count
    let out = { (piece: UnsafeBufferPointer<UInt8>) in FileDescriptorIO.writeAll(descriptor, piece) }
    if let failure = copy(0..<cut.lowerBound, out) { return failure }
    if range != nil, let failure = replacement.withUnsafeBufferPointer(out) { return failure }
    return copy(cut.upperBound..<count, out)
  }

  /// Hands the bytes of `range` to `body` in pieces, from the file then from memory; stops at the
  /// first errno `body` or a read returns.
  private func copy(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Int32?) -> Int32? {
    var offset = range.lowerBound
    if offset < spilled {
      var chunk = [UInt8](repeating: 0, count: min(1 << 20, spilled - offset))
      while offset < min(spilled, range.upperBound) {
        let wanted = min(chunk.count, min(spilled, range.upperBound) - offset)
        let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
        if got < 0 && errno == EINTR { continue }
        if got <= 0 { return got < 0 ? errno : EIO }
        if let failure = chunk.withUnsafeBufferPointer({ body(UnsafeBufferPointer(rebasing: $0[0..<got])) }) {
          return failure
        }
        offset += got
      }
    }
    guard offset < range.upperBound else { return nil }
    return memory.withUnsafeBufferPointer { held in
      body(UnsafeBufferPointer(rebasing: held[(offset - spilled)..<(range.upperBound - spilled)]))
    }
  }
}

/// The lines of a text that streamed by and is read back only where a message points:
/// a spool, standard input that is a regular file, or any reader of byte ranges.
public struct StreamedLines: DocumentLines {
  public let lines: LineIndex
  private let read: @Sendable (Range<Int>) -> [UInt8]

  /// Lines indexed by `lines`, whose bytes `read` gives back.
  public init(lines: LineIndex, read: @escaping @Sendable (Range<Int>) -> [UInt8]) {
    self.lines = lines
    self.read = read
  }

  public func lineBytes(_ line: Int) -> [UInt8] {
    guard line >= 0, line < lines.lineCount else { return [] }
    let start = lines.start(ofLine: line)
    let end = line + 1 < lines.lineCount ? lines.start(ofLine: line + 1) : lines.byteCount
    var bytes = read(start..<end)
    while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
    return bytes
  }

  public func bytes(in range: Range<Int>) -> [UInt8] {
    read(max(0, range.lowerBound)..<min(range.upperBound, lines.byteCount))
  }
}

/// Compares a document's bytes with what is made of them as both stream by at different
/// paces, possibly on two threads (the input as it is read, the output as it is made), holding
/// only the bytes one has and the other has not reached yet. Once they differ, the output's
/// bytes from the first difference on are kept for ``takeDivergence()`` (a writer then starts
/// from there, having copied the equal input before it).
public final class StreamComparison: @unchecked Sendable {
  private let lock = NSLock()
  /// The bytes of the stream ahead that the other has not reached, from `aheadIndex` on.
  private var ahead: [UInt8] = []
  private var aheadIndex = 0
  private var inputIsAhead = true
  private var inputCount = 0
  private var outputCount = 0
  /// Once they differ: the length of their common start, and the output's bytes after it.
  private var divergence: (equal: Int, output: [UInt8])?

  /// A comparison of two empty streams.
  public init() {}

  /// The next bytes of the input.
  public func input(_ bytes: UnsafeBufferPointer<UInt8>) { add(bytes, isInput: true) }

  /// The next bytes of the output.
  public func output(_ bytes: UnsafeBufferPointer<UInt8>) { add(bytes, isInput: false) }

  /// Whether the streams are known to differ (before they ended, only where bytes differ).
  public var differs: Bool {
    lock.lock()
    defer { lock.unlock() }
    return divergence != nil
  }

  /// Whether both streams, once ended, are the same bytes.
  public var equal: Bool {
    lock.lock()
    defer { lock.unlock() }
    return divergence == nil && inputCount == outputCount
  }

  /// How many bytes the streams have in common from their start, and the output's bytes after
  /// them handed over so far, which are then forgotten (later output is the caller's); call
  /// once ``differs``, or once both ended and are not ``equal``.
  public func takeDivergence() -> (equal: Int, output: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    if divergence == nil {
      // One stream is the start of the other: the longer one's rest waits in `ahead`.
      let rest = inputIsAhead ? [] : Array(ahead[aheadIndex...])
      divergence = (min(inputCount, outputCount), rest)
      ahead = []
      aheadIndex = 0
    }
    let taken = divergence!
    divergence!.output = []
    return taken
  }

  private func add(_ bytes: UnsafeBufferPointer<UInt8>, isInput: Bool) {
    lock.lock()
    defer { lock.unlock() }
    if isInput { inputCount += bytes.count } else { outputCount += bytes.count }
    if divergence != nil {
      if !isInput { divergence!.output.append(contentsOf: bytes) }
      return
    }
    guard !bytes.isEmpty else { return }
    let waiting = ahead.count - aheadIndex
    if waiting == 0 || inputIsAhead == isInput {
      // This stream is ahead (or level): its bytes wait for the other's.
      if waiting == 0 {
        ahead.removeAll(keepingCapacity: true)
        aheadIndex = 0
        inputIsAhead = isInput
      }
      ahead.append(contentsOf: bytes)
      return
    }
    let compared = min(waiting, bytes.count)
    let same = ahead.withUnsafeBufferPointer { held in
      if memcmp(held.baseAddress! + aheadIndex, bytes.baseAddress!, compared) == 0 { return compared }
      var index = 0
      while index < compared && held[aheadIndex + index] == bytes[index] { index += 1 }
      return index
    }
    if same < compared {
      let equal = (isInput ? inputCount : outputCount) - bytes.count + same
      let output = isInput ? Array(ahead[(aheadIndex + same)...]) : Array(bytes[same...])
      divergence = (equal, output)
      ahead = []
      aheadIndex = 0
      return
    }
    aheadIndex += compared
    if compared < bytes.count {
      // This stream passed the other: the rest of its bytes wait now.
      ahead.removeAll(keepingCapacity: true)
      aheadIndex = 0
      inputIsAhead = isInput
      ahead.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[compared...]))
    } else if aheadIndex >= 1 << 20 && aheadIndex * 2 >= ahead.count {
      ahead.removeFirst(aheadIndex)
      aheadIndex = 0
    }
  }
}
