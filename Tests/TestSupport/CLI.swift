import Foundation

/// Runs the built binaries the way a user does: real processes, real files (for every test
/// target that drives `outline` or `outline-lint`).
public enum CLI {
  /// The folder holding the built products.
  public static let products: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("outline-lint").path) {
        return url
      }
      url = url.deletingLastPathComponent()
    }
    return repository.appendingPathComponent(".build/debug")
  }()

  public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  public struct Output: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
      self.status = status
      self.stdout = stdout
      self.stderr = stderr
    }
  }

  /// Runs `tool` with `arguments` in `directory`, feeding `input` to its standard input.
  /// `asNobody` runs it as user and group 65534 (through setpriv; the caller must be root);
  /// `environment` adds to or replaces variables of the test's own environment.
  @discardableResult
  public static func run(
    _ tool: String, _ arguments: [String], in directory: URL? = nil, input: String? = nil,
    asNobody: Bool = false, environment: [String: String] = [:]
  ) throws -> Output {
    let process = self.process(tool, arguments, asNobody: asNobody)
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.currentDirectoryURL = directory ?? repository
    return try collect(process, input: Data((input ?? "").utf8))
  }

  /// A process for the built `tool` with `arguments`, not started; `asNobody`
  /// runs it as user and group 65534 through setpriv (the caller must be root).
  public static func process(_ tool: String, _ arguments: [String], asNobody: Bool = false) -> Process {
    let process = Process()
    if asNobody {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--reuid=65534", "--regid=65534", "--clear-groups", products.appendingPathComponent(tool).path]
        + arguments
    } else {
      process.executableURL = products.appendingPathComponent(tool)
      process.arguments = arguments
    }
    return process
  }

  /// Runs `program` (a path, or a name found on `PATH`) as it is, with no
  /// standard input: the real programs the tests drive (shells, groff, Graphviz).
  public static func program(
    _ program: String, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil
  ) throws -> Output {
    let process = Process()
    if program.hasPrefix("/") {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [program] + arguments
    }
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    return try collect(process)
  }

  /// Starts `process` (set up, not started), feeds it `input` (else `stdin`,
  /// else nothing), and reads both output pipes while it runs, so a large
  /// output cannot block it. With `limit`, it is killed after that many
  /// seconds (the caller sees `terminationReason == .uncaughtSignal`).
  public static func collect(
    _ process: Process, input: Data? = nil, stdin: FileHandle? = nil, limit: Double? = nil
  ) throws -> Output {
    let stdout = Pipe()
    let stderr = Pipe()
    let stdinPipe = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = input != nil ? stdinPipe : (stdin ?? FileHandle.nullDevice)
    try process.run()
    var killer: DispatchWorkItem?
    if let limit {
      let pid = process.processIdentifier
      let work = DispatchWorkItem { kill(pid, SIGKILL) }
      DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: work)
      killer = work
    }
    if let input {
      feed(input, to: stdinPipe.fileHandleForWriting)
      try stdinPipe.fileHandleForWriting.close()
    }
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
    killer?.cancel()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// Writes `data` to a child's standard input. A child may end before it
  /// reads (a usage error, a kill): the write then fails with EPIPE, which is
  /// the child's business, not the test's, so it must neither throw nor end
  /// the test process by SIGPIPE (which would take every running test with
  /// it, without a word).
  public static func feed(_ data: Data, to handle: FileHandle) {
    _ = brokenPipesTolerated
    try? handle.write(contentsOf: data)
  }

  /// SIGPIPE gets a handler that does nothing, so a write to a pipe whose
  /// reader has gone fails with EPIPE instead of killing the test process.
  /// A handler, not SIG_IGN: handlers are reset by exec, so the programs
  /// the tests start still get SIGPIPE's default, as they would from a shell.
  public static let brokenPipesTolerated: Void = {
    signal(SIGPIPE) { _ in }
  }()

  /// A fresh temporary folder.
  public static func temporaryFolder() throws -> URL {
    try Scratch.folder("cli")
  }

  /// Writes `files` (relative path: contents) under `folder`.
  public static func write(_ files: [String: String], in folder: URL) throws {
    for (path, contents) in files {
      let url = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: url)
    }
  }
}
