// The baseline file: the problems a project accepts for now, one a line, and how a run's problems are
// matched against it (Documentation/Baseline.md).

import Foundation
import OutlineCore
import OutlineFiles
import OutlineJSON

/// A baseline: problems found once and accepted, each known by its fingerprint (``ProblemFingerprint``).
///
/// The file is JSON: `{"version": 1, "tool": "outline-lint", "problems": [...]}`, each problem an
/// object on a line of its own (`fingerprint`, `path`, `code`, `item`, `message`), sorted by
/// path, item, code, message and fingerprint, so that two branches that each shrink or grow it
/// merge line by line in git.
public struct Baseline: Sendable, Equatable {
  /// One accepted problem.
  public struct Entry: Sendable, Hashable, Comparable {
    /// The problem's fingerprint, `hash:n` (what is matched).
    public var fingerprint: String
    /// The file's path in its project, `/`-separated.
    public var path: String
    /// The diagnostic code.
    public var code: String
    /// The item's name (``ItemIdentity``).
    public var item: String
    /// The message.
    public var message: String

    /// An entry.
    public init(fingerprint: String, path: String, code: String, item: String, message: String) {
      self.fingerprint = fingerprint
      self.path = path
      self.code = code
      self.item = item
      self.message = message
    }

    public static func < (lhs: Entry, rhs: Entry) -> Bool {
      let left = [lhs.path, lhs.item, lhs.code, lhs.message, lhs.fingerprint]
      let right = [rhs.path, rhs.item, rhs.code, rhs.message, rhs.fingerprint]
      for (a, b) in zip(left, right) where a != b { return Array(a.utf8).lexicographicallyPrecedes(b.utf8) }
      return false
    }

    var json: JSONValue {
      [
        "fingerprint": .string(fingerprint), "path": .string(path), "code": .string(code),
        "item": .string(item), "message": .string(message),
      ]
    }
  }

  /// The format's version.
  public static let version = 1

  /// The entries, sorted, each fingerprint once per path.
  public private(set) var entries: [Entry]
  /// The fingerprints of the entries, by path.
  private var byPath: [String: Set<String>] = [:]

  /// A baseline of `entries` (sorted here; an entry given twice is kept once).
  public init(entries: [Entry]) {
    var seen: Set<Entry> = []
    self.entries = entries.filter { seen.insert($0).inserted }.sorted()
    for entry in self.entries { byPath[entry.path, default: []].insert(entry.fingerprint) }
  }

  /// Whether the problem of `fingerprint` in the file at project path `path` is in the baseline.
  public func contains(path: String, fingerprint: String) -> Bool {
    byPath[path]?.contains(fingerprint) ?? false
  }

  /// The entries for the file at project path `path`.
  public func entries(for path: String) -> [Entry] {
    entries.filter { $0.path == path }
  }

