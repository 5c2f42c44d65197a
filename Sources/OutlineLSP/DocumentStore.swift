import Foundation
import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineValidation
import OutlineWorkspace

/// One version of an open document, with its analysis computed once, on
/// first use, by whichever thread needs it first.
final class Snapshot: @unchecked Sendable {
  let uri: String
  let version: Int
  let source: SourceText
  /// The file path when the URI is a `file:` URI.
  let path: String?
  private let lock = NSLock()
  private var cached: DocumentCheck?
  private let analyze: @Sendable (SourceText, String?) -> DocumentCheck

  init(
    uri: String, version: Int, source: SourceText,
    analyze: @escaping @Sendable (SourceText, String?) -> DocumentCheck
  ) {
    self.uri = uri
    self.version = version
    self.source = source
    self.path = Snapshot.path(of: uri)
    self.analyze = analyze
  }

  /// Diagnostics, tree and model of this version.
  var analysis: DocumentCheck {
    lock.lock()
    defer { lock.unlock() }
    if let cached { return cached }
    let result = analyze(source, path)
    cached = result
    return result
  }

  /// A new version with `text`, sharing nothing but the identity.
  func replacing(version: Int, source: SourceText) -> Snapshot {
    Snapshot(uri: uri, version: version, source: source, analyze: analyze)
  }

  static func path(of uri: String) -> String? {
    guard uri.hasPrefix("file://"), let url = URL(string: uri) else { return nil }
    return url.path
  }
}

/// The open documents and what their analysis reads from disk (models and
/// configurations, cached): the in-process API the features and their tests
/// use. Not thread-safe by itself: the server touches it on its state queue
/// only, and features read the immutable ``Snapshot``s it hands out.
final class DocumentStore: @unchecked Sendable {
  private(set) var documents: [String: Snapshot] = [:]
  let configurations = ConfigurationFinder()
  let models = ModelCache()

  init() {}

  /// The open document at `uri`.
  subscript(uri: String) -> Snapshot? { documents[uri] }

  /// Opens (or reopens) `uri` with `text`; returns its first snapshot.
  @discardableResult
  func open(uri: String, version: Int = 0, text: [UInt8]) -> Snapshot {
    let snapshot = Snapshot(uri: uri, version: version, source: SourceText(bytes: text), analyze: analyzer())
    documents[uri] = snapshot
    return snapshot
  }

  /// Opens `uri` with `text`.
  @discardableResult
  func open(uri: String, version: Int = 0, text: String) -> Snapshot {
    open(uri: uri, version: version, text: Array(text.utf8))
  }

  /// Applies content changes to an open document; nil when it is not open
  /// or a change is not a text change (the document then stays as it was).
  func change(
    uri: String, version: Int?, changes: [LSP.TextDocumentContentChangeEvent], mapper: PositionMapper
  )
    -> Snapshot?
  {
    guard let document = documents[uri],
      let source = ContentChanges.apply(changes, to: document.source, mapper: mapper)
    else { return nil }
    let snapshot = document.replacing(version: version ?? document.version + 1, source: source)
    documents[uri] = snapshot
    return snapshot
  }

  /// Forgets `uri`.
  func close(uri: String) {
    documents[uri] = nil
  }

  /// A model or configuration changed on disk: forget the cached ones and
  /// give every open document a fresh snapshot (same text and version) to analyze again.
  func dependenciesChanged() {
    models.invalidate()
    configurations.invalidate()
    for (uri, snapshot) in documents {
      documents[uri] = snapshot.replacing(version: snapshot.version, source: snapshot.source)
    }
  }

  private func analyzer() -> @Sendable (SourceText, String?) -> DocumentCheck {
    let configurations = self.configurations
    let models = self.models
    return { source, path in
      if let path, DocumentCheck.isJSONForm(path) {
        return DocumentCheck.runJSON(
          ByteBuffer(copying: source.bytes), path: path, modelOverride: nil, configurations: configurations,
          models: models)
      }
      return DocumentCheck.run(
        source, path: path, modelOverride: nil, configurations: configurations, models: models,
        buildTree: true)
    }
  }
}

/// Applies `textDocument/didChange` content changes in order.
enum ContentChanges {
  /// The text after `changes` (incremental ranges or whole texts); nil when a range is invalid.
  static func apply(
    _ changes: [LSP.TextDocumentContentChangeEvent], to source: SourceText, mapper: PositionMapper
  )
    -> SourceText?
  {
    var current = source
    for change in changes {
      guard let rangeValue = change.range else {
        current = SourceText(bytes: change.text.bytes)
        continue
      }
      guard let range = mapper.textRange(rangeValue, in: current) else { return nil }
      var bytes = current.bytes
      bytes.replaceSubrange(range.start..<range.end, with: change.text.bytes)
      current = SourceText(bytes: bytes)
    }
    return current
  }
}
