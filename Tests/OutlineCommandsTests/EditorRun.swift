import Foundation
import Testing

/// A real editor driven headless by a script that writes `key=value` lines
/// to a result file (the Neovim and Emacs tests).
enum EditorRun {
  /// Runs `process` to its end, at most `seconds` (a hung editor or server
  /// fails the test instead of hanging it), and reads the `key=value` lines
  /// of `result`; nil, with an issue recorded, when it did not finish.
  static func recorded(_ process: Process, name: String, result: URL, seconds: TimeInterval = 120) throws
    -> [String: String]?
  {
    try process.run()
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
      process.terminate()
      Issue.record("\(name) did not finish within \(Int(seconds)) s")
      return nil
    }
    let lines =
      (try? String(contentsOf: result, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    var recorded: [String: String] = [:]
    for line in lines {
      guard let equals = line.firstIndex(of: "=") else { continue }
      recorded[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return recorded
  }
}