  /// The file's text: a header, then one problem a line, then the closing brackets.
  public func serialized() -> [UInt8] {
    var out = Array(
      "{\n  \"version\": \(Self.version),\n  \"tool\": \"outline-lint\",\n  \"problems\": [".utf8)
    for (index, entry) in entries.enumerated() {
      out += Array((index == 0 ? "\n    " : ",\n    ").utf8)
      out += entry.json.serializedBytes()
    }
    out += Array((entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n").utf8)
    return out
  }

  /// Reads the baseline at `path`. Throws a message for the user when it cannot be read or is
  /// not a baseline (a JSON syntax error as `path:line:column: ...`).
  public static func load(_ path: String) throws(BaselineError) -> Baseline {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(path)
    } catch {
      throw BaselineError(message: "the baseline cannot be read: \(error.description)")
    }
    return try parse(bytes, path: path)
  }

  /// The baseline in `bytes`, read from `path` (for messages).
  public static func parse(_ bytes: [UInt8], path: String) throws(BaselineError) -> Baseline {
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes)
    } catch {
      let (line, column) = position(of: error.offset, in: bytes)
      throw BaselineError(
        message: "\(path):\(line):\(column): the baseline is not valid JSON: \(error.message)")
    }
    func refuse(_ reason: String) -> BaselineError {
      BaselineError(message: "\(path): not a baseline of outline-lint: \(reason)")
    }
    guard value.isObject else { throw refuse("it is not a JSON object") }
    guard let version = value["version"]?.intValue else { throw refuse("it has no \"version\" number") }
    guard version == Self.version else {
      throw refuse("its version is \(version), and this outline-lint reads version \(Self.version)")
    }
    guard let problems = value["problems"]?.arrayValue else { throw refuse("it has no \"problems\" array") }
    var entries: [Entry] = []
    entries.reserveCapacity(problems.count)
    for (index, problem) in problems.enumerated() {
      var fields: [String] = []
      for key in ["fingerprint", "path", "code", "item", "message"] {
        guard let text = problem[key]?.stringValue else {
          throw refuse("problem \(index + 1) has no \"\(key)\" string")
        }
        fields.append(text)
      }
      entries.append(
        Entry(fingerprint: fields[0], path: fields[1], code: fields[2], item: fields[3], message: fields[4]))
    }
    return Baseline(entries: entries)
  }

  /// Whether `bytes` may be replaced by a new baseline: nothing, or a baseline.
  public static func mayReplace(_ bytes: [UInt8], path: String) -> Bool {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return true }
    return (try? parse(bytes, path: path)) != nil
  }

  /// 1-based line and column (in characters) of the UTF-8 `offset` in `bytes`.
  static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    let end = min(max(0, offset), bytes.count)
    for index in 0..<end where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    // Characters: every byte that does not continue a UTF-8 sequence.
    let column = bytes[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count + 1
    return (line, column)
  }

  /// The path of `documentPath` from `projectFolder`, `/`-separated; the path as given (made
  /// absolute) when it lies outside the folder.
  public static func projectPath(of documentPath: String, in projectFolder: String) -> String {
    let absolute = URL(fileURLWithPath: documentPath).standardizedFileURL.path
    let base = URL(fileURLWithPath: projectFolder).standardizedFileURL.path
    let prefix = base.hasSuffix("/") ? base : base + "/"
    return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
  }
}

/// Why a baseline could not be used: a message for the user (exit 2).
public struct BaselineError: Error, Sendable, CustomStringConvertible {
  /// The message, naming the file.
  public var message: String
  public var description: String { message }

  /// An error saying `message`.
  public init(message: String) { self.message = message }
}

extension Baseline {
  /// Whether this baseline holds each of `diagnostics`, the problems of the document at `path`
  /// (nil: an unsaved buffer, which no baseline names) whose text is `bytes`, checked as `check`.
  public func holds(_ diagnostics: [Diagnostic], path: String?, bytes: [UInt8], check: DocumentCheck)
    -> [Bool]
  {
    guard let path, !diagnostics.isEmpty else { return diagnostics.map { _ in false } }
    let project = ProjectRoot.folder(for: path, configuration: check.configuration)
    let projectPath = Self.projectPath(of: path, in: project)
    guard byPath[projectPath] != nil else { return diagnostics.map { _ in false } }
    let names =
      check.isJSONForm
      ? diagnostics.map { _ in "" } : ItemIdentity.names(of: diagnostics, in: bytes, model: check.model)
    let prints = ProblemFingerprint.fingerprints(
      path: projectPath,
      problems: diagnostics.indices.map {
        (diagnostics[$0].code.rawValue, names[$0], diagnostics[$0].message)
      })
    return prints.map { contains(path: projectPath, fingerprint: $0) }
  }
}

/// Baselines read once and kept while their file does not change (the language server reads the
/// one a configuration names for every publication).
public final class BaselineFiles: @unchecked Sendable {
  /// The process's baselines.
  public static let shared = BaselineFiles()

  private let lock = NSLock()
  private var known: [String: (stamp: [Int], baseline: Baseline?)] = [:]

  /// The baseline at `path`, or nil when it cannot be read or is not a baseline (the caller
  /// then holds nothing back).
  public func baseline(at path: String) -> Baseline? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let stamp = [
      Int(info.st_size), Int(info.st_ino), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec),
      Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec),
    ]
    lock.lock()
    if let entry = known[path], entry.stamp == stamp {
      lock.unlock()
      return entry.baseline
    }
    lock.unlock()
    let baseline = try? Baseline.load(path)
    lock.lock()
    known[path] = (stamp, baseline)
    lock.unlock()
    return baseline
  }
}
