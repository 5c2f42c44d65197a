import Foundation
import TestSupport
import Testing

@testable import OutlineFiles

/// `AtomicFileWriter` keeps what the user had (issue 14): links, modes, owners, read-only files,
/// files nobody named, the input, and updates made by someone else meanwhile.
@Suite struct AtomicFileTests: FolderFixture {
  let folder: String

  init() throws {
    folder = Scratch.path("atomic")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  func info(_ name: String, followingLinks: Bool = false) -> stat {
    var result = stat()
    _ = followingLinks ? stat(path(name), &result) : lstat(path(name), &result)
    return result
  }

  /// Nothing but the named files is left in the folder (no temporary file).
  func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
  }

  // MARK: - Item 2: links, modes, owners, read-only files

  @Test func writesThroughRelativeAbsoluteAndChainedLinks() throws {
    try FileManager.default.createDirectory(atPath: path("real"), withIntermediateDirectories: true)
    try put("old", "real/file")
    symlink("real/file", path("relative"))
    symlink(path("relative"), path("absolute"))
    for name in ["relative", "absolute"] {
      try AtomicFile.write(Array("new through \(name)".utf8), to: path(name))
      #expect(info(name).st_mode & S_IFMT == S_IFLNK, "\(name) is no longer a link")
      #expect(text("real/file") == "new through \(name)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: path("real")) == ["file"])
    #expect(try leftovers().isEmpty)
  }

  @Test func danglingLinkGetsItsTargetCreated() throws {
    symlink("target", path("link"))
    try AtomicFile.write(Array("made".utf8), to: path("link"))
    #expect(info("link").st_mode & S_IFMT == S_IFLNK)
    #expect(text("target") == "made")
  }

  @Test func linkLoopIsAnErrorNotAHang() throws {
    symlink("b", path("a"))
    symlink("a", path("b"))
    #expect(throws: WriteError.self) { try AtomicFile.write(Array("x".utf8), to: path("a")) }
    #expect(info("a").st_mode & S_IFMT == S_IFLNK)
  }

  @Test func hardLinksAllSeeTheNewContents() throws {
    try put("old contents that are longer", "one")
    link(path("one"), path("two"))
    let inode = info("one").st_ino
    try AtomicFile.write(Array("new".utf8), to: path("two"))
    #expect(text("one") == "new" && text("two") == "new")
    #expect(info("one").st_ino == inode && info("two").st_ino == inode && info("one").st_nlink == 2)
    // Growing, too.
    try AtomicFile.write(Array(repeating: UInt8(ascii: "z"), count: 300_000), to: path("one"))
    #expect(text("two") == String(repeating: "z", count: 300_000))
    #expect(try leftovers().isEmpty)
  }

  @Test(arguments: [0o600, 0o640, 0o755, 0o2775] as [mode_t])
  func modeIsKept(mode: mode_t) throws {
    try put("old", "file")
    chmod(path("file"), mode)
    try AtomicFile.write(Array("new".utf8), to: path("file"))
    #expect(info("file").st_mode & 0o7777 == mode)
    #expect(text("file") == "new")
  }

  @Test(.enabled(if: getuid() == 0, "changing a file's owner needs root"))
  func ownerIsKept() throws {
    try put("old", "file")
    chown(path("file"), 65534, 65534)
    let inode = info("file").st_ino
    try AtomicFile.write(Array("new".utf8), to: path("file"))
    #expect(info("file").st_uid == 65534 && info("file").st_gid == 65534)
    #expect(info("file").st_ino != inode, "root can give the owner away: the atomic rename is used")
    #expect(text("file") == "new")
  }

  @Test func readOnlyFileIsRefusedAndKept() throws {
    try put("old", "file")
    chmod(path("file"), 0o444)
    do {
      try AtomicFile.write(Array("new".utf8), to: path("file"))
      Issue.record("a read-only file was replaced")
    } catch {
      #expect(error.reason == .readOnly)
      #expect(error.description == "'\(path("file"))' is read-only; not changed")
    }
    #expect(text("file") == "old")
    #expect(try leftovers().isEmpty)
  }

  @Test func folderIsNotARegularFile() throws {
    try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
    #expect {
      try AtomicFile.write(Array("x".utf8), to: path("sub"))
    } throws: { ($0 as? WriteError)?.reason == .notRegularFile }
  }

  // MARK: - Item 3: files nobody named, and the input

