import Foundation
import Testing

/// Runs the built binaries the way a user does: real processes, real files.
enum CLI {
  /// The folder holding the built products.
  static let products: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("outline-lint").path) {
        return url
      }
      url = url.deletingLastPathComponent()
    }
    return repository.appendingPathComponent(".build/debug")
  }()

  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `tool` with `arguments` in `directory`, feeding `input` to its standard input.
  /// `asNobody` runs it as user and group 65534 (through setpriv; the caller must be root);
  /// `environment` adds to or replaces variables of the test's own environment.
  @discardableResult
  static func run(
    _ tool: String, _ arguments: [String], in directory: URL? = nil, input: String? = nil,
    asNobody: Bool = false, environment: [String: String] = [:]
  ) throws -> Output {
    let process = Process()
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if asNobody {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--reuid=65534", "--regid=65534", "--clear-groups", products.appendingPathComponent(tool).path]
        + arguments
    } else {
      process.executableURL = products.appendingPathComponent(tool)
      process.arguments = arguments
    }
    process.currentDirectoryURL = directory ?? repository
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Read both pipes while the process runs so a large output cannot block it.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = stderr.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = stdout.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// A fresh temporary folder.
  static func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "outline-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Writes `files` (relative path: contents) under `folder`.
  static func write(_ files: [String: String], in folder: URL) throws {
    for (path, contents) in files {
      let url = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: url)
    }
  }
}
