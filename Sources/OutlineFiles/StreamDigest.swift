import Foundation

/// A digest of the bytes a streaming reader read, so that a writer can check, before it
/// replaces the file, that the file still holds them without having kept them.
///
/// SipHash through `Hasher`, whose seed is fixed for the life of the process: the digest of
/// what was read and the digest of what is on disk at commit are taken by the same process, so
/// they agree exactly when the bytes do (to a 2^-64 chance), whatever the chunking.
public final class StreamDigest: @unchecked Sendable {
  private let lock = NSLock()
  private var hasher = Hasher()
  private var count = 0

  /// An empty digest.
  public init() {}

  /// Adds the next bytes read.
  public func add(_ bytes: UnsafeBufferPointer<UInt8>) {
    lock.lock()
    defer { lock.unlock() }
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    count += bytes.count
  }

  /// The digest of everything added so far, and how many bytes that was.
  public var value: (digest: Int, count: Int) {
    lock.lock()
    defer { lock.unlock() }
    let copy = hasher
    return (copy.finalize(), count)
  }

  /// Whether the file at `path` holds exactly the bytes added (read again in chunks, never whole).
  func matches(fileAt path: String) -> Bool {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { return false }
    defer { close(file) }
    let expected = value
    let again = StreamDigest()
    let read = FileDescriptorIO.contents(of: file) { offset, chunk in
      guard offset + chunk.count <= expected.count else { return false }
      again.add(chunk)
      return true
    }
    return read == expected.count && again.value == expected
  }
}