  @Test func keepRefusesAFileWithOtherContents() throws {
    try put("mine", "file")
    #expect {
      try AtomicFile.write(Array("new".utf8), to: path("file"), existing: .keep)
    } throws: { ($0 as? WriteError)?.reason == .exists }
    #expect(text("file") == "mine")
    // The same bytes: nothing to lose, nothing to do.
    try AtomicFile.write(Array("mine".utf8), to: path("file"), existing: .keep)
    // A new file appears; a dangling link counts as something there.
    try AtomicFile.write(Array("new".utf8), to: path("fresh"), existing: .keep)
    #expect(text("fresh") == "new")
    symlink("nowhere", path("dangling"))
    #expect(throws: WriteError.self) {
      try AtomicFile.write(Array("new".utf8), to: path("dangling"), existing: .keep)
    }
    #expect(!FileManager.default.fileExists(atPath: path("nowhere")))
    #expect(try leftovers().isEmpty)
  }

  @Test func outputThatIsTheInputIsRefused() throws {
    try put("input", "in")
    symlink("in", path("soft"))
    link(path("in"), path("hard"))
    for name in ["in", "soft", "hard"] {
      #expect {
        _ = try AtomicFileWriter(path: path(name), distinctFrom: path("in"))
      } throws: { ($0 as? WriteError)?.reason == .sameAsInput }
    }
    #expect(AtomicFile.sameFile(path("soft"), path("hard")))
    #expect(!AtomicFile.sameFile(path("in"), path("absent")))
    #expect(text("in") == "input")
  }

  // MARK: - Item 4: no lost update

  func snapshot(_ name: String) throws -> FileSnapshot {
    let taken = try #require(FileSnapshot.take(path(name)))
    return taken.holding(Array(FileManager.default.contents(atPath: path(name))!))
  }

  @Test func unchangedFileIsWritten() throws {
    try put("read", "file")
    try AtomicFile.write(Array("new".utf8), to: path("file"), unchangedSince: try snapshot("file"))
    #expect(text("file") == "new")
  }

  /// Replaced by rename, rewritten in place, removed, or (through a hard link) rewritten: refused.
  @Test(arguments: ["rename", "in place", "removed", "hard link"])
  func changedFileIsLeftAlone(change: String) throws {
    try put("read by us", "file")
    if change == "hard link" { link(path("file"), path("other")) }
    let read = try snapshot("file")
    switch change {
    case "rename":
      try put("theirs", "theirs")
      rename(path("theirs"), path("file"))
    case "removed": unlink(path("file"))
    default:
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path("file")))
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: Data("theirs".utf8))
      try handle.close()
    }
    do {
      try AtomicFile.write(Array("ours".utf8), to: path("file"), unchangedSince: read, activity: "formatted")
      Issue.record("a changed file was replaced")
    } catch {
      #expect(error.reason == .changed)
      #expect(error.description == "'\(path("file"))' changed while being formatted; run again")
    }
    #expect(text("file") == (change == "removed" ? nil : "theirs"))
    #expect(try leftovers().isEmpty)
  }

  /// A writer that rewrites the file in place (`cat x > file`) and opens it after the commit's
  /// last check but before its rename writes into the file the rename takes away: it is put
  /// back, with the writes still to come landing in it, and the commit reports the change.
  /// Truncated and rewritten, or overwritten with as many bytes (same size; caught by contents).
  @Test(arguments: ["truncated", "same size"])
  func inPlaceWriterInTheRenameWindowIsKept(style: String) throws {
    try put("read by us", "file")
    let writer = try AtomicFileWriter(
      path: path("file"), unchangedSince: try snapshot("file"), activity: "formatted")
    writer.write(Array("ours".utf8))
    var theirs: Int32 = -1
    func add(_ text: String) {
      _ = Array(text.utf8).withUnsafeBytes { write(theirs, $0.baseAddress, $0.count) }
    }
    writer.beforeRename = {
      theirs = open(self.path("file"), O_WRONLY | (style == "truncated" ? O_TRUNC : 0))
      add(style == "truncated" ? "theirs" : "READ BY US")
    }
    defer { close(theirs) }
    do {
      try writer.commit()
      Issue.record("the other writer's update was lost")
    } catch {
      #expect(error.reason == .changed)
      #expect(error.description == "'\(path("file"))' changed while being formatted; run again")
    }
    add(", still writing")
    #expect(text("file") == (style == "truncated" ? "theirs" : "READ BY US") + ", still writing")
    #expect(info("file").st_nlink == 1)
    #expect(try leftovers().isEmpty)
  }

  /// With no other writer in the window, the guard the commit keeps across its rename is gone
  /// after it: one name, the new contents, no file left beside it.
  @Test func guardedRenameLeavesOneName() throws {
    try put("read by us", "file")
    let writer = try AtomicFileWriter(path: path("file"), unchangedSince: try snapshot("file"))
    writer.write(Array("ours".utf8))
    var seen: [String] = []
    writer.beforeRename = { seen = (try? leftovers()) ?? [] }
    try writer.commit()
    #expect(seen.count == 2, "the temporary file and the guard: \(seen)")
    #expect(text("file") == "ours")
    #expect(info("file").st_nlink == 1)
    #expect(try leftovers().isEmpty)
  }

  /// The same stamp (size, times, inode) as when read, which a coarse clock allows after a quick
  /// same-size rewrite: a file touched less than 2 s before it was read is compared byte for
  /// byte; an older one is trusted on its stamp.
  @Test func sameStampIsCheckedByContentsWhenRecent() throws {
    try put("abcd", "file")
    let read = try snapshot("file")
    let stamp = try #require(FileStatus.of(path("file"), followingLinks: true))
    #expect(read.matches(stamp, at: path("file")))
    try put("wxyz", "file")
    #expect(!read.matches(stamp, at: path("file")), "same stamp, other bytes")
    var old = read
    old.takenAt = Timestamp(seconds: stamp.modified.seconds + 60, nanoseconds: 0)
    unlink(path("file"))
    #expect(old.matches(stamp, at: path("file")), "an old stamp is trusted without reading")
  }

  // MARK: - Item 5: honest failure

  @Test(.enabled(if: Mounts.permitted, Comment(rawValue: Mounts.skipReason)))
  func fullDiskIsOneErrorAndChangesNothing() throws {
    let disk = try Mounts.tmpfs(kilobytes: 64)
    defer { Mounts.unmount(disk) }
    let file = disk.appendingPathComponent("file").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: file))
    try Mounts.fill(disk, leaving: 8192)
    let writer = try AtomicFileWriter(path: file)
    for _ in 0..<4 { writer.write(Array(repeating: UInt8(ascii: "x"), count: 4096)) }
    do {
      try writer.commit()
      Issue.record("16 KiB were written where 8 KiB were free")
    } catch {
      #expect(error.reason == .system)
      #expect(error.description == "cannot write '\(file)': No space left on device")
    }
    #expect(FileManager.default.contents(atPath: file) == Data("old".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted() == ["file", "filler"])
  }

  @Test(.enabled(if: Mounts.permitted, Comment(rawValue: Mounts.skipReason)))
  func inPlaceWriteReservesItsGrowthFirst() throws {
    let disk = try Mounts.tmpfs(kilobytes: 64)
    defer { Mounts.unmount(disk) }
    let file = disk.appendingPathComponent("file").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: file))
    link(file, disk.appendingPathComponent("other").path)
    // Room for the 12 KiB temporary file, not for the file to grow by 12 KiB too.
    try Mounts.fill(disk, leaving: 12288)
    #expect {
      try AtomicFile.write(Array(repeating: UInt8(ascii: "x"), count: 12288), to: file)
    } throws: {
      ($0 as? WriteError)?.description == "cannot write '\(file)': No space left on device; not changed"
    }
    #expect(FileManager.default.contents(atPath: file) == Data("old".utf8))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted() == ["file", "filler", "other"])
  }

  @Test(.enabled(if: Mounts.permitted, Comment(rawValue: Mounts.skipReason)))
  func readOnlyFileSystemIsNamed() throws {
    let disk = try Mounts.tmpfs(kilobytes: 64)
    defer { Mounts.unmount(disk) }
    let file = disk.appendingPathComponent("file").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: file))
    try Mounts.makeReadOnly(disk)
    #expect {
      try AtomicFile.write(Array("new".utf8), to: file)
    } throws: {
      ($0 as? WriteError)?.description == "cannot write '\(file)': Read-only file system; not changed"
    }
    let fresh = disk.appendingPathComponent("fresh").path
    #expect {
      try AtomicFile.write(Array("new".utf8), to: fresh)
    } throws: {
      ($0 as? WriteError)?.description.hasPrefix("cannot write '\(fresh)': Read-only file system") == true
    }
  }
}
