import Foundation
import OutlineCore
import OutlineMigration
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// Validates one document the way every face of the toolchain does: the
/// configuration found for it, its model chosen by SPEC §8's order, its rules applied.
public struct DocumentCheck: Sendable {
  /// The diagnostics after the configuration's rules.
  public var diagnostics: [Diagnostic]
  /// The item tree, when asked for.
  public var tree: ItemTree?
  /// The model it was validated against.
  public var model: Model?
  /// The configuration that applied.
  public var configuration: Configuration?
  /// The root entity the document was read with.
  public var rootEntity: Int?
  /// Whether children come in order order, grouped by relationship (serializers can stream).
  public var childrenInOrder = true
  /// When the model could not be read (OL102): who named it.
  public var unreadableModelOrigin: ModelOrigin?
  /// Whether the document is in the JSON form (its diagnostics point into the JSON text).
  public var isJSONForm = false
  /// The model version the document is for, when its model is a bundle of several (``checkVersion(histories:source:)``).
  public var versionStatus: DocumentVersionStatus?

  /// Whether the text parsed (no OL100/OL104), so edits may be applied to it.
  public var parsed: Bool {
    !diagnostics.contains { $0.code == .notWellFormed || $0.code == .doctypePresent }
  }

  /// Checks `source`, found at `path` (nil for standard input or an unsaved buffer).
  /// `alongside` makes a handler that receives every event right after the
  /// validator, in the same parse (a writer that consults the validator).
  public static func run(
    _ source: SourceText, path: String?, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache, buildTree: Bool, alongside: ((OutlineValidator) -> any XMLEventHandler)? = nil
  ) -> DocumentCheck {
    check(
      path: path, modelOverride: modelOverride, configurations: configurations, models: models,
      buildTree: buildTree, alongside: alongside,
      pipelined: source.bytes.count >= XMLEventPipeline.worthwhileBytes
    ) { parser in
      source.bytes.withUnsafeBufferPointer { parser.feed($0) }
    }
  }

  /// Checks the file at `path` as it streams from disk in 1 MiB chunks, so
  /// memory does not grow with the file; the returned lines read back only
  /// the lines diagnostics point to. Throws when the file cannot be read.
  ///
  /// Only a regular file is read (a FIFO or a device is refused before a
  /// byte is read), and never more than `limit + 1` bytes of it.
  public static func stream(
    path: String, modelOverride: String?, configurations: ConfigurationFinder, models: ModelCache,
    limit: Int = InputFile.defaultLimit, alongside: ((OutlineValidator) -> any XMLEventHandler)? = nil,
    progress: ((_ read: Int, _ size: Int) -> Void)? = nil
  ) throws(ReadError) -> (DocumentCheck, FileLines) {
    var lines = LineIndex()
    var failure: ReadError?
    let descriptor = try InputFile.open(path)
    defer { close(descriptor) }
    var info = stat()
    let large = fstat(descriptor, &info) == 0 && Int(info.st_size) >= XMLEventPipeline.worthwhileBytes
    if Int(info.st_size) > limit { throw InputFile.tooLarge(InputFile.quoted(path), limit: limit) }
    let check = check(
      path: path, modelOverride: modelOverride, configurations: configurations, models: models,
      buildTree: false, alongside: alongside, pipelined: large
    ) { parser in
      do {
        var read = 0
        try FileChunks.read(descriptor: descriptor, name: InputFile.quoted(path), limit: limit) { chunk in
          lines.append(chunk)
          parser.feed(chunk)
          read += chunk.count
          progress?(read, Int(info.st_size))
        }
      } catch let error as ReadError {
        failure = error
      } catch {
        failure = ReadError(description: "cannot read '\(path)': \(error)")
      }
    }
    if let failure { throw failure }
    return (check, FileLines(path: path, lines: lines))
  }

