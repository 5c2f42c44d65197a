import Foundation
import OutlineCore
import OutlineFiles
import TestSupport
import Testing

@testable import OutlineWorkspace

/// The lint cache's entries: read back as written, and never read when cut short, altered,
/// written by a newer version or for another key.
@Suite struct CheckCacheEntryTests {
  let key = SHA256Digest.of(Array("key".utf8))

  var sample: CheckCacheEntry {
    CheckCacheEntry(
      model: .file(.inProject("Model.xcdatamodeld/Model.xcdatamodel/contents")),
      dependencies: [.init(path: .inProject("Model.xcdatamodeld"), digest: SHA256Digest.of([1, 2]))],
      diagnostics: [
        Diagnostic(
          .duplicateOrder, "two siblings say order 1 é", at: TextRange(start: 3, end: 9),
          related: [
            RelatedLocation(range: TextRange(start: 0, end: 2), message: "this one"),
            RelatedLocation(range: TextRange(start: 5, end: 6), message: "in the model"),
          ]),
        Diagnostic(.notWellFormed, "cut short", at: TextRange(start: 10, end: 10), severity: .warning),
      ],
      relatedFiles: [[nil, .asWritten("../elsewhere/contents")], []], itemNames: ["id:milk", ""])
  }

  @Test func readsBackWhatItWrote() {
    let bytes = sample.encoded(key: key)
    #expect(CheckCacheEntry.decode(bytes, key: key) == .success(sample))
    var unnamed = sample
    unnamed.itemNames = nil
    #expect(CheckCacheEntry.decode(unnamed.encoded(key: key), key: key) == .success(unnamed))
    #expect(CheckCacheEntry.decode(bytes, key: SHA256Digest.of([])) == .failure(.otherKey))
  }

  @Test func anyCutOrChangedByteIsRefused() {
    let bytes = sample.encoded(key: key)
    for length in 0..<bytes.count {
      guard case .failure = CheckCacheEntry.decode(Array(bytes[..<length]), key: key) else {
        Issue.record("cut to \(length) bytes was read")
        return
      }
    }
    for index in bytes.indices {
      var changed = bytes
      changed[index] ^= 0x20
      guard case .failure = CheckCacheEntry.decode(changed, key: key) else {
        Issue.record("byte \(index) changed was read")
        return
      }
    }
  }

  @Test func aNewerFormatIsSaidToBeNewer() {
    var bytes = sample.encoded(key: key)
    bytes[CheckCacheEntry.magic.count] = UInt8(CheckCacheEntry.format + 1)
    #expect(CheckCacheEntry.decode(bytes, key: key) == .failure(.newer))
  }

  @Test func randomBytesNeverCrashAndAreRefused() throws {
    try Property.check("random entry bytes", cases: 200) { random, _ in
      var bytes = CheckCacheEntry.magic + [UInt8(CheckCacheEntry.format)] + [UInt8](repeating: 0, count: 7)
      bytes += (0..<Int.random(in: 0...200, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      if case .success = CheckCacheEntry.decode(bytes, key: key) {
        return "random bytes were read as an entry"
      }
      return nil
    }
  }

  @Test func pathsInTheProjectAreKeptRelative() {
    #expect(CheckCacheEntry.StoredPath("/p/a/b", base: "/p/a") == .inProject("b"))
    #expect(CheckCacheEntry.StoredPath("/p/a", base: "/p/a") == .inProject(""))
    #expect(CheckCacheEntry.StoredPath("/p/ab", base: "/p/a") == .asWritten("/p/ab"))
    #expect(CheckCacheEntry.StoredPath("x/y", base: "/p/a") == .asWritten("x/y"))
    #expect(CheckCacheEntry.StoredPath("/p/a/b", base: "/p/a").path(base: "/q") == "/q/b")
    #expect(CheckCacheEntry.StoredPath("/b", base: "/").path(base: "/") == "/b")
  }
}
