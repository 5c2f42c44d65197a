import OutlineCore
import OutlineFiles

/// What the lint cache keeps of one file's check: its diagnostics, the model
/// it was checked against and the digests of the files that model came from.
///
/// Paths under the project's folder are kept relative to it, so that a clone of
/// the project in another folder reads the entry as its own; a path elsewhere is
/// kept as written. ``encodedBody()`` and ``decodeBody(_:in:)`` are the entry's
/// record in the folder's ``CheckCacheIndex``, which says the format, the tool's
/// version and the key, and checks all of it with one SHA-256.
public struct CheckCacheEntry: Sendable, Equatable {
  /// The format of the cache's index and entries; a change to either, or to what a check
  /// reports, must raise it.
  public static let format: UInt32 = 4

  /// A path as an entry keeps it.
  public enum StoredPath: Sendable, Equatable {
    /// Relative to the project's folder (empty for the folder itself).
    case inProject(String)
    /// As written: relative to the working directory, or absolute outside the project.
    case asWritten(String)

    /// `path` as kept for the project folder `base` (absolute and standardized).
    public init(_ path: String, base: String) {
      if path == base {
        self = .inProject("")
      } else if base != "/" && path.hasPrefix(base + "/") {
        self = .inProject(String(path.dropFirst(base.count + 1)))
      } else if base == "/" && path.hasPrefix("/") {
        self = .inProject(String(path.dropFirst()))
      } else {
        self = .asWritten(path)
      }
    }

    /// The path for the project folder `base`.
    public func path(base: String) -> String {
      switch self {
      case .inProject(let relative):
        relative.isEmpty ? base : (base == "/" ? "/" + relative : base + "/" + relative)
      case .asWritten(let path): path
      }
    }

    /// The text kept, whichever kind.
    var text: String {
      switch self {
      case .inProject(let text), .asWritten(let text): text
      }
    }
  }

  /// The model the file was checked against.
  public enum ModelReference: Sendable, Equatable {
    /// None was loaded.
    case none
    /// The shipped default model.
    case shippedDefault
    /// The model file (a version's `contents`) at this path.
    case file(StoredPath)
  }

  /// A file or folder the check read, with its ``TreeDigest`` when it did.
  public struct Dependency: Sendable, Equatable {
    /// Where it is.
    public var path: StoredPath
    /// Its digest then.
    public var digest: [UInt8]

    /// A dependency.
    public init(path: StoredPath, digest: [UInt8]) {
      self.path = path
      self.digest = digest
    }
  }

  /// The model the file was checked against.
  public var model: ModelReference
  /// What the model came from.
  public var dependencies: [Dependency]
  /// The diagnostics, with every related location's file as ``relatedFiles`` keeps it.
  public var diagnostics: [Diagnostic]
  /// For each diagnostic, its related locations' files (nil: its own file).
  public var relatedFiles: [[StoredPath?]]
  /// For each diagnostic, the item it is on, as fingerprints name it; nil when the run that
  /// wrote the entry did not ask.
  public var itemNames: [String]?

  /// An entry.
  public init(
    model: ModelReference, dependencies: [Dependency], diagnostics: [Diagnostic],
    relatedFiles: [[StoredPath?]], itemNames: [String]? = nil
  ) {
    self.model = model
    self.dependencies = dependencies
    self.diagnostics = diagnostics
    self.relatedFiles = relatedFiles
    self.itemNames = itemNames
  }

  /// The entry's record in an index (its fields after the key).
  public func encodedBody() -> [UInt8] {
    var out = EntryWriter()
    switch model {
    case .none: out.number(0)
    case .shippedDefault: out.number(1)
    case .file(let path):
      out.number(2)
      out.path(path)
    }
    out.number(dependencies.count)
    for dependency in dependencies {
      out.path(dependency.path)
      out.data(dependency.digest)
    }
    out.number(diagnostics.count)
    for (diagnostic, files) in zip(diagnostics, relatedFiles) {
      out.text(diagnostic.code.rawValue)
      out.number(Severity.allCases.firstIndex(of: diagnostic.severity)!)
      out.text(diagnostic.message)
      out.number(diagnostic.range.start)
      out.number(diagnostic.range.end)
      out.number(diagnostic.related.count)
      for (related, file) in zip(diagnostic.related, files) {
        out.number(related.range.start)
        out.number(related.range.end)
        out.text(related.message)
        if let file {
          out.number(1)
          out.path(file)
        } else {
          out.number(0)
        }
      }
    }
    if let itemNames {
      out.number(1)
      out.number(itemNames.count)
      for name in itemNames { out.text(name) }
    } else {
      out.number(0)
    }
    return out.bytes
  }

  /// The entry whose record is `bytes[range]`, or nil when it is not a whole record.
  public static func decodeBody(_ bytes: [UInt8], in range: Range<Int>) -> CheckCacheEntry? {
    guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
    var input = EntryReader(bytes: bytes)
    input.offset = range.lowerBound
    input.end = range.upperBound
    guard let entry = input.body(), input.offset == input.end else { return nil }
    return entry
  }
}

