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

/// Applies `textDocument/didChange` content changes in order.
enum ContentChanges {
  /// The text after `changes` (incremental ranges or whole texts); nil when a range is invalid.
  static func apply(_ changes: [JSONValue], to source: SourceText, mapper: PositionMapper) -> SourceText? {
    var current = source
    for change in changes {
      guard let text = change["text"]?.utf8Value else { return nil }
      guard let rangeValue = change["range"] else {
        current = SourceText(bytes: text)
        continue
      }
      guard let range = mapper.textRange(rangeValue, in: current) else { return nil }
      var bytes = current.bytes
      bytes.replaceSubrange(range.start..<range.end, with: text)
      current = SourceText(bytes: bytes)
    }
    return current
  }
}
