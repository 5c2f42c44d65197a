import Foundation

/// The files this process holds open, as the system lists them (`/proc/self/fd`): a test asks
/// only about its own folder's files, so the pipes and files other tests open meanwhile (the
/// suites run at once, in one process) cannot change its answer.
public enum OpenFiles {
  /// Whether the system lists a process's open files (Linux does; elsewhere nothing is checked).
  public static var listed: Bool { FileManager.default.fileExists(atPath: "/proc/self/fd") }

  /// The open files of this process under `folder` (a deleted one with ` (deleted)` after its
  /// path), each once per descriptor; empty where the system lists none.
  public static func under(_ folder: String) -> [String] {
    let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
    let prefixes = [folder + "/", real + "/"]
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    // A descriptor closed since the listing (another test's) no longer resolves: skipped.
    return descriptors.compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
    }
    .filter { target in prefixes.contains { target.hasPrefix($0) } }.sorted()
  }
}
