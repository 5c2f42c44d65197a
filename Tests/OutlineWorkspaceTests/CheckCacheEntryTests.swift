import Foundation
import OutlineCore
import OutlineFiles
import TestSupport
import Testing

@testable import OutlineWorkspace

/// The lint cache's entries in their index: read back as written, and never read when the
/// index is cut short, altered or written by a newer version.
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

  /// An index holding `sample` under `key` (and the entry without item names under another).
  var index: CheckCacheIndex {
    var index = CheckCacheIndex()
    index.set(CheckCacheIndex.Key(key)!, entry: sample, day: 20_000)
    var unnamed = sample
    unnamed.itemNames = nil
    index.set(CheckCacheIndex.Key(SHA256Digest.of([]))!, entry: unnamed, day: 20_001)
    return index
  }

  /// Why `bytes` were refused as an index, nil when they were read.
  func rejection(_ bytes: [UInt8]) -> CheckCacheIndex.Rejection? {
    if case .failure(let why) = CheckCacheIndex.decode(bytes) { return why }
    return nil
  }

  @Test func readsBackWhatItWrote() throws {
    let bytes = index.encoded()
    let read = try CheckCacheIndex.decode(bytes).get()
    #expect(read.count == 2)
    #expect(read.entry(CheckCacheIndex.Key(key)!) == .some(.some(sample)))
    var unnamed = sample
    unnamed.itemNames = nil
    #expect(read.entry(CheckCacheIndex.Key(SHA256Digest.of([]))!) == .some(.some(unnamed)))
    #expect(read.lastUsed(CheckCacheIndex.Key(SHA256Digest.of([]))!) == 20_001)
    #expect(read.entry(CheckCacheIndex.Key(SHA256Digest.of([1]))!) == nil)
    #expect(read.encoded() == bytes, "written again the same")
    #expect(CheckCacheIndex.Key(key)!.digest == key)
  }

  @Test func anyCutOrChangedByteIsRefused() {
    let bytes = index.encoded()
    for length in 0..<bytes.count {
      guard case .failure = CheckCacheIndex.decode(Array(bytes[..<length])) else {
        Issue.record("cut to \(length) bytes was read")
        return
      }
    }
    for position in bytes.indices {
      var changed = bytes
      changed[position] ^= 0x20
      guard case .failure = CheckCacheIndex.decode(changed) else {
        Issue.record("byte \(position) changed was read")
        return
      }
    }
  }

  @Test func aNewerFormatIsSaidToBeNewer() {
    var bytes = index.encoded()
    bytes[CheckCacheIndex.magic.count] = UInt8(CheckCacheEntry.format + 1)
    #expect(rejection(bytes) == .newer)
    bytes[CheckCacheIndex.magic.count] = UInt8(CheckCacheEntry.format - 1)
    #expect(rejection(bytes) == .corrupt, "the checksum no longer holds")
  }

  @Test func randomBytesNeverCrashAndAreRefused() throws {
    try Property.check("random index bytes", cases: 200) { random, _ in
      var bytes = CheckCacheIndex.magic + [UInt8(CheckCacheEntry.format)] + [UInt8](repeating: 0, count: 7)
      bytes += (0..<Int.random(in: 0...200, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      if case .success = CheckCacheIndex.decode(bytes) {
        return "random bytes were read as an index"
      }
      // Random bodies behind a sound index: never an entry, never a crash.
      var index = CheckCacheIndex()
      let body = (0..<Int.random(in: 0...300, using: &random)).map { _ in
        UInt8.random(in: 0...3, using: &random)
      }
      index.set(CheckCacheIndex.Key(key)!, body: body, day: 1)
      if case .some(.some) = index.entry(CheckCacheIndex.Key(key)!), !body.isEmpty,
        CheckCacheEntry.decodeBody(body, in: 0..<body.count) == nil
      {
        return "a body read differently in the index"
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
