import Foundation

/// A piece of the document's bytes that start tags are read from in place
/// (``XMLEventPipeline/chunkBuffer()``, ``XMLEventPipeline/chunkRead(_:)``, ``XMLEventPipeline/readInPlace(_:)``): kept while the
/// producer may still report a tag in it or a batch holds one; its memory then goes back
/// to the pipeline's free chunks (or, for bytes the pipeline does not own, nowhere).
final class SourceChunk {
  let base: UnsafePointer<UInt8>
  /// The document offset of `base`, and how many bytes from there the chunk holds.
  let start: Int
  let count: Int
  /// Where the memory goes when the chunk is done; nil for bytes owned elsewhere.
  private let pool: ChunkPool?

  init(base: UnsafePointer<UInt8>, start: Int, count: Int, pool: ChunkPool?) {
    (self.base, self.start, self.count, self.pool) = (base, start, count, pool)
  }

  deinit { pool?.put(UnsafeMutablePointer(mutating: base)) }
}

/// Memory for chunks, reused: the parser's thread takes, the consumer's releases.
///
/// A chunk is reused oldest first, and only once ``reserve`` others wait behind it: the one
/// the consumer released last is still in its core's caches, and reading the file into it
/// made the parser's core claim every line of it from the other core (the floor reads into
/// one buffer its own core keeps). Eight chunks back, the consumer has read 2 MiB since, and
/// the lines are out of its caches.
final class ChunkPool: @unchecked Sendable {
  static let chunkBytes = 1 << 18
  static let reserve = 8
  private let lock = NSLock()
  @exclusivity(unchecked) private var free: [UnsafeMutablePointer<UInt8>] = []
  /// How many chunks' memory was allocated (producer only).
  private(set) var allocated = 0

  func take() -> UnsafeMutablePointer<UInt8> {
    lock.lock()
    let memory = free.count > Self.reserve ? free.removeFirst() : nil
    lock.unlock()
    if let memory { return memory }
    allocated += 1
    return .allocate(capacity: Self.chunkBytes)
  }

  func put(_ memory: UnsafeMutablePointer<UInt8>) {
    lock.lock()
    free.append(memory)
    lock.unlock()
  }

  deinit { for memory in free { memory.deallocate() } }
}
