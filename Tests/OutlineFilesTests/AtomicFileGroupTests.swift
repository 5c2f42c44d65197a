import Foundation
import TestSupport
import Testing

@testable import OutlineFiles

/// `AtomicFileGroup` writes several files as one (`outline model rename`): every target is
/// checked before any changes, and a failure after some were replaced puts those back.
@Suite struct AtomicFileGroupTests: FolderFixture {
  let folder: String

  init() throws {
    folder = Scratch.path("atomic-group")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  func inode(_ name: String) -> ino_t {
    var info = stat()
    _ = lstat(path(name), &info)
    return info.st_ino
  }

  /// The files in the folder: the named ones only, no temporary file or kept copy.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  /// Writers rewriting `names` (each read, with its snapshot) to "new NAME".
  func writers(_ names: [String]) throws -> [AtomicFileWriter] {
    try names.map { name in
      let snapshot = try #require(FileSnapshot.take(path(name)))
        .holding(Array(FileManager.default.contents(atPath: path(name))!))
      let writer = try AtomicFileWriter(path: path(name), unchangedSince: snapshot, activity: "renamed")
      writer.write(Array("new \(name)".utf8))
      return writer
    }
  }

  @Test func everyFileIsWritten() throws {
    for name in ["a", "b", "c"] { try put("old \(name)", name) }
    try AtomicFileGroup.commit(try writers(["a", "b", "c"]))
    #expect(["a", "b", "c"].map { text($0) } == ["new a", "new b", "new c"])
    #expect(try names() == ["a", "b", "c"])
  }

  /// A file changed after it was read, or made read-only, is found before anything is written:
  /// the files before it in the group are untouched too.
  @Test(arguments: ["changed", "read-only"])
  func aTargetThatFailsItsCheckChangesNothing(trouble: String) throws {
    for name in ["a", "b", "c"] { try put("old \(name)", name) }
    var group = try writers(["a", "b", "c"])
    let inodes = ["a", "b"].map(inode)
    if trouble == "changed" {
      try put("theirs", "c")
    } else {
      // Not read (its mode's change would be a change since): written over, as a model version's
      // `.xccurrentversion` is.
      group[2] = try AtomicFileWriter(path: path("c"))
      group[2].write(Array("new c".utf8))
      chmod(path("c"), 0o444)
    }
    defer { chmod(path("c"), 0o644) }
    do {
      try AtomicFileGroup.commit(group)
      Issue.record("the group was written")
    } catch {
      #expect(error.notRestored.isEmpty)
      #expect(
        error.description
          == (trouble == "changed"
            ? "'\(path("c"))' changed while being renamed; run again"
            : "'\(path("c"))' is read-only; not changed"))
    }
    #expect(["a", "b"].map { text($0) } == ["old a", "old b"])
    #expect(["a", "b"].map(inode) == inodes, "a file was replaced, even by itself")
    #expect(text("c") == (trouble == "changed" ? "theirs" : "old c"))
    #expect(try names() == ["a", "b", "c"])
  }

  /// A writer that opens the last file in place in the rename window (after every check): that
  /// file is put back with its writer's bytes, and the files already replaced get their old
  /// contents back, a new file is removed again, and a hard-linked file written in place gets
  /// its old bytes back in the same inode.
  @Test func aFailureAfterSomeWereReplacedPutsThemBack() throws {
    for name in ["a", "linked", "c"] { try put("old \(name)", name) }
    link(path("linked"), path("other name"))
    let old = try writers(["a", "linked", "c"])
    let made = try AtomicFileWriter(path: path("made"), existing: .keep)
    made.write(Array("new made".utf8))
    let group = [old[0], made, old[1], old[2]]
    var theirs: Int32 = -1
    defer { close(theirs) }
    old[2].beforeRename = {
      theirs = open(self.path("c"), O_WRONLY | O_TRUNC)
      _ = Array("theirs".utf8).withUnsafeBytes { write(theirs, $0.baseAddress, $0.count) }
    }
    let inodes = ["a", "linked"].map(inode)
    do {
      try AtomicFileGroup.commit(group)
      Issue.record("the other writer's update was lost")
    } catch {
      #expect(error.failed.reason == .changed)
      #expect(error.description == "'\(path("c"))' changed while being renamed; run again")
      #expect(error.notRestored.isEmpty, "\(error.notRestored)")
    }
    #expect(text("a") == "old a" && text("linked") == "old linked" && text("other name") == "old linked")
    #expect(["a", "linked"].map(inode) == inodes)
    #expect(text("c") == "theirs")
    #expect(try names() == ["a", "c", "linked", "other name"])
  }

  /// A parked writer holds no descriptor; it reopens its temporary file where it ended for a
  /// later write and for the commit, and a parked one discarded leaves nothing behind.
  @Test func aParkedWriterReopensWhereItEndedAndHoldsNoDescriptor() throws {
    try put("old a", "a")
    try put("old b", "b")
    // Only the descriptors of this folder's files count: other tests open pipes meanwhile.
    let a = try AtomicFileWriter(path: path("a"))
    a.write(Array("new ".utf8))
    // The check sees a writer's descriptor while it holds one.
    if OpenFiles.listed { #expect(OpenFiles.under(folder).count == 1, "\(OpenFiles.under(folder))") }
    a.park()
    let b = try AtomicFileWriter(path: path("b"))
    b.write(Array("gone".utf8))
    b.park()
    #expect(OpenFiles.under(folder).isEmpty, "\(OpenFiles.under(folder))")
    a.write(Array("a".utf8))
    a.park()
    b.discard()
    try AtomicFileGroup.commit([a])
    #expect(text("a") == "new a")
    #expect(text("b") == "old b")
    #expect(try names() == ["a", "b"])
  }
}
