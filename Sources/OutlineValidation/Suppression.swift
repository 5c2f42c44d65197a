import OutlineCore
import OutlineXML

/// `<!-- outline-disable CODE... -->` (the whole file) and
/// `<!-- outline-disable-next CODE... -->` (the next object's start tag).
struct Suppression {
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

  mutating func elementStarted(_ tag: TextRange) {
    guard !pending.isEmpty else { return }
    scoped.append((tag, pending))
    pending = []
  }

  func filter(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    if fileCodes.isEmpty && scoped.isEmpty { return diagnostics }
    return diagnostics.filter { diagnostic in
      let code = diagnostic.code.rawValue
      if fileCodes.contains(code) { return false }
      return !scoped.contains { $0.codes.contains(code) && $0.range.contains(diagnostic.range) }
    }
  }
}
