import OutlineCore
import OutlineXML

/// `<!-- outline-disable CODE... -->` (the whole file) and
/// `<!-- outline-disable-next CODE... -->` (the next object's start tag).
///
/// The validator collects it as the comments stream by; checks added after
/// validation (OL108) filter their diagnostics through it too.
public struct Suppression: Sendable {
  private var fileCodes: Set<String> = []
  private var pending: Set<String> = []
  private var scoped: [(range: TextRange, codes: Set<String>)] = []

  mutating func comment(_ content: UnsafeBufferPointer<UInt8>) {
    // Most comments are prose: look at the first bytes before decoding the
    // whole comment (which may be megabytes) into words.
    let directive = Array("outline-disable".utf8)
    guard let first = content.firstIndex(where: { !XMLName.isSpace($0) }),
      content.count - first >= directive.count,
      directive.elementsEqual(content[first..<first + directive.count])
    else { return }
    let words = String(decoding: content, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    guard let directive = words.first else { return }
    let codes = words.dropFirst().map(String.init)
    switch directive {
    case "outline-disable": fileCodes.formUnion(codes)
    case "outline-disable-next": pending.formUnion(codes)
    default: break
    }
  }

  @inline(__always)
  mutating func elementStarted(_ tag: TextRange) {
    guard !pending.isEmpty else { return }
    scoped.append((tag, pending))
    pending = []
  }

  /// No comment turns anything off.
  public init() {}

  /// `diagnostics` without those a comment turns off.
  public func filter(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    if isEmpty { return diagnostics }
    return diagnostics.filter { !silences($0) }
  }

  /// Whether no comment turns anything off.
  public var isEmpty: Bool { fileCodes.isEmpty && scoped.isEmpty }

  /// Whether a comment turns `diagnostic` off.
  public func silences(_ diagnostic: Diagnostic) -> Bool {
    // A syntax error is never turned off: nothing after it was read.
    if diagnostic.code == .notWellFormed { return false }
    let code = diagnostic.code.rawValue
    if fileCodes.contains(code) { return true }
    guard let index = lastScope(startingAtOrBefore: diagnostic.range.start) else { return false }
    let scope = scoped[index]
    return scope.codes.contains(code) && scope.range.contains(diagnostic.range)
  }

  /// Whether some `outline-disable-next` start tag overlaps `range` (an edit there may change what it covers).
  public func hasScope(overlapping range: TextRange) -> Bool {
    scoped.contains { $0.range.start <= range.end && range.start <= $0.range.end }
  }

  /// Moves the start tags the comments cover to `transform` of their ranges (the text was edited elsewhere).
  public mutating func moveScopes(_ transform: (TextRange) -> TextRange) {
    for index in scoped.indices { scoped[index].range = transform(scoped[index].range) }
  }

  /// The last scoped start tag that begins at or before `offset`: start tags
  /// do not overlap and arrive in document order, so only that one can hold
  /// a diagnostic starting at `offset` (a binary search keeps one scope per
  /// item and one problem per item linear-logarithmic, not quadratic).
  private func lastScope(startingAtOrBefore offset: Int) -> Int? {
    let after = Partition.point(scoped.count) { scoped[$0].range.start <= offset }
    return after == 0 ? nil : after - 1
  }
}