/// Writes an entry's fields: numbers as 8 bytes (little-endian), texts and data with their length first.
struct EntryWriter {
  var bytes: [UInt8] = []

  mutating func number(_ value: Int) {
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
  }

  /// `value` as 4 bytes, little-endian.
  mutating func word32(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
  }

  /// `value` as 8 bytes, little-endian.
  mutating func word64(_ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
  }

  mutating func data(_ value: [UInt8]) {
    number(value.count)
    bytes += value
  }

  mutating func text(_ value: String) { data(Array(value.utf8)) }

  mutating func path(_ value: CheckCacheEntry.StoredPath) {
    switch value {
    case .inProject: number(0)
    case .asWritten: number(1)
    }
    text(value.text)
  }
}

/// Reads what ``EntryWriter`` wrote; nil for anything out of bounds or out of range.
struct EntryReader {
  let bytes: [UInt8]
  var offset = 0
  var end: Int

  init(bytes: [UInt8]) {
    self.bytes = bytes
    end = bytes.count
  }

  mutating func expect(_ prefix: [UInt8]) -> Bool {
    guard end - offset >= prefix.count, bytes[offset..<(offset + prefix.count)].elementsEqual(prefix) else {
      return false
    }
    offset += prefix.count
    return true
  }

  mutating func number() -> Int? {
    guard end - offset >= 8 else { return nil }
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
    offset += 8
    // Every number written is a count, an offset or a kind: never negative, never near the top.
    guard value <= UInt64(Int32.max) else { return nil }
    return Int(value)
  }

  mutating func data() -> [UInt8]? {
    guard let count = number(), end - offset >= count else { return nil }
    defer { offset += count }
    return Array(bytes[offset..<(offset + count)])
  }

  mutating func text() -> String? {
    data().flatMap { String(validating: $0, as: UTF8.self) }
  }

  mutating func path() -> CheckCacheEntry.StoredPath? {
    guard let kind = number(), let text = text() else { return nil }
    switch kind {
    case 0: return .inProject(text)
    case 1: return .asWritten(text)
    default: return nil
    }
  }

  /// A count of things each at least `least` bytes long, when that many could be there.
  mutating func count(least: Int) -> Int? {
    guard let count = number(), count <= (end - offset) / least else { return nil }
    return count
  }

  mutating func textRange() -> TextRange? {
    guard let start = number(), let stop = number(), start <= stop else { return nil }
    return TextRange(start: start, end: stop)
  }

  mutating func body() -> CheckCacheEntry? {
    let model: CheckCacheEntry.ModelReference
    switch number() {
    case 0: model = .none
    case 1: model = .shippedDefault
    case 2:
      guard let path = path() else { return nil }
      model = .file(path)
    default: return nil
    }
    guard let dependencyCount = count(least: 24) else { return nil }
    var dependencies: [CheckCacheEntry.Dependency] = []
    for _ in 0..<dependencyCount {
      guard let path = path(), let digest = data(), digest.count == 32 else { return nil }
      dependencies.append(CheckCacheEntry.Dependency(path: path, digest: digest))
    }
    guard let diagnosticCount = count(least: 48) else { return nil }
    var diagnostics: [Diagnostic] = []
    var relatedFiles: [[CheckCacheEntry.StoredPath?]] = []
    for _ in 0..<diagnosticCount {
      guard let code = text(), !code.isEmpty, let severityIndex = number(),
        Severity.allCases.indices.contains(severityIndex),
        let message = text(), let range = textRange(), let relatedCount = count(least: 32)
      else { return nil }
      var related: [RelatedLocation] = []
      var files: [CheckCacheEntry.StoredPath?] = []
      for _ in 0..<relatedCount {
        guard let place = textRange(), let note = text(), let hasFile = number() else { return nil }
        var file: CheckCacheEntry.StoredPath?
        switch hasFile {
        case 0: file = nil
        case 1:
          guard let path = path() else { return nil }
          file = path
        default: return nil
        }
        related.append(RelatedLocation(range: place, message: note))
        files.append(file)
      }
      diagnostics.append(
        Diagnostic(
          DiagnosticCode(rawValue: code), message, at: range, severity: Severity.allCases[severityIndex],
          related: related))
      relatedFiles.append(files)
    }
    var itemNames: [String]?
    switch number() {
    case 0: break
    case 1:
      guard let count = count(least: 8) else { return nil }
      var names: [String] = []
      for _ in 0..<count {
        guard let name = text() else { return nil }
        names.append(name)
      }
      itemNames = names
    default: return nil
    }
    return CheckCacheEntry(
      model: model, dependencies: dependencies, diagnostics: diagnostics, relatedFiles: relatedFiles,
      itemNames: itemNames)
  }
}
