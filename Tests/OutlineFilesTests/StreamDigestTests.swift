import Foundation
import TestSupport
import Testing

@testable import OutlineFiles

/// A streamed file's lost-update check: the digest of what was read against the file read again.
@Suite struct StreamDigestTests {
  func file(_ bytes: [UInt8]) throws -> String {
    let path = Scratch.path("digest")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  func digest(_ bytes: [UInt8], chunk: Int) -> StreamDigest {
    let digest = StreamDigest()
    bytes.withUnsafeBufferPointer { all in
      var start = 0
      while start < all.count {
        let end = min(all.count, start + chunk)
        digest.add(UnsafeBufferPointer(rebasing: all[start..<end]))
        start = end
      }
    }
    return digest
  }

  @Test func theChunkingDoesNotMatter() {
    let bytes = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
    let whole = digest(bytes, chunk: bytes.count).value
    for chunk in [1, 7, 64, 4096, 65_537] {
      #expect(digest(bytes, chunk: chunk).value == whole, "chunk \(chunk)")
    }
  }

  @Test func aFileMatchesOnlyTheBytesThatWereRead() throws {
    let bytes = Array(String(repeating: "<Item order=\"0\"/>\n", count: 200_000).utf8)
    let path = try file(bytes)
    defer { unlink(path) }
    let read = digest(bytes, chunk: 1 << 20)
    #expect(read.matches(fileAt: path))
    // One byte changed, same size: the digest sees it.
    var changed = bytes
    changed[bytes.count / 2] = UInt8(ascii: "1")
    try Data(changed).write(to: URL(fileURLWithPath: path))
    #expect(!read.matches(fileAt: path))
    // Longer, shorter.
    try Data(bytes + [0x0A]).write(to: URL(fileURLWithPath: path))
    #expect(!read.matches(fileAt: path))
    try Data(bytes.dropLast()).write(to: URL(fileURLWithPath: path))
    #expect(!read.matches(fileAt: path))
  }

  /// A change whose stamps the kernel's clock tick hides (same size, same times) is still seen
  /// for a freshly written streamed file, without waiting for its stamps to age.
  @Test func aFreshSnapshotComparesTheDigestWhenTheStampsAgree() throws {
    let bytes = Array(String(repeating: "<Item title=\"a\"/>\n", count: 1000).utf8)
    let path = try file(bytes)
    defer { unlink(path) }
    let read = digest(bytes, chunk: 4096)
    let snapshot = try #require(FileSnapshot.take(path)).digesting(read)
    // The stamps agree (the status is the one taken), the file was written just now.
    #expect(snapshot.matches(snapshot.status, at: path))
    var changed = bytes
    changed[10] = UInt8(ascii: "b")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.write(contentsOf: changed)
    try handle.close()
    #expect(!snapshot.matches(snapshot.status, at: path))
  }
}
