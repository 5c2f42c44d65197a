import Foundation
import TestSupport

/// Runs the built `outline` and `outline-lint` as a user does: real processes on real files
/// (a copy of the small part of OutlineCommandsTests' `CLI` the properties need).
enum Binary {
  /// The folder holding the built products.
  static let products: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("outline-lint").path) {
        return url
      }
      url = url.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug")
  }()

  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `tool` with `arguments` in `directory`, with nothing on standard input.
  @discardableResult
  static func run(_ tool: String, _ arguments: [String], in directory: URL) throws -> Output {
    let process = Process()
    process.executableURL = products.appendingPathComponent(tool)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Both pipes are read while the process runs, so a large output cannot block it.
    let group = DispatchGroup()
    nonisolated(unsafe) var errors = Data()
    group.enter()
    DispatchQueue.global().async {
      errors = stderr.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: errors, as: UTF8.self))
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
