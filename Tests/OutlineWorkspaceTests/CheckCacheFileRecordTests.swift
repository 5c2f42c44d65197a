import Foundation
import OutlineFiles
import TestSupport
import Testing

@testable import OutlineWorkspace

/// The files' records of the lint cache's index: what matches a `stat`, git's racy rule, and
/// the tables read back as they were written.
@Suite struct CheckCacheFileRecordTests {
  typealias Time = CheckCacheFileRecord.Time

  func digest(_ number: UInt8) -> CheckCacheIndex.Key {
    CheckCacheIndex.Key(Array(repeating: number, count: 32))!
  }

  /// A `stat` of a regular file.
  func status(inode: UInt64 = 7, size: Int = 100, modified: Time, changed: Time) -> stat {
    var info = stat()
    info.st_dev = 3
    info.st_ino = UInt(inode)
    info.st_size = size
    info.st_mode = S_IFREG | 0o644
    info.st_mtim = timespec(tv_sec: Int(modified.seconds), tv_nsec: Int(modified.nanoseconds))
    info.st_ctim = timespec(tv_sec: Int(changed.seconds), tv_nsec: Int(changed.nanoseconds))
    return info
  }

  let then = Time(seconds: 1_700_000_000, nanoseconds: 123_456_789)

  @Test func aRecordMatchesOnlyTheStatItWasMadeFrom() {
    let info = status(modified: then, changed: then)
    let record = CheckCacheFileRecord(
      info, hashed: then.adding(Time(seconds: 1, nanoseconds: 0)), digest: digest(1), reader: 5)
    #expect(record.matches(info, reader: 5))
    #expect(!record.matches(info, reader: 6), "another user may not be able to read it")
    var changes: [(String, (inout stat) -> Void)] = [
      ("device", { $0.st_dev += 1 }), ("inode", { $0.st_ino += 1 }), ("size", { $0.st_size += 1 }),
      ("mode", { $0.st_mode ^= 0o100 }), ("modified ns", { $0.st_mtim.tv_nsec += 1 }),
      ("modified s", { $0.st_mtim.tv_sec += 1 }), ("changed ns", { $0.st_ctim.tv_nsec += 1 }),
      ("changed s", { $0.st_ctim.tv_sec -= 1 }),
    ]
    changes.append(("type", { $0.st_mode = S_IFLNK | 0o644 }))
    for (name, change) in changes {
      var other = info
      change(&other)
      #expect(!record.matches(other, reader: 5), "\(name)")
    }
  }

  /// Git's rule: a time not strictly older than the hashing, at the precision the time shows.
  @Test func aTimeNotOlderThanTheHashingIsRacy() {
    func racy(modified: Time, changed: Time? = nil, hashed: Time) -> Bool {
      let changed = changed ?? Time(seconds: 1, nanoseconds: 1)
      return CheckCacheFileRecord(
        status(modified: modified, changed: changed), hashed: hashed, digest: digest(1)
      )
      .isRacy
    }
    let ns = { (seconds: Int64, nanoseconds: UInt32) in Time(seconds: seconds, nanoseconds: nanoseconds) }
    #expect(racy(modified: ns(100, 123_456_789), hashed: ns(100, 123_456_789)), "the same time")
    #expect(racy(modified: ns(100, 123_456_790), hashed: ns(100, 123_456_789)), "after")
    #expect(!racy(modified: ns(100, 123_456_787), hashed: ns(100, 123_456_789)), "before")
    #expect(racy(modified: ns(1, 1), changed: ns(100, 123_456_789), hashed: ns(100, 123_456_789)), "changed")
    #expect(!racy(modified: ns(99, 999_999_999), hashed: ns(100, 0)))
    // A time in whole seconds may be a file system's that keeps no more (FAT keeps two).
    #expect(racy(modified: ns(100, 0), hashed: ns(101, 500_000_000)))
    #expect(racy(modified: ns(99, 0), hashed: ns(100, 999_999_999)))
    #expect(!racy(modified: ns(99, 0), hashed: ns(101, 0)))
    // A time in whole microseconds may be a file system's that keeps those.
    #expect(racy(modified: ns(100, 5_000), hashed: ns(100, 5_400)))
    #expect(!racy(modified: ns(100, 5_000), hashed: ns(100, 6_000)))
    #expect(!racy(modified: ns(-5, 7), hashed: ns(100, 0)), "before 1970")
  }

