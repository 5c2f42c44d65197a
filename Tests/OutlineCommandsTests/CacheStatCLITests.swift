import Foundation
import OutlineWorkspace
import TestSupport
import Testing

/// The cache's file records (CLI.md, "The cache"): a file whose `stat` is as recorded when it
/// was hashed is not read again; any change to it, or a record that cannot vouch for it
/// (racy), has it read and hashed, and the content digest decides.
@Suite struct CacheStatCLITests {
  let cache = CacheCLITests()

  /// How many files `--verbose` says were not read again.
  func unread(_ run: CLI.Output) -> Int? {
    guard let line = run.stderr.split(separator: "\n").first(where: { $0.hasPrefix("cache: ") }),
      let end = line.range(of: " files not read again") ?? line.range(of: " file not read again")
    else { return nil }
    return Int(line[..<end.lowerBound].split(separator: " ").last ?? "")
  }

  /// A project whose files were all hashed by a first run, at times older than that run.
  func warmed() throws -> URL {
    let folder = try cache.project(["shadow.outline": "<outline><Tag name=\"s\"/></outline>\n"])
    // Times well before the run, as a checkout's files have: their records are not racy.
    var times = [
      timespec(tv_sec: time(nil) - 600, tv_nsec: 5), timespec(tv_sec: time(nil) - 600, tv_nsec: 5),
    ]
    for name in ["clean.outline", "broken.outline", "odd.outline", "list.json", "shadow.outline"] {
      #expect(utimensat(AT_FDCWD, folder.appendingPathComponent(name).path, &times, 0) == 0)
    }
    // Their status change times (now) a few clock ticks before the run's.
    usleep(20_000)
    _ = try cache.lint(cache.paths, in: folder)
    return folder
  }

  /// The clean files (two outlines) are not read again; those with problems are, for their lines.
  @Test func aWarmRunReadsOnlyTheFilesWithProblems() throws {
    let folder = try warmed()
    let cold = try cache.lint(["--no-cache"] + cache.paths, in: folder)
    let warm = try cache.lint(["--verbose"] + cache.paths, in: folder)
    #expect(warm.stdout == cold.stdout)
    #expect(cache.hits(warm) == 5 && unread(warm) == 2, "\(warm.stderr)")
  }

  /// Rewritten in place with the same size, its modification time put back: its status
  /// change time still moved, so it is read again.
  @Test func anEditInPlaceWithItsTimePutBackIsSeen() throws {
    let folder = try warmed()
    let path = folder.appendingPathComponent("clean.outline").path
    var before = stat()
    #expect(stat(path, &before) == 0)
    try CLI.write(["clean.outline": "<outline><Nop name=\"a\"/></outline>\n"], in: folder)
    var times = [before.st_atim, before.st_mtim]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    var after = stat()
    #expect(stat(path, &after) == 0 && after.st_size == before.st_size && after.st_ino == before.st_ino)
    let run = try cache.lint(["--verbose"] + cache.paths, in: folder)
    #expect(run.stdout.contains("'Nop' is not an entity"), "\(run.stdout)")
    #expect(cache.hits(run) == 4 && unread(run) == 1, "\(run.stderr)")
    try cache.expectSame(cache.paths, in: folder, hits: 5)
  }

  /// Replaced by a rename (a new inode), with the same size and times: read again.
  @Test func aFileReplacedByARenameIsSeen() throws {
    let folder = try warmed()
    let path = folder.appendingPathComponent("clean.outline").path
    var before = stat()
    #expect(stat(path, &before) == 0)
    try CLI.write(["new.tmp": "<outline><Nop name=\"a\"/></outline>\n"], in: folder)
    let replacement = folder.appendingPathComponent("new.tmp").path
    var times = [before.st_atim, before.st_mtim]
    #expect(utimensat(AT_FDCWD, replacement, &times, 0) == 0)
    #expect(rename(replacement, path) == 0)
    let run = try cache.lint(["--verbose"] + cache.paths, in: folder)
    #expect(run.stdout.contains("'Nop' is not an entity"), "\(run.stdout)")
    #expect(unread(run) == 1, "\(run.stderr)")
  }

