import OutlineCore
import OutlineModel
import OutlineValidation
import OutlineXML

/// Which version of a model a document fits, when it does not say.
public enum VersionInference {
  /// The result: the version's index and how many errors the document has against each version.
  public struct Result: Sendable, Equatable {
    /// The index of the version the document fits best.
    public var version: Int
    /// Per version, the number of errors.
    public var errors: [Int]

    /// A result naming `version`, with the errors per version.
    public init(version: Int, errors: [Int]) {
      self.version = version
      self.errors = errors
    }
  }

  /// Validates the document `feed` hands to the parser against every version
  /// of `history` in one parse: the version with no errors, else the fewest;
  /// among equals the newest not after the current one.
  public static func infer(history: ModelHistory, feed: (XMLEventParser) -> Void) -> Result {
    let validators = history.versions.map { OutlineValidator(modelProvider: fixedModel($0.model)) }
    let parser = XMLEventParser(handler: FanOut(validators))
    feed(parser)
    parser.finish()
    var errors: [Int] = []
    for validator in validators {
      validator.finish()
      errors.append(validator.diagnostics.count { $0.severity == .error })
    }
    return Result(version: best(errors, current: history.current), errors: errors)
  }

  /// The index with the fewest errors, preferring the current version, then the newest before it.
  public static func best(_ errors: [Int], current: Int) -> Int {
    guard let fewest = errors.min() else { return current }
    if errors[current] == fewest { return current }
    let candidates = errors.indices.filter { errors[$0] == fewest }
    return candidates.last { $0 < current } ?? candidates[0]
  }
}

/// Hands every event to several handlers, in order.
public final class FanOut: XMLEventHandler {
  private let handlers: [any XMLEventHandler]

  /// A fan-out to `handlers`.
  public init(_ handlers: [any XMLEventHandler]) { self.handlers = handlers }

  public func startElement(_ tag: StartTag) { for handler in handlers { handler.startElement(tag) } }
  public func endElement(range: TextRange?) { for handler in handlers { handler.endElement(range: range) } }
  public func comment(range: TextRange, content: ByteView) {
    for handler in handlers { handler.comment(range: range, content: content) }
  }
  public func text(range: TextRange) { for handler in handlers { handler.text(range: range) } }
  public func doctype(range: TextRange) { for handler in handlers { handler.doctype(range: range) } }
  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    for handler in handlers { handler.syntaxError(message: message, range: range, isFatal: isFatal) }
  }
  public func processingInstruction(range: TextRange) {
    for handler in handlers { handler.processingInstruction(range: range) }
  }
  public func markup(range: TextRange, bytes: ByteView) {
    for handler in handlers { handler.markup(range: range, bytes: bytes) }
  }
}

/// Reads the root's attributes and nothing else (feeding may stop once `done`).
public final class RootProbe: XMLEventHandler {
  /// The root's attributes, decoded, once seen.
  public private(set) var attributes: [String: String]?
  /// Where a `modelVersion` attribute goes: after `model` (else `version`, else the root's name).
  public private(set) var versionInsertion: Int?
  /// Whether the root was seen or the document ended in an error.
  public var done: Bool { attributes != nil || failed }
  private var failed = false

  /// A probe.
  public init() {}

  public func startElement(_ tag: StartTag) {
    guard attributes == nil else { return }
    var values: [String: String] = [:]
    for index in 0..<tag.attributes.count {
      values[XMLName.string(tag.name(of: index))] = tag.value(of: index)
    }
    attributes = values
    let after = tag.index(of: "model") ?? tag.index(of: "version")
    versionInsertion = after.map { tag.valueRange(of: $0).end + 1 } ?? tag.nameRange.end
  }

  /// The edit recording `version` on the root of `bytes` when it records none; nil otherwise.
  public static func recordingEdit(version: String, in bytes: [UInt8]) -> TextEdit? {
    let probe = RootProbe()
    let parser = XMLEventParser(handler: probe)
    var start = 0
    bytes.withByteView { all in
      while !probe.done && start < all.count {
        let end = min(all.count, start + (64 << 10))
        parser.feed(all.extracting(start..<end))
        start = end
      }
    }
    if !probe.done { parser.finish() }
    guard let attributes = probe.attributes, attributes["modelVersion"] == nil,
      let at = probe.versionInsertion
    else { return nil }
    return TextEdit(
      range: TextRange(at: at), newText: " modelVersion=\"\(XMLEscaping.escapeAttribute(version))\"")
  }
  public func endElement(range: TextRange?) {}
  public func comment(range: TextRange, content: ByteView) {}
  public func text(range: TextRange) {}
  public func doctype(range: TextRange) { failed = true }
  public func syntaxError(message: String, range: TextRange, isFatal: Bool) { if isFatal { failed = true } }
}
