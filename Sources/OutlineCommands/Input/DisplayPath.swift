import Foundation
import OutlineCore
import OutlineWorkspace

/// How a path the tool found itself (a configuration file, found upward from a document as an
/// absolute path) is shown: relative to the working folder when it lies inside it, as the
/// documents the user named are (`.outline.json:1:11`, and a relative SARIF `uri`).
enum DisplayPath {
  private static let workingFolder: String = {
    let folder = FileManager.default.currentDirectoryPath
    return folder.hasSuffix("/") ? folder : folder + "/"
  }()

  static func of(_ path: String) -> String {
    guard path.hasPrefix("/"), path.hasPrefix(workingFolder), path.count > workingFolder.count else {
      return path
    }
    return String(path.dropFirst(workingFolder.count))
  }
}

/// Configuration problems for commands that print no report of their own (fmt, convert, export).
enum ConfigurationProblems {
  private static let reported = ReportedPaths()

  /// Prints the problems of `configuration` on standard error, once per file
  /// and run, as `path:line:col: error[OC100]: ...`; whether it has any.
  static func report(_ configuration: Configuration?) -> Bool {
    guard let configuration, !configuration.diagnostics.isEmpty else { return false }
    if reported.insert(configuration.path) {
      Terminal.write(
        TextFormat.render([
          FileReport(
            path: DisplayPath.of(configuration.path), source: configuration.source,
            diagnostics: configuration.diagnostics)
        ]), to: 2)
    }
    return true
  }
}

/// A set of paths shared by threads.
final class ReportedPaths: @unchecked Sendable {
  private var paths: Set<String> = []
  private let lock = NSLock()

  /// Adds `path`; whether it was new.
  func insert(_ path: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return paths.insert(path).inserted
  }
}