  @Test func filesAreReadBackAndPrunedAfterAWeek() throws {
    let today = 20_000
    var index = CheckCacheIndex()
    index.set(digest(9), body: [1, 2], day: today)
    let info = status(modified: then, changed: then)
    let record = CheckCacheFileRecord(
      info, hashed: then.adding(Time(seconds: 0, nanoseconds: 1)), digest: digest(2))
    index.setFile(42, record, day: today)
    index.setFile(
      7,
      CheckCacheFileRecord(status(inode: 8, modified: then, changed: then), hashed: then, digest: digest(3)),
      day: today - CheckCacheIndex.keptDays - 1)
    let read = try CheckCacheIndex.decode(index.encoded()).get()
    #expect(read.file(42) == record && read.fileLastUsed(42) == today)
    #expect(read.file(7)?.inode == 8 && read.file(8) == nil)
    #expect(read.places == [7, 42])
    #expect(read.earliestDay == today - CheckCacheIndex.keptDays - 1)
    let pruned = try CheckCacheIndex.decode(read.pruned(today: today, keeping: []).encoded()).get()
    #expect(pruned.places == [42] && pruned.file(42) == record)
    var used = read
    used.useFile(7, day: today)
    #expect(used.pruned(today: today, keeping: []).places == [7, 42])
  }

  /// Every key and place written is found where it was put, whatever their first words share;
  /// nothing else is found; bodies shared by many records are written once.
  @Test func lookupsFindWhatWasWritten() throws {
    try Property.check("index lookups", cases: 40) { random, _ in
      var index = CheckCacheIndex()
      var keys: [CheckCacheIndex.Key: [UInt8]] = [:]
      var places: [UInt64: CheckCacheIndex.Key] = [:]
      let bodies = (0..<3).map { number in [UInt8](repeating: UInt8(number), count: 10 + number) }
      for _ in 0..<Int.random(in: 0...60, using: &random) {
        // Keys often share their first word (only the last byte differs).
        var bytes = [UInt8](repeating: UInt8.random(in: 0...2, using: &random), count: 32)
        bytes[31] = UInt8.random(in: 0...255, using: &random)
        let key = CheckCacheIndex.Key(bytes)!
        let body = bodies.randomElement(using: &random)!
        keys[key] = body
        index.set(key, body: body, day: 20_000)
        let place = UInt64.random(in: 0...200, using: &random)
        let content = CheckCacheIndex.Key([UInt8](repeating: UInt8(place % 256), count: 32))!
        places[place] = content
        index.setFile(
          place,
          CheckCacheFileRecord(
            status(inode: place, modified: then, changed: then), hashed: then, digest: content), day: 20_000)
      }
      let bytes = index.encoded()
      guard case .success(let read) = CheckCacheIndex.decode(bytes) else { return "not read back" }
      for (key, body) in keys where read.body(key).map(Array.init) != body { return "key \(key) lost" }
      for (place, content) in places where read.file(place)?.digest != content {
        return "place \(place) lost"
      }
      if read.count != keys.count || read.places.count != places.count { return "counts differ" }
      let missing = CheckCacheIndex.Key([UInt8](repeating: 9, count: 32))!
      if read.entry(missing) != nil || read.file(1_000) != nil { return "found what was not written" }
      if bytes.count > 200 + keys.count * CheckCacheIndex.recordWidth + places.count
        * CheckCacheIndex.fileWidth + 3 * 24
      {
        return "bodies written more than once"
      }
      if read.encoded() != bytes { return "not written again the same" }
      return nil
    }
  }

  /// A table out of order is not one this tool wrote: corrupt.
  @Test func aTableOutOfOrderIsCorrupt() {
    var index = CheckCacheIndex()
    for place: UInt64 in [1, 2] {
      index.setFile(
        place, CheckCacheFileRecord(status(modified: then, changed: then), hashed: then, digest: digest(1)),
        day: 1)
    }
    var bytes = index.encoded()
    bytes.removeLast(32)
    let rows = bytes.count - 2 * CheckCacheIndex.fileWidth
    bytes[rows] = 3  // the first place, now after the second
    bytes += SHA256Digest.of(bytes)
    guard case .failure(.corrupt) = CheckCacheIndex.decode(bytes) else {
      Issue.record("an index out of order was read")
      return
    }
  }
}
