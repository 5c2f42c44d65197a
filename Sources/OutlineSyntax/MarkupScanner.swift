import OutlineCore
import OutlineXML

/// One piece of markup, read by ``MarkupScanner`` without a parser.
public enum MarkupToken {
  /// `<name attributes>` or `<name/>`; `tag` ends before the next `<` when its `>` is missing.
  case startTag(ScannedTag)
  /// `</name>`; the name may be empty or partial while it is being typed.
  case endTag(range: TextRange, name: TextRange)
  /// `<!-- ... -->` (to the end of the text when unterminated).
  case comment(TextRange)
  /// `<![CDATA[ ... ]]>`.
  case cdata(TextRange)
  /// `<? ... ?>`, the XML declaration included.
  case processingInstruction(TextRange)
  /// `<!DOCTYPE ...>` and any other `<!` declaration.
  case declaration(TextRange)
  /// Character data between tags.
  case text(TextRange)
}

/// One attribute of a scanned start tag, with global byte ranges.
public struct ScannedAttribute: Sendable, Equatable {
  /// The qualified name.
  public var name: TextRange
  /// The value without its quotes (empty at the name's end when there is no value).
  public var value: TextRange
  /// The value with its quotes (equal to `value` when unquoted or unterminated).
  public var quotedValue: TextRange
  /// From the name's first byte to the closing quote.
  public var range: TextRange { TextRange(start: name.start, end: max(name.end, quotedValue.end)) }
}

/// A start tag as ``MarkupScanner`` read it.
public struct ScannedTag {
  /// `<` to `>` (or to where the tag was cut short).
  public var range: TextRange
  /// The element name.
  public var name: TextRange
  /// Whether the tag ends with `/>`.
  public var isSelfClosing: Bool
  /// Whether the tag ends with `>` (false when cut short by `<` or the end of the text).
  public var isTerminated: Bool
  /// The attributes in source order (scratch storage, valid during the callback).
  public var attributes: [ScannedAttribute]
}

/// A forgiving, linear scanner of XML markup for editor features: it never
/// fails, whatever the bytes (unclosed tags, unterminated quotes, comments or
/// CDATA, stray `<`, multi-byte text, CRLF), and every byte belongs to at
/// most one token. Unlike the parser it goes on after an error, so features
/// keep working while a document is being typed.
public enum MarkupScanner {
  /// Calls `body` with each token of `bytes` that starts at or after `start`
  /// and before `limit`, in order; `start` must be a place where no markup
  /// is open (the `<` of a tag the parser reported, or 0). Returning false
  /// from `body` stops the scan.
  public static func scan(
    _ bytes: [UInt8], from start: Int = 0, upTo limit: Int? = nil, _ body: (MarkupToken) -> Bool
  ) {
    let count = bytes.count
    let stop = min(limit ?? count, count)
    var attributes: [ScannedAttribute] = []
    var index = max(0, min(start, count))
    bytes.withByteView { b in
      while index < stop {
        guard b[index] == lt else {
          let start = index
          while index < count && b[index] != lt { index += 1 }
          if !body(.text(TextRange(start: start, end: index))) { return }
          continue
        }
        let start = index
        let token: MarkupToken
        if starts(b, at: index, with: "<!--") {
          index = end(of: b, from: index + 4, after: "-->")
          token = .comment(TextRange(start: start, end: index))
        } else if starts(b, at: index, with: "<![CDATA[") {
          index = end(of: b, from: index + 9, after: "]]>")
          token = .cdata(TextRange(start: start, end: index))
        } else if starts(b, at: index, with: "<?") {
          index = end(of: b, from: index + 2, after: "?>")
          token = .processingInstruction(TextRange(start: start, end: index))
        } else if starts(b, at: index, with: "<!") {
          index = declarationEnd(b, from: index + 2)
          token = .declaration(TextRange(start: start, end: index))
        } else if starts(b, at: index, with: "</") {
          index += 2
          let nameStart = index
          while index < count && isNameByte(b[index]) { index += 1 }
          let name = TextRange(start: nameStart, end: index)
          while index < count && b[index] != gt && b[index] != lt { index += 1 }
          if index < count && b[index] == gt { index += 1 }
          token = .endTag(range: TextRange(start: start, end: index), name: name)
        } else if index + 1 < count && isNameByte(b[index + 1]) {
          token = .startTag(startTag(b, at: start, index: &index, attributes: &attributes))
        } else {
          // A `<` that opens nothing is text.
          index += 1
          while index < count && b[index] != lt { index += 1 }
          token = .text(TextRange(start: start, end: index))
        }
        if !body(token) { return }
      }
    }
  }

