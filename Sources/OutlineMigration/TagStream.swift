import Foundation
import OutlineCore
import OutlineXML

/// Hands a handler the start and end tags of a text that arrives in chunks,
/// found by a byte scan instead of libxml2, for ``OrderCensus``'s first pass:
/// it costs a fraction of a parse.
///
/// For a well-formed document the tags are exactly the parser's: in one,
/// `<` starts markup everywhere but inside comments, CDATA sections and
/// processing instructions (skipped to their terminators), and `>` ends a
/// start tag everywhere but inside its quoted values. A document that is not
/// well-formed may get another census, which does not matter: the
/// migration's own parse finds it and nothing is written. A DOCTYPE (which
/// could declare attributes the tags do not show) stops the scan: the
/// migration refuses such a document anyway. Memory holds the unfinished
/// markup at a chunk's end only.
final class TagStream {
  private let handler: any XMLEventHandler
  /// The bytes of the unfinished markup at the end of the last chunk.
  private var carry: [UInt8] = []
  /// The global offset of the next chunk's first byte.
  private var offset = 0
  private var attributes: [RawAttribute] = []
  /// Whether the scan stopped at a DOCTYPE or other declaration.
  private(set) var failed = false

  /// A stream that hands `handler` each start tag and end.
  init(handler: any XMLEventHandler) { self.handler = handler }

  /// Scans the next chunk.
  func feed(_ chunk: ByteView) {
    guard !failed else { return }
    if carry.isEmpty {
      let used = scan(chunk, at: offset)
      if used < chunk.count { carry.append(contentsOf: chunk[used...]) }
      offset += used
      return
    }
    carry.append(contentsOf: chunk)
    let used = carry.withByteView { scan($0, at: offset) }
    carry.removeFirst(used)
    offset += used
  }

  private static let lt = UInt8(ascii: "<")
  private static let gt = UInt8(ascii: ">")

  /// Hands out every complete tag of `bytes` (at global `base`); returns how many bytes were used:
  /// everything before the first unfinished markup.
  private func scan(_ bytes: ByteView, at base: Int) -> Int {
    let count = bytes.count
    var index = 0
    while index < count {
      guard let open = bytes.firstIndex(of: Self.lt, from: index) else { return count }
      guard open + 1 < count else { return open }
      switch bytes[open + 1] {
      case UInt8(ascii: "/"):
        guard let close = bytes.firstIndex(of: Self.gt, from: open + 2) else { return open }
        handler.endElement(range: TextRange(start: base + open, end: base + close + 1))
        index = close + 1
      case UInt8(ascii: "?"):
        guard let end = Self.end(of: "?>", in: bytes, from: open + 2) else { return open }
        index = end
      case UInt8(ascii: "!"):
        if bytes.starts(with: "<!--", at: open) {
          guard let end = Self.end(of: "-->", in: bytes, from: open + 4) else { return open }
          index = end
        } else if bytes.starts(with: "<![CDATA[", at: open) {
          guard let end = Self.end(of: "]]>", in: bytes, from: open + 9) else { return open }
          index = end
        } else if count - open < 9 {
          return open
        } else {
          failed = true
          return count
        }
      default:
        guard let close = Self.tagEnd(in: bytes, from: open + 1) else { return open }
        TagScanner.withStartTag(bytes.extracting(open..<close + 1), at: base + open, attributes: &attributes)
        {
          tag in
          handler.startElement(tag)
          if tag.isSelfClosing { handler.endElement(range: nil) }
        }
        index = close + 1
      }
    }
    return count
  }

  /// The offset of the start tag's `>` (outside quoted values), from `from`.
  private static func tagEnd(in bytes: ByteView, from: Int) -> Int? {
    var index = from
    while index < bytes.count {
      let byte = bytes[index]
      if byte == gt { return index }
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        // A quoted value: its closing quote, wherever it is.
        guard let close = bytes.firstIndex(of: byte, from: index + 1) else { return nil }
        index = close
      }
      index += 1
    }
    return nil
  }

  /// The offset just after the first `terminator` at or after `from`.
  private static func end(of terminator: StaticString, in bytes: ByteView, from: Int) -> Int? {
    bytes.firstIndex(of: terminator, from: from).map { $0 + terminator.utf8CodeUnitCount }
  }
}
