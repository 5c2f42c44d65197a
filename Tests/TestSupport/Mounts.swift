import Foundation

/// Small real file systems for tests of full disks and read-only mounts: a tmpfs mounted on a
/// folder (root only). Where mounting is not permitted, ``permitted`` is false and the tests that
/// need it are skipped, saying why in one line.
public enum Mounts {
  /// Why tests that mount are skipped.
  public static let skipReason = "mounting a tmpfs is not permitted here (needs root and mount rights)"

  /// Whether this process may mount a tmpfs (tried once, on a scratch folder).
  public static let permitted: Bool = {
    guard let folder = try? scratch() else { return false }
    defer { try? FileManager.default.removeItem(at: folder) }
    guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path]) else { return false }
    return run("/bin/umount", [folder.path])
  }()

  /// Mounts a tmpfs of `kilobytes` on a new folder and returns the folder.
  public static func tmpfs(kilobytes: Int) throws -> URL {
    let folder = try scratch()
    guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder.path]) else {
      throw CocoaError(.fileWriteNoPermission)
    }
    return folder
  }

  /// Remounts the file system at `folder` read-only.
  public static func makeReadOnly(_ folder: URL) throws {
    guard run("/bin/mount", ["-o", "remount,ro", folder.path]) else {
      throw CocoaError(.fileWriteNoPermission)
    }
  }

  /// Unmounts `folder` and removes it.
  public static func unmount(_ folder: URL) {
    _ = run("/bin/umount", [folder.path])
    try? FileManager.default.removeItem(at: folder)
  }

  /// Fills the file system at `folder` with a file `filler` until only `free` bytes (rounded to
  /// its blocks) are left.
  public static func fill(_ folder: URL, leaving free: Int) throws {
    let path = folder.appendingPathComponent("filler").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let block = Data(repeating: 0x2E, count: 1024)
    while (try? FileManager.default.attributesOfFileSystem(forPath: folder.path)[.systemFreeSize] as? Int)
      .flatMap({ $0 }) ?? 0 > free
    {
      do { try handle.write(contentsOf: block) } catch { return }
      try handle.synchronize()
    }
  }

  private static func scratch() throws -> URL {
    let folder = Scratch.url("outline-mount")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @discardableResult
  private static func run(_ tool: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