  /// Touched but not changed: read and hashed again, still a hit; its new record spares the
  /// next run reading it.
  @Test func aTouchedFileIsHashedAgainAndStillHits() throws {
    let folder = try warmed()
    var times = [
      timespec(tv_sec: time(nil) - 300, tv_nsec: 7), timespec(tv_sec: time(nil) - 300, tv_nsec: 7),
    ]
    #expect(utimensat(AT_FDCWD, folder.appendingPathComponent("clean.outline").path, &times, 0) == 0)
    usleep(20_000)
    let touched = try cache.lint(["--verbose"] + cache.paths, in: folder)
    #expect(cache.hits(touched) == 5 && unread(touched) == 1, "\(touched.stderr)")
    let next = try cache.lint(["--verbose"] + cache.paths, in: folder)
    #expect(cache.hits(next) == 5 && unread(next) == 2, "\(next.stderr)")
  }

  /// A file whose times are not older than its hashing (here, in the future) is read again on
  /// every run, its `stat` unchanged or not: its record cannot vouch for it.
  @Test func aRacyFileIsAlwaysReadAgain() throws {
    let folder = try warmed()
    var times = [
      timespec(tv_sec: time(nil) + 3600, tv_nsec: 0), timespec(tv_sec: time(nil) + 3600, tv_nsec: 0),
    ]
    #expect(utimensat(AT_FDCWD, folder.appendingPathComponent("clean.outline").path, &times, 0) == 0)
    for _ in 0..<2 {
      let run = try cache.lint(["--verbose"] + cache.paths, in: folder)
      #expect(cache.hits(run) == 5 && unread(run) == 1, "\(run.stderr)")
    }
  }

  /// The racy rule is what stands between a record and a file changed in the tick it was
  /// hashed: a record of the file's present `stat` with the digest of its former bytes is
  /// not believed when its hashing time is not after the file's times, and is (which shows
  /// the rule is what refused it) when it is.
  @Test func aRecordHashedInTheFilesOwnTickIsNotBelieved() throws {
    let folder = try warmed()
    let indexPath = folder.appendingPathComponent(".outline-cache").path
    let path = folder.appendingPathComponent("clean.outline").path
    var old = stat()
    #expect(stat(path, &old) == 0)
    // The digest of its bytes before.
    let before = try cache.index(indexPath)
    let former = before.places.lazy.compactMap { before.file($0) }.first { $0.inode == UInt64(old.st_ino) }
    // The file changed in place, with the same size.
    try CLI.write(["clean.outline": "<outline><Nop name=\"a\"/></outline>\n"], in: folder)
    var now = stat()
    #expect(stat(path, &now) == 0)
    func forge(hashedAfter: Bool) throws {
      var index = try cache.index(indexPath)
      guard let place = index.places.first(where: { index.file($0)?.inode == UInt64(old.st_ino) }),
        let record = former
      else {
        Issue.record("no record of the file")
        return
      }
      var hashed = CheckCacheFileRecord.Time(
        seconds: Int64(now.st_mtim.tv_sec), nanoseconds: UInt32(now.st_mtim.tv_nsec))
      if hashedAfter { hashed.seconds += 5 }
      index.setFile(
        place, CheckCacheFileRecord(now, hashed: hashed, digest: record.digest), day: Int(time(nil) / 86_400))
      try cache.write(index, to: indexPath)
    }
    try forge(hashedAfter: false)
    let refused = try cache.lint(["--verbose"] + cache.paths, in: folder)
    #expect(refused.stdout.contains("'Nop' is not an entity"), "\(refused.stdout)")
    try forge(hashedAfter: true)
    let believed = try cache.lint(cache.paths, in: folder)
    #expect(!believed.stdout.contains("'Nop' is not an entity"))
  }

  /// An edited model or configuration is checked again though no document's `stat` changed.
  @Test func anEditedModelOrConfigurationIsCheckedAgainWithoutRereading() throws {
    let folder = try warmed()
    try CLI.write(
      [".outline.json": "{\"model\": \"Model.xcdatamodeld\", \"rules\": {\"OL200\": \"warning\"}}\n"],
      in: folder)
    let configured = try cache.lint(["--verbose"] + cache.paths, in: folder)
    #expect(cache.hits(configured) == 0, "\(configured.stderr)")
    #expect(configured.stdout == (try cache.lint(["--no-cache"] + cache.paths, in: folder)).stdout)
    try CLI.write(
      [
        "Model.xcdatamodeld/Model.xcdatamodel/contents": CacheCLITests.model.replacingOccurrences(
          of: "Tag", with: "Nope")
      ],
      in: folder)
    let modelled = try cache.lint(["--verbose"] + cache.paths, in: folder)
    #expect(cache.hits(modelled) == 1, "only odd.outline's model is as it was: \(modelled.stderr)")
    #expect(modelled.stdout == (try cache.lint(["--no-cache"] + cache.paths, in: folder)).stdout)
  }
}
