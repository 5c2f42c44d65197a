import OutlineCore
import OutlineModel
import OutlineXML

/// A document's root element as the version check reads it: its attributes
/// and the ranges OL108 points at, read from the first bytes of the text only.
public struct DocumentRoot: Sendable, Equatable {
  /// The root's attributes, decoded.
  public var attributes: [String: String]
  /// The range of the root's element name.
  public var nameRange: TextRange
  /// The range of the root's `modelVersion` value, when it has one.
  public var versionRange: TextRange?

  /// A root with `attributes`, its name at `nameRange`, its `modelVersion` value at `versionRange`.
  public init(attributes: [String: String], nameRange: TextRange, versionRange: TextRange? = nil) {
    self.attributes = attributes
    self.nameRange = nameRange
    self.versionRange = versionRange
  }

  /// Reads the root from the chunks `chunks` hands to its callback, which
  /// answers false once the root was read (so the rest need not be read);
  /// nil when the text ends or breaks before a root.
  public static func read(_ chunks: ((ByteView) -> Bool) -> Void) -> DocumentRoot? {
    let reader = Reader()
    let parser = XMLEventParser(handler: reader)
    chunks { chunk in
      guard !reader.done else { return false }
      parser.feed(chunk)
      return !reader.done
    }
    if !reader.done { parser.finish() }
    return reader.root
  }

  /// Reads the root of `bytes`, in 64 KiB steps.
  public static func read(_ bytes: [UInt8]) -> DocumentRoot? {
    read { body in
      bytes.withByteView { all in
        var start = 0
        while start < all.count {
          let end = min(all.count, start + (64 << 10))
          guard body(all.extracting(start..<end)) else { return }
          start = end
        }
      }
    }
  }

  private final class Reader: XMLEventHandler {
    var root: DocumentRoot?
    var failed = false
    var done: Bool { root != nil || failed }

    func startElement(_ tag: StartTag) {
      guard root == nil else { return }
      var read = DocumentRoot(attributes: [:], nameRange: tag.nameRange, versionRange: nil)
      for index in 0..<tag.attributes.count {
        let name = XMLName.string(tag.name(of: index))
        read.attributes[name] = tag.value(of: index)
        if name == "modelVersion" { read.versionRange = tag.valueRange(of: index) }
      }
      root = read
    }
    func endElement(range: TextRange?) {}
    func comment(range: TextRange, content: ByteView) {}
    func text(range: TextRange) {}
    func doctype(range: TextRange) { failed = true }
    func syntaxError(message: String, range: TextRange, isFatal: Bool) { if isFatal { failed = true } }
  }
}

extension DocumentVersionStatus {
  /// The status of a document whose root is `root`, for `history`: the
  /// recorded version, else the inferred one. `fitsCurrent` says the document
  /// was validated against the current version with no errors, so inference
  /// would choose it and is skipped; otherwise `feed` hands the whole text to
  /// the parser of the inference (validating it against every version).
  public static func of(
    root: DocumentRoot, history: ModelHistory, fitsCurrent: Bool, feed: (XMLEventParser) -> Void
  ) -> DocumentVersionStatus {
    let (index, inferred) = Migration.sourceVersion(rootAttributes: root.attributes, history: history) {
      fitsCurrent
        ? VersionInference.Result(version: history.current, errors: [])
        : VersionInference.infer(history: history, feed: feed)
    }
    return DocumentVersionStatus(
      history: history, version: index, isRecorded: !inferred, range: root.versionRange ?? root.nameRange)
  }

  /// What `outline migrate` (no `--set`, no `--allow-data-loss`) would find
  /// migrating the text `feed` hands out in chunks to the current version,
  /// without writing anything: the result is validated as `migrate --check` does.
  public func pendingOutcome(feed: ((ByteView) -> Void) -> Void) -> MigrationOutcome {
    let plan = MigrationPlan(
      history: history, from: version, to: max(version, history.current), settings: MigrationSettings())
    return Migration.run(plan: plan, feed: feed, write: { _ in })
  }

  /// The OL108 diagnostic of a pending migration, saying why `outline migrate`
  /// would refuse it when `refusal` is given; nil when no migration is pending.
  public func pendingDiagnostic(refusal: String?) -> Diagnostic? {
    guard let message = pendingMessage else { return nil }
    guard let refusal else { return Diagnostic(.migrationPending, message, at: range) }
    return Diagnostic(.migrationPending, "\(message); it cannot be migrated as it is: \(refusal)", at: range)
  }
}
