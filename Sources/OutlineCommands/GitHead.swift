import Foundation
import OutlineCore

/// Reads files as git's `HEAD` commit has them (`git show HEAD:path`).
enum GitHead {
  /// Why a file's `HEAD` version could not be read.
  struct Failure: Error, CustomStringConvertible {
    /// What failed, naming the path.
    let description: String
  }

  /// The bytes of `path` at `HEAD`; nil when `HEAD` has no such file.
  /// Throws when `path` is not in a git work tree or git cannot run.
  static func contents(of path: String) throws -> [UInt8]? {
    let url = URL(fileURLWithPath: path).standardizedFileURL
    let folder = url.deletingLastPathComponent().path
    let top = try git(["rev-parse", "--show-toplevel"], in: folder)
    guard top.status == 0 else {
      throw Failure(
        description: "\(Excerpt.quotedPath(path)) is not in a git work tree: \(firstLine(top.error))")
    }
    let root = URL(
      fileURLWithPath: String(decoding: top.output, as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    ).resolvingSymlinksInPath().path
    let full = url.resolvingSymlinksInPath().path
    guard full.hasPrefix(root + "/") else {
      throw Failure(
        description: "\(Excerpt.quotedPath(path)) is outside its git work tree \(Excerpt.quotedPath(root))")
    }
    let relative = String(full.dropFirst(root.count + 1))
    let shown = try git(["show", "HEAD:\(relative)"], in: root)
    return shown.status == 0 ? shown.output : nil
  }

  private static func firstLine(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "git failed"
  }

  private static func git(_ arguments: [String], in folder: String) throws -> (
    status: Int32, output: [UInt8], error: [UInt8]
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", folder] + arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw Failure(description: "cannot run git: \(error.localizedDescription)")
    }
    nonisolated(unsafe) var errorBytes = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errorBytes = error.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outputBytes = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return (process.terminationStatus, [UInt8](outputBytes), [UInt8](errorBytes))
  }
}
