import Foundation
import OutlineWorkspace

/// Reading inputs and finding the files a run covers.
enum FileInput {
  static func read(_ path: String) -> [UInt8]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return [UInt8](data)
  }

  static func readStandardInput() -> [UInt8]? {
    [UInt8](FileHandle.standardInput.readDataToEndOfFile())
  }
}

/// Expands the paths of a run: files as given, folders searched for `*.outline`.
enum FileCollector {
  static func collect(
    _ paths: [String], configurations: ConfigurationFinder,
    trouble: (_ path: String, _ message: String) -> Void
  ) -> [String] {
    var files: [String] = []
    for path in paths {
      if path == "-" {
        files.append(path)
        continue
      }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        trouble(path, "'\(path)' does not exist")
        continue
      }
      if !isDirectory.boolValue {
        files.append(path)
        continue
      }
      guard let enumerator = FileManager.default.enumerator(atPath: path) else {
        trouble(path, "cannot read the folder '\(path)'")
        continue
      }
      var found: [String] = []
      while let relative = enumerator.nextObject() as? String {
        guard relative.hasSuffix(".outline") else { continue }
        let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
        if let configuration = configurations.configuration(for: full), configuration.excludes(full) {
          continue
        }
        found.append(full)
      }
      files += found.sorted()
    }
    return files
  }
}

/// Runs work over items on several threads, keeping results in input order.
enum ParallelMap {
  static func map<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ body: @Sendable (T) -> R) -> [R] {
    if jobs <= 1 || items.count <= 1 { return items.map(body) }
    let results = ResultSlots<R>(count: items.count)
    let next = AtomicCounter()
    DispatchQueue.concurrentPerform(iterations: min(jobs, items.count)) { _ in
      while true {
        let index = next.increment()
        if index >= items.count { return }
        results.set(index, body(items[index]))
      }
    }
    return results.values()
  }
}

final class ResultSlots<R: Sendable>: @unchecked Sendable {
  private var slots: [R?]
  private let lock = NSLock()
  init(count: Int) { slots = Array(repeating: nil, count: count) }
  func set(_ index: Int, _ value: R) {
    lock.lock()
    slots[index] = value
    lock.unlock()
  }
  func values() -> [R] { slots.map { $0! } }
}

final class AtomicCounter: @unchecked Sendable {
  private var value = 0
  private let lock = NSLock()
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value - 1
  }
}

/// A progress line on standard error, only when it is a terminal.
final class Progress: @unchecked Sendable {
  private let total: Int
  private let enabled: Bool
  private var done = 0
  private var lastDrawn = Date.distantPast
  private let lock = NSLock()

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  func advance() {
    guard enabled else { return }
    lock.lock()
    done += 1
    let now = Date()
    if now.timeIntervalSince(lastDrawn) > 0.1 || done == total {
      lastDrawn = now
      Terminal.write("\r\u{1B}[Klinting \(done)/\(total)", to: 2)
    }
    lock.unlock()
  }

  func finish() {
    if enabled { Terminal.write("\r\u{1B}[K", to: 2) }
  }
}
