import Foundation
import OutlineCore
import OutlineFiles
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
  /// When the model could not be read (OL102) or was refused for lying outside the project
  /// (OL106): who named it.
  public var unreadableModelOrigin: ModelOrigin?
  /// Whether the document is in the JSON form (its diagnostics point into the JSON text).
  public var isJSONForm = false
  /// The model version the document is for, when its model is a bundle of several (``checkVersion(histories:source:)``).
  public var versionStatus: DocumentVersionStatus?
  /// The document's `outline-disable` comments, for checks made after validation.
  public var suppression = Suppression()
  /// Whether the document writes a reference to an id (true when not known).
  public var madeReferences = true
  /// The errors a rule or an `outline-disable` comment turned off (or made less than errors):
  /// not reported, but a conversion that cannot write what they point at refuses all the same.
  public var silencedErrors: [Diagnostic] = []
  /// Namespace declarations a conversion cannot keep (``OutlineValidator/unportableNamespaces``).
  public var unportableNamespaces: [Diagnostic] = []

  /// Whether a model that `--model` or the configuration named could not be read, or lies
  /// outside the project: trouble of the run (exit 2) in every command, not the document's own
  /// problem (one the document names is, exit 1).
  public var namedModelIsUnreadable: Bool {
    unreadableModelOrigin == .commandLine || unreadableModelOrigin == .configuration
  }

  /// The OL102 (or OL106) saying why, when ``namedModelIsUnreadable`` (and no rule turned it off).
  public var unreadableNamedModel: Diagnostic? {
    namedModelIsUnreadable
      ? diagnostics.first { $0.code == .modelUnreadable || $0.code == .modelOutsideProject } : nil
  }

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
    source.bytes.withByteView { bytes in
      check(
        path: path, modelOverride: modelOverride, configurations: configurations, models: models,
        buildTree: buildTree, alongside: alongside,
        pipelined: bytes.count >= XMLEventPipeline.worthwhileBytes, documentBytes: bytes.count
      ) { parser, pipeline in
        // The bytes stay put while the check runs: the pipeline reads its start tags there.
        if let pipeline {
          pipeline.readInPlace(bytes)
          parser.feed(bytes)
        } else {
          parser.feedWhole(bytes)
        }
      }
    }
  }

  /// Checks a document that `feed` hands to the parser in chunks (its argument takes each: a
  /// file read piece by piece, standard input, bytes in memory), found at `path` (nil for
  /// standard input). `size` (nil when unknown) says whether a second thread is worth it.
  public static func run(
    path: String?, size: Int?, modelOverride: String?, configurations: ConfigurationFinder,
    models: ModelCache, alongside: ((OutlineValidator) -> any XMLEventHandler)? = nil,
    feed: (_ parse: (ByteView) -> Void) -> Void
  ) -> DocumentCheck {
    check(
      path: path, modelOverride: modelOverride, configurations: configurations, models: models,
      buildTree: false, alongside: alongside,
      pipelined: (size ?? Int.max) >= XMLEventPipeline.worthwhileBytes
    ) { parser, _ in
      feed { parser.feed($0) }
    }
  }

  /// Checks the file at `path` as it streams from disk in 1 MiB chunks, so
  /// memory does not grow with the file; the returned lines read back only
  /// the lines diagnostics point to, and are indexed (the file read again)
  /// only when first asked for. Throws when the file cannot be read.
  ///
  /// Only a regular file is read (a FIFO or a device is refused before a
  /// byte is read), and never more than `limit + 1` bytes of it.
  public static func stream(
    path: String, modelOverride: String?, configurations: ConfigurationFinder, models: ModelCache,
    limit: Int = InputFile.defaultLimit, alongside: ((OutlineValidator) -> any XMLEventHandler)? = nil,
    progress: ((_ read: Int, _ size: Int) -> Void)? = nil
  ) throws(ReadError) -> (DocumentCheck, FileLines) {
    var failure: ReadError?
    let descriptor = try InputFile.open(path)
    defer { close(descriptor) }
    var info = stat()
    let large = fstat(descriptor, &info) == 0 && Int(info.st_size) >= XMLEventPipeline.worthwhileBytes
    if Int(info.st_size) > limit { throw InputFile.tooLarge(InputFile.quoted(path), limit: limit) }
    let check = check(
      path: path, modelOverride: modelOverride, configurations: configurations, models: models,
      buildTree: false, alongside: alongside, pipelined: large, documentBytes: Int(info.st_size)
    ) { parser, pipeline in
      do {
        var read = 0
        func feed(_ chunk: ByteView) {
          parser.feed(chunk)
          read += chunk.count
          progress?(read, Int(info.st_size))
        }
        if let pipeline {
          // Read into the pipeline's chunks, where its other thread reads the start tags.
          try FileChunks.read(
            descriptor: descriptor, name: InputFile.quoted(path), limit: limit, into: pipeline.chunkBuffer
          ) { feed(pipeline.chunkRead($0)) }
        } else {
          try FileChunks.readViews(descriptor: descriptor, name: InputFile.quoted(path), limit: limit, feed)
        }
      } catch let error as ReadError {
        failure = error
      } catch {
        failure = ReadError(description: "cannot read \(Excerpt.quotedPath(path)): \(error)")
      }
    }
    if let failure { throw failure }
    return (check, FileLines(indexingWhenAsked: path))
  }

  static func check(
    path: String?, modelOverride: String?, configurations: ConfigurationFinder, models: ModelCache,
    buildTree: Bool, alongside: ((OutlineValidator) -> any XMLEventHandler)?, pipelined: Bool,
    documentBytes: Int? = nil, feed: (XMLEventParser, XMLEventPipeline?) -> Void
  ) -> DocumentCheck {
    let configuration = configurations.configuration(for: path ?? "./-")
    let resolution = ModelResolution(override: modelOverride, configuration: configuration, cache: models)
    let chooser = resolution.provider(for: path)
    let unreadable = OriginRecord()
    let provider: ModelProvider = { attribute in
      let choice = chooser(attribute)
      switch choice {
      case .unreadable, .refused: unreadable.set(resolution.origin(of: attribute, for: path))
      case .loaded: break
      }
      return choice
    }
    // A small document's validator is the thread's, reused (nothing else keeps it).
    let reusable = !buildTree && alongside == nil && !pipelined
    let validator =
      reusable
      ? ValidatorCache.take(modelProvider: provider)
      : OutlineValidator(modelProvider: provider, buildTree: buildTree)
    // A large document's tree is sized once (small ones grow as they go).
    if let documentBytes, pipelined { validator.prepare(forDocumentBytes: documentBytes) }
    let handler: any XMLEventHandler = alongside.map { XMLEventTee(validator, $0(validator)) } ?? validator
    let pipeline = pipelined ? XMLEventPipeline(handler: handler) : nil
    let parser = XMLEventParser(handler: pipeline ?? handler)
    feed(parser, pipeline)
    parser.finish()
    pipeline?.finish()
    validator.finish()
    var diagnostics = validator.diagnostics
    var silencedErrors = validator.silencedErrors
    if let configuration {
      silencedErrors += diagnostics.filter { configuration.silences($0) }
      diagnostics = configuration.apply(to: diagnostics)
    }
    let check = DocumentCheck(
      diagnostics: Diagnostic.sortedByPosition(diagnostics), tree: validator.tree, model: validator.model,
      configuration: configuration, rootEntity: validator.rootEntity,
      childrenInOrder: validator.childrenInOrder, unreadableModelOrigin: unreadable.value,
      suppression: validator.suppression, madeReferences: validator.madeReferences,
      silencedErrors: silencedErrors, unportableNamespaces: validator.unportableNamespaces)
    if reusable { ValidatorCache.keep(validator) }
    return check
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
