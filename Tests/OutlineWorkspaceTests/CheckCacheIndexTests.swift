import OutlineCore
import OutlineFiles
import Testing

@testable import OutlineWorkspace

/// The lint cache's index: what pruning keeps, and which indexes are read as another version's.
@Suite struct CheckCacheIndexTests {
  func key(_ number: UInt8) -> CheckCacheIndex.Key {
    CheckCacheIndex.Key(Array(repeating: number, count: 32))!
  }

  let today = 20_000

  @Test func pruningDropsWhatNoRunUsedForAWeek() {
    var index = CheckCacheIndex()
    index.set(key(1), body: [1], day: today)
    index.set(key(2), body: [2], day: today - CheckCacheIndex.keptDays)
    index.set(key(3), body: [3], day: today - CheckCacheIndex.keptDays - 1)
    index.set(key(4), body: [4], day: today - 400)
    index.set(key(5), body: [5], day: today + 30)
    let pruned = index.pruned(today: today, keeping: [key(4)])
    #expect(pruned.keys == [key(1), key(2), key(4), key(5)])
    #expect(pruned.lastUsed(key(5)) == today, "a day to come is taken as today")
    #expect(pruned.lastUsed(key(4)) == today - 400, "kept for the run, its day as it was")
    #expect(pruned.body(key(2)).map(Array.init) == [2])
  }

  @Test func pruningKeepsTheMostRecentlyUsedWithinTheLimit() {
    var index = CheckCacheIndex()
    for number in 1...10 {
      index.set(
        key(UInt8(number)), body: [UInt8](repeating: UInt8(number), count: 100), day: today - number % 5)
    }
    // The run's own two records first, then by day (ties by key) while 500 bytes hold.
    let pruned = index.pruned(today: today, keeping: [key(9), key(4)], byteLimit: 500)
    #expect(Set(pruned.keys) == [key(9), key(4), key(5), key(10), key(1)])
    #expect(pruned.bodyBytes == 500)
    // The run's own records stay even beyond the limit.
    #expect(index.pruned(today: today, keeping: [key(1), key(2)], byteLimit: 50).count == 2)
  }

  @Test func aReplacedRecordIsWrittenOnce() throws {
    var index = CheckCacheIndex()
    index.set(key(1), body: [1, 2, 3], day: today)
    index.set(key(1), body: [4], day: today)
    let read = try CheckCacheIndex.decode(index.encoded()).get()
    #expect(read.count == 1 && read.body(key(1)).map(Array.init) == [4])
    #expect(index.encoded().count == read.encoded().count)
  }

  /// Another tool version's index, or a sound one of an earlier format, holds none of this
  /// version's keys: read as another version's, not as trouble.
  @Test func anotherVersionsIndexIsNotTrouble() {
    var index = CheckCacheIndex(toolVersion: "0.0.1")
    index.set(key(1), body: [1], day: today)
    var bytes = index.encoded()
    #expect(rejection(bytes) == .otherVersion)
    #expect(rejection(bytes, version: "0.0.1") == nil)
    bytes[CheckCacheIndex.magic.count] = UInt8(CheckCacheEntry.format - 1)
    bytes.removeLast(32)
    bytes += SHA256Digest.of(bytes)
    #expect(rejection(bytes, version: "0.0.1") == .otherVersion)
  }

  func rejection(_ bytes: [UInt8], version: String = ToolVersion.current) -> CheckCacheIndex.Rejection? {
    if case .failure(let why) = CheckCacheIndex.decode(bytes, toolVersion: version) { return why }
    return nil
  }
}
