import Foundation
import Testing

@testable import TestSupport

/// The tests' temporary folders: `Scratch.remove` takes away whatever a
/// test left, and `Scratch.sweep` the folders of runs that died.
@Suite struct ScratchTests {
  @Test func removeTakesAwayWhatATestCanLeave() throws {
    let folder = try Scratch.folder("scratch-remove")
    let outside = try Scratch.folder("scratch-outside")
    let keep = outside.appendingPathComponent("keep.txt")
    try Data("kept".utf8).write(to: keep)
    let manager = FileManager.default
    try manager.createDirectory(
      at: folder.appendingPathComponent("a/b/c"), withIntermediateDirectories: true)
    try Data("x".utf8).write(to: folder.appendingPathComponent("a/b/c/file.txt"))
    // A name that is not UTF-8, a FIFO, links (one to a folder outside).
    let odd = folder.path + "/odd-\u{FF}"
    var oddBytes = Array(folder.path.utf8) + Array("/odd-".utf8) + [0xFF, 0]
    let made = oddBytes.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o600) }
    }
    #expect(made >= 0, "\(odd)")
    close(made)
    #expect(mkfifo(folder.path + "/fifo", 0o600) == 0)
    try manager.createSymbolicLink(
      atPath: folder.path + "/a/outside", withDestinationPath: outside.path)
    try manager.createSymbolicLink(atPath: folder.path + "/dangling", withDestinationPath: "/nonexistent/x")
    // Folders made read-only and unreadable.
    chmod(folder.path + "/a/b/c", 0o500)
    chmod(folder.path + "/a/b", 0o000)

    Scratch.remove(folder.path)

    #expect(!manager.fileExists(atPath: folder.path))
    #expect((try? String(contentsOf: keep, encoding: .utf8)) == "kept")
    Scratch.remove(outside.path)
    #expect(!manager.fileExists(atPath: outside.path))
  }

  @Test func removeTakesAFileOrNothing() throws {
    let file = Scratch.url("scratch-file", suffix: ".txt")
    try Data("x".utf8).write(to: file)
    Scratch.remove(file.path)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    Scratch.remove(file.path)  // gone already: nothing happens
  }

  @Test func sweepRemovesOnlyTheFoldersOfDeadRuns() throws {
    let base = try Scratch.folder("scratch-base").path
    let dead = try Self.deadProcess()
    let live = getpid() == 1 ? getppid() : 1
    let names = [
      "outline-tests.\(dead)", "outline-tests.\(live)", "outline-tests.\(getpid())", "outline-tests.x",
    ]
    for name in names {
      try FileManager.default.createDirectory(
        atPath: "\(base)/\(name)/inner", withIntermediateDirectories: true)
    }
    // A loose folder of older tests: removed once an hour old, not before.
    let old = "\(base)/outline-tests-\(UUID().uuidString)"
    let young = "\(base)/outline-tests-\(UUID().uuidString)"
    let other = "\(base)/outline-testsuite"
    for path in [old, young, other] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    let twoHoursAgo = timespec(tv_sec: time(nil) - 7200, tv_nsec: 0)
    var times = [twoHoursAgo, twoHoursAgo]
    #expect(utimensat(AT_FDCWD, old, &times, 0) == 0)

    Scratch.sweep(base)

    let left = Set(try FileManager.default.contentsOfDirectory(atPath: base))
    #expect(
      left == [
        "outline-tests.\(live)", "outline-tests.\(getpid())", "outline-tests.x",
        (young as NSString).lastPathComponent, "outline-testsuite",
      ])
  }

  @Test(.enabled(if: Mounts.permitted, Comment(rawValue: Mounts.skipReason)))
  func removeTakesOffAMountLeftBehind() throws {
    let folder = try Scratch.folder("scratch-mount")
    let mountPoint = folder.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/bin/mount")
    mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path]
    try mount.run()
    mount.waitUntilExit()
    try #require(mount.terminationStatus == 0)
    try Data("on the tmpfs".utf8).write(to: mountPoint.appendingPathComponent("file"))

    Scratch.remove(folder.path)

    #expect(!FileManager.default.fileExists(atPath: folder.path))
    let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
    #expect(!mounts.contains(mountPoint.path))
  }

  @Test func theRootBelongsToThisProcess() {
    #expect(Scratch.root.hasSuffix("/outline-tests.\(getpid())"))
    #expect(Scratch.path("x").hasPrefix(Scratch.root + "/x-"))
  }

  /// The id of a process that has ended and been waited for.
  static func deadProcess() throws -> pid_t {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exit 0"]
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }
}