  private static func startTag(
    _ b: ByteView, at start: Int, index: inout Int, attributes: inout [ScannedAttribute]
  ) -> ScannedTag {
    let count = b.count
    attributes.removeAll(keepingCapacity: true)
    index = start + 1
    while index < count && isNameByte(b[index]) { index += 1 }
    let name = TextRange(start: start + 1, end: index)
    var selfClosing = false
    var terminated = false
    while index < count {
      let byte = b[index]
      if byte == gt {
        index += 1
        terminated = true
        break
      }
      if byte == lt { break }
      if byte == slash && index + 1 < count && b[index + 1] == gt {
        index += 2
        selfClosing = true
        terminated = true
        break
      }
      guard isNameByte(byte) else {
        index += 1
        continue
      }
      let nameStart = index
      while index < count && isNameByte(b[index]) { index += 1 }
      let attributeName = TextRange(start: nameStart, end: index)
      var look = index
      while look < count && XMLName.isSpace(b[look]) { look += 1 }
      guard look < count && b[look] == equals else {
        attributes.append(
          ScannedAttribute(
            name: attributeName, value: TextRange(at: index), quotedValue: TextRange(at: index)))
        continue
      }
      look += 1
      while look < count && XMLName.isSpace(b[look]) { look += 1 }
      index = look
      if look < count && (b[look] == quote || b[look] == apostrophe) {
        let mark = b[look]
        index = look + 1
        // A value cannot hold `<`: an unterminated value ends before the next tag.
        while index < count && b[index] != mark && b[index] != lt { index += 1 }
        let value = TextRange(start: look + 1, end: index)
        if index < count && b[index] == mark { index += 1 }
        attributes.append(
          ScannedAttribute(name: attributeName, value: value, quotedValue: TextRange(start: look, end: index))
        )
      } else {
        while index < count && !XMLName.isSpace(b[index]) && b[index] != gt && b[index] != lt
          && !(b[index] == slash && index + 1 < count && b[index + 1] == gt)
        {
          index += 1
        }
        let value = TextRange(start: look, end: index)
        attributes.append(ScannedAttribute(name: attributeName, value: value, quotedValue: value))
      }
    }
    return ScannedTag(
      range: TextRange(start: start, end: index), name: name, isSelfClosing: selfClosing,
      isTerminated: terminated, attributes: attributes)
  }

  /// Where a `<!` declaration ends: its `>`, past an internal subset in `[...]`.
  private static func declarationEnd(_ b: ByteView, from start: Int) -> Int {
    var index = start
    var inSubset = false
    while index < b.count {
      switch b[index] {
      case UInt8(ascii: "["): inSubset = true
      case UInt8(ascii: "]"): inSubset = false
      case gt where !inSubset: return index + 1
      default: break
      }
      index += 1
    }
    return index
  }

  /// One past `terminator` found from `start`, or the end of the text.
  private static func end(of b: ByteView, from start: Int, after terminator: StaticString)
    -> Int
  {
    var index = start
    let first = terminator.utf8Start[0]
    while index < b.count {
      if b[index] == first && starts(b, at: index, with: terminator) {
        return index + terminator.utf8CodeUnitCount
      }
      index += 1
    }
    return b.count
  }

  static func starts(_ b: ByteView, at index: Int, with prefix: StaticString) -> Bool {
    let length = prefix.utf8CodeUnitCount
    guard index + length <= b.count else { return false }
    for offset in 0..<length where b[index + offset] != prefix.utf8Start[offset] { return false }
    return true
  }

  /// Bytes of an XML name: letters, digits, `_ : - .` and every non-ASCII byte.
  public static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"),
      UInt8(ascii: "."), 0x80...:
      return true
    default: return false
    }
  }

  static let lt = UInt8(ascii: "<")
  static let gt = UInt8(ascii: ">")
  static let slash = UInt8(ascii: "/")
  static let equals = UInt8(ascii: "=")
  static let quote = UInt8(ascii: "\"")
  static let apostrophe = UInt8(ascii: "'")
}
