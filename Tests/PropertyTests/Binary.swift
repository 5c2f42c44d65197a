import Foundation
import TestSupport

/// Runs the built `outline` and `outline-lint` as a user does: real processes on real files
/// (through `CLI`), with what the properties ask of a run's folder.
enum Binary {
  typealias Output = CLI.Output

  /// Runs `tool` with `arguments` in `directory`, with nothing on standard input.
  @discardableResult
  static func run(_ tool: String, _ arguments: [String], in directory: URL) throws -> Output {
    try CLI.run(tool, arguments, in: directory)
  }

  /// A fresh folder holding `files` (relative path: contents).
  static func folder(_ files: [String: String]) throws -> URL {
    let folder = try Scratch.folder("property")
    for (path, contents) in files {
      let url = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: url)
    }
    return folder
  }

  /// The contents of `path` under `folder`, nil when there is no such file.
  static func read(_ path: String, in folder: URL) -> String? {
    (try? Data(contentsOf: folder.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The files under `folder`, relative paths sorted, with their contents.
  static func snapshot(_ folder: URL) -> [String: String] {
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    while let path = enumerator?.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        files[path] = read(path, in: folder)
      }
    }
    return files
  }

  /// `outline-lint --format json`'s diagnostics of the one file it linted, each as
  /// `CODE line:column` (1-based), sorted; nil when the output is no such report.
  static func lintedCodes(_ output: Output) -> [String]? {
    guard let report = try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
      let files = report["files"] as? [[String: Any]], let file = files.first,
      let diagnostics = file["diagnostics"] as? [[String: Any]]
    else { return nil }
    return diagnostics.map { diagnostic -> String in
      let start = (diagnostic["range"] as! [String: Any])["start"] as! [String: Any]
      return "\(diagnostic["code"]!) \(start["line"] as! Int):\(start["column"] as! Int)"
    }.sorted()
  }
}