  private static func check(
    path: String?, modelOverride: String?, configurations: ConfigurationFinder, models: ModelCache,
    buildTree: Bool, alongside: ((OutlineValidator) -> any XMLEventHandler)?, pipelined: Bool,
    feed: (XMLEventParser) -> Void
  ) -> DocumentCheck {
    let configuration = configurations.configuration(for: path ?? "./-")
    let resolution = ModelResolution(override: modelOverride, configuration: configuration, cache: models)
    let chooser = resolution.provider(for: path)
    let unreadable = OriginRecord()
    let provider: ModelProvider = { attribute in
      let choice = chooser(attribute)
      if case .unreadable = choice { unreadable.set(resolution.origin(of: attribute, for: path)) }
      return choice
    }
    let validator = OutlineValidator(modelProvider: provider, buildTree: buildTree)
    let handler: any XMLEventHandler = alongside.map { XMLEventTee(validator, $0(validator)) } ?? validator
    let pipeline = pipelined ? XMLEventPipeline(handler: handler) : nil
    let parser = XMLEventParser(handler: pipeline ?? handler)
    feed(parser)
    parser.finish()
    pipeline?.finish()
    validator.finish()
    var diagnostics = validator.diagnostics
    if let configuration { diagnostics = configuration.apply(to: diagnostics) }
    return DocumentCheck(
      diagnostics: Diagnostic.sortedByPosition(diagnostics), tree: validator.tree, model: validator.model,
      configuration: configuration, rootEntity: validator.rootEntity,
      childrenInOrder: validator.childrenInOrder, unreadableModelOrigin: unreadable.value)
  }
}

/// The origin of a model that could not be read, set from the validator's callback.
private final class OriginRecord: @unchecked Sendable {
  private let lock = NSLock()
  private var origin: ModelOrigin?
  func set(_ origin: ModelOrigin) {
    lock.lock()
    self.origin = origin
    lock.unlock()
  }
  var value: ModelOrigin? {
    lock.lock()
    defer { lock.unlock() }
    return origin
  }
}

/// Reads a file front to back in 1 MiB chunks.
public enum FileChunks {
  /// Calls `body` with each chunk of the regular file at `path` (at most `limit` bytes).
  public static func read(
    _ path: String, limit: Int = InputFile.defaultLimit, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(ReadError) {
    let descriptor = try InputFile.open(path)
    defer { close(descriptor) }
    try read(descriptor: descriptor, name: InputFile.quoted(path), limit: limit, body)
  }

  /// Calls `body` with each chunk read from `descriptor` until its end;
  /// `name` says what it is in an error (`'path'`, `standard input`).
  /// With a `limit`, an input longer than it is an error, found having read
  /// at most `limit + 1` bytes (`body` never sees more than `limit`).
  public static func read(
    descriptor: Int32, name: String, limit: Int? = nil, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(ReadError) {
    // Chunks of 1 MiB, or the size of a smaller regular file and one byte
    // (to see its end): a run over many small files allocates little, and
    // nothing is zeroed before it is read into.
    var info = stat()
    let size =
      fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 1 << 20
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(1 << 20, max(1 << 12, size + 1)))
    defer { chunk.deallocate() }
    var total = 0
    while true {
      // Ask for no more than one byte past the limit.
      let wanted = limit.map { min(chunk.count, $0 + 1 - total) } ?? chunk.count
      let count = platformRead(descriptor, chunk.baseAddress, wanted)
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK {
          // A non-blocking descriptor with nothing yet (standard input can be one): wait for it.
          var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          _ = poll(&poller, 1, -1)
          continue
        }
        throw ReadError(
          description: "cannot read \(name): \(String(decoding: strerrorBytes(errno), as: UTF8.self))")
      }
      if count == 0 { return }
      total += count
      if let limit, total > limit { throw InputFile.tooLarge(name, limit: limit) }
      body(UnsafeBufferPointer(rebasing: chunk[0..<count]))
    }
  }
}

/// Why a file could not be read.
public struct ReadError: Error, CustomStringConvertible, Sendable {
  /// What failed, naming the path.
  public let description: String
}

func strerrorBytes(_ code: Int32) -> [UInt8] {
  guard let message = strerror(code) else { return Array("error \(code)".utf8) }
  return Array(
    UnsafeBufferPointer(
      start: UnsafeRawPointer(message).assumingMemoryBound(to: UInt8.self), count: strlen(message)))
}
