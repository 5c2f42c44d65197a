import OutlineCore

/// One attribute of a start tag, as byte offsets relative to the tag's `<`.
public struct RawAttribute: Sendable, Hashable {
  /// Where the qualified name starts.
  public var nameStart: Int32
  /// Where the qualified name ends.
  public var nameEnd: Int32
  /// Where the value starts, after the opening quote.
  public var valueStart: Int32
  /// Where the value ends, before the closing quote.
  public var valueEnd: Int32
}

/// A start tag as the parser saw it: its bytes, its global offset and the
/// byte ranges of its name and attributes. Valid only during the callback.
///
/// Its public face is checked views (``ByteView``); the buffers behind them are `package`,
/// for the modules that read tags at speed.
public struct StartTag {
  /// The tag's bytes, from `<` to `>` inclusive.
  @usableFromInline package let unsafeBytes: UnsafeBufferPointer<UInt8>
  /// The global UTF-8 offset of the `<`.
  public let offset: Int
  /// Where the qualified name ends, relative to the `<`.
  public let nameEnd: Int
  /// The attributes in source order.
  @usableFromInline package let unsafeAttributes: UnsafeBufferPointer<RawAttribute>
  /// Whether the tag ends with `/>`.
  public let isSelfClosing: Bool

  /// A tag over `bytes` at global `offset`.
  @inlinable
  package init(
    bytes: UnsafeBufferPointer<UInt8>, offset: Int, nameEnd: Int,
    attributes: UnsafeBufferPointer<RawAttribute>,
    isSelfClosing: Bool
  ) {
    self.unsafeBytes = bytes
    self.offset = offset
    self.nameEnd = nameEnd
    self.unsafeAttributes = attributes
    self.isSelfClosing = isSelfClosing
  }

  /// The tag's bytes, from `<` to `>` inclusive.
  @inlinable
  public var bytes: ByteView { ByteView(unsafeBytes) }
  /// The attributes in source order.
  @inlinable
  public var attributes: BufferView<RawAttribute> { BufferView(unsafeAttributes) }
  /// The whole tag's global range.
  public var range: TextRange { TextRange(start: offset, end: offset + unsafeBytes.count) }
  /// The element name's global range.
  public var nameRange: TextRange { TextRange(start: offset + 1, end: offset + nameEnd) }
  /// The element name's bytes.
  @inlinable
  public var name: ByteView { ByteView(unsafeName) }
  /// The element name's bytes.
  @inlinable
  package var unsafeName: UnsafeBufferPointer<UInt8> { slice(1, nameEnd) }

  /// The name's bytes of attribute `index`.
  @inlinable
  public func name(of index: Int) -> ByteView { ByteView(unsafeName(of: index)) }

  /// The name's bytes of attribute `index`.
  @inlinable
  package func unsafeName(of index: Int) -> UnsafeBufferPointer<UInt8> {
    let attribute = unsafeAttributes[index]
    return slice(Int(attribute.nameStart), Int(attribute.nameEnd))
  }

  /// The raw (undecoded) value bytes of attribute `index`.
  @inlinable
  public func rawValue(of index: Int) -> ByteView { ByteView(unsafeRawValue(of: index)) }

  /// The raw (undecoded) value bytes of attribute `index`.
  @inlinable
  package func unsafeRawValue(of index: Int) -> UnsafeBufferPointer<UInt8> {
    let attribute = unsafeAttributes[index]
    return slice(Int(attribute.valueStart), Int(attribute.valueEnd))
  }

  /// The decoded value of attribute `index` (references resolved, whitespace normalized).
  public func value(of index: Int) -> String { XMLEscaping.decodeAttribute(unsafeRawValue(of: index)) }

  /// The global range of attribute `index`'s name.
  public func nameRange(of index: Int) -> TextRange {
    TextRange(
      start: offset + Int(unsafeAttributes[index].nameStart),
      end: offset + Int(unsafeAttributes[index].nameEnd))
  }

  /// The global range of attribute `index`'s value, without the quotes.
  public func valueRange(of index: Int) -> TextRange {
    TextRange(
      start: offset + Int(unsafeAttributes[index].valueStart),
      end: offset + Int(unsafeAttributes[index].valueEnd))
  }

  /// The index of the attribute whose qualified name is `name`.
  public func index(of name: StaticString) -> Int? {
    for index in 0..<unsafeAttributes.count where XMLName.equals(self.unsafeName(of: index), name) {
      return index
    }
    return nil
  }

  @inlinable @inline(__always)
  func slice(_ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: unsafeBytes[start..<end])
  }
}

/// Receives a document's events in order, with exact byte ranges.
///
/// A handler is told about every element, comment and non-blank text run
/// up to the first fatal syntax error, then about that error.
public protocol XMLEventHandler: AnyObject {
  /// A start tag (also of an empty element `<a/>`, followed by its end at once).
  func startElement(_ tag: StartTag)
  /// An end tag, or the end of a self-closing tag when `range` is nil.
  func endElement(range: TextRange?)
  /// A comment; `range` covers `<!--` to `-->`, `content` what lies between.
  func comment(range: TextRange, content: ByteView)
  /// A run of character data that is not all XML white space (or a CDATA section).
  func text(range: TextRange)
  /// A `<!DOCTYPE`: parsing stops after it, so nothing it declares is used.
  func doctype(range: TextRange)
  /// A syntax error with libxml2's message; `isFatal` errors end the events.
  func syntaxError(message: String, range: TextRange, isFatal: Bool)
  /// A processing instruction `<?target data?>` (not the XML declaration).
  func processingInstruction(range: TextRange)
  /// The bytes of the comment or processing instruction reported just before, exactly as
  /// they stand (`<!--` to `-->`, `<?` to `?>`; a comment's content has its line ends
  /// normalized): for handlers that copy them (the formatter). Valid only during the callback.
  /// A character reference to white space between tags (`&#32;`) comes here alone, with no
  /// event before it: it is no text, but the user wrote it, and the formatter keeps it.
  func markup(range: TextRange, bytes: ByteView)
  /// A start tag with an `xml:id` that will be reported soon, ahead of the events before it
  /// (the event pipeline tells of a batch's tags with ids before replaying it): a handler may
  /// bring what it will need for the id into the caches. It must change nothing a later
  /// event could observe.
  func upcoming(_ tag: StartTag)
}

extension XMLEventHandler {
  /// Processing instructions carry no outline data; handlers that keep
  /// layout (the formatter) override this.
  public func processingInstruction(range: TextRange) {}

  /// Only handlers that copy markup verbatim (the formatter) read its bytes.
  public func markup(range: TextRange, bytes: ByteView) {}

  /// Most handlers have nothing to bring in ahead of time.
  public func upcoming(_ tag: StartTag) {}
}

/// Helpers for comparing names given as bytes.
public enum XMLName {
  /// Whether the `length` bytes at `name` spell `xml:id`: a word of its first four bytes and
  /// a half word of its last two.
  @inlinable @inline(__always)
  public static func isXMLID(_ name: UnsafePointer<UInt8>, length: Int) -> Bool {
    guard length == 6 else { return false }
    let raw = UnsafeRawPointer(name)
    return raw.loadUnaligned(as: UInt32.self) == 0x3A6C_6D78
      && raw.loadUnaligned(fromByteOffset: 4, as: UInt16.self) == 0x6469
  }

  /// Whether `bytes` spell `name` exactly.
  @inlinable
  public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
    guard bytes.count == name.utf8CodeUnitCount else { return false }
    return memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
  }

  /// Whether `bytes` spell `name` exactly.
  @inlinable
  public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ name: [UInt8]) -> Bool {
    guard bytes.count == name.count else { return false }
    return name.withUnsafeBufferPointer { memcmp(bytes.baseAddress!, $0.baseAddress!, bytes.count) == 0 }
  }

  /// The index of the first of `names` that `bytes` spell, or nil.
  @inlinable
  public static func index(of bytes: UnsafeBufferPointer<UInt8>, in names: [[UInt8]]) -> Int? {
    for index in names.indices where equals(bytes, names[index]) { return index }
    return nil
  }

  /// Whether `name` is an NCName (an XML name without a colon) of XML 1.0
  /// (fifth edition), as `xml:id` values and element and attribute names
  /// written by this toolchain must be, and as libxml2 reads names.
  public static func isNCName(_ name: String) -> Bool {
    // ASCII names (nearly all) are checked by their bytes: the same answer without Unicode properties.
    var isFirst = true
    for byte in name.utf8 {
      if byte >= 0x80 { return isUnicodeNCName(name) }
      let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
      if isFirst {
        guard isLetter || byte == 0x5F else { return false }
        isFirst = false
      } else if !(isLetter || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2D || byte == 0x2E)
      {
        return false
      }
    }
    return !isFirst
  }

  /// Whether `byte` is XML white space.
  @inlinable
  public static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }

  /// The prefix an attribute named `name` declares, when it is a namespace declaration:
  /// empty for `xmlns` (the default namespace), `p` for `xmlns:p`; nil for any other name.
  public static func declaredPrefix(_ name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
    if equals(name, "xmlns") { return UnsafeBufferPointer(rebasing: name[name.count...]) }
    guard name.count > 6, equals(UnsafeBufferPointer(rebasing: name[..<6]), "xmlns:") else { return nil }
    return UnsafeBufferPointer(rebasing: name[6...])
  }

  /// The tokens of an attribute value separated by XML white space (the ids of a
  /// relationship): split byte by byte at the four space characters, so a `\r\n`, one
  /// `Character` to Swift, separates as XML reads it. The one splitter of id lists.
  public static func tokens(_ value: String) -> [Substring] {
    var tokens: [Substring] = []
    let utf8 = value.utf8
    var start: String.Index?
    var index = utf8.startIndex
    while index != utf8.endIndex {
      if isSpace(utf8[index]) {
        if let first = start { tokens.append(value[first..<index]) }
        start = nil
      } else if start == nil {
        start = index
      }
      index = utf8.index(after: index)
    }
    if let first = start { tokens.append(value[first..<utf8.endIndex]) }
    return tokens
  }

  /// The bytes as a String.
  public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `bytes` spell `name` exactly.
  @inlinable @inline(__always)
  public static func equals(_ bytes: ByteView, _ name: StaticString) -> Bool {
    equals(bytes.unsafeBuffer, name)
  }

  /// Whether `bytes` spell `name` exactly.
  @inlinable @inline(__always)
  public static func equals(_ bytes: ByteView, _ name: [UInt8]) -> Bool { equals(bytes.unsafeBuffer, name) }

  /// The index of the first of `names` that `bytes` spell, or nil.
  @inlinable @inline(__always)
  public static func index(of bytes: ByteView, in names: [[UInt8]]) -> Int? {
    index(of: bytes.unsafeBuffer, in: names)
  }

  /// The prefix an attribute named `name` declares, when it is a namespace declaration:
  /// empty for `xmlns` (the default namespace), `p` for `xmlns:p`; nil for any other name.
  public static func declaredPrefix(_ name: ByteView) -> ByteView? {
    declaredPrefix(name.unsafeBuffer).map(ByteView.init)
  }

  /// The bytes as a String.
  @inlinable
  public static func string(_ bytes: ByteView) -> String { bytes.string }
}

/// Hands every event to two handlers, `first` first: one parse feeds, say,
/// the validator and a writer that consults it.
public final class XMLEventTee: XMLEventHandler {
  private let first: any XMLEventHandler
  private let second: any XMLEventHandler

  /// A tee to `first`, then `second`.
  public init(_ first: any XMLEventHandler, _ second: any XMLEventHandler) {
    self.first = first
    self.second = second
  }

  public func startElement(_ tag: StartTag) {
    first.startElement(tag)
    second.startElement(tag)
  }

  public func endElement(range: TextRange?) {
    first.endElement(range: range)
    second.endElement(range: range)
  }

  public func comment(range: TextRange, content: ByteView) {
    first.comment(range: range, content: content)
    second.comment(range: range, content: content)
  }

  public func text(range: TextRange) {
    first.text(range: range)
    second.text(range: range)
  }

  public func doctype(range: TextRange) {
    first.doctype(range: range)
    second.doctype(range: range)
  }

  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    first.syntaxError(message: message, range: range, isFatal: isFatal)
    second.syntaxError(message: message, range: range, isFatal: isFatal)
  }

  public func processingInstruction(range: TextRange) {
    first.processingInstruction(range: range)
    second.processingInstruction(range: range)
  }

  public func markup(range: TextRange, bytes: ByteView) {
    first.markup(range: range, bytes: bytes)
    second.markup(range: range, bytes: bytes)
  }

  public func upcoming(_ tag: StartTag) {
    first.upcoming(tag)
    second.upcoming(tag)
  }
}

/// libxml2's error messages, made exact where they name a line.
public enum XMLErrorText {
  /// What a note at the innermost element says when the document ends while it is open.
  static let leftOpen = "the element left open"

  /// The message for a document that ends while `openCount` elements are open, `innermost` the
  /// innermost of them: reported at the end of the document, with a note at that element.
  public static func unclosed(innermost: String, openCount: Int) -> String {
    openCount == 1
      ? "The document ends while <\(innermost)> is still open: its end tag is missing"
      : "The document ends while \(openCount) elements are still open: the innermost, <\(innermost)>, has no end tag"
  }

  /// A message about an open element without a line number of libxml2's (`Opening and ending
  /// tag mismatch: a line 3 and b`, `Premature end of data in tag a line 3`, or one that names
  /// no line: ``unclosed(innermost:openCount:)``), and what a note at that element says; nil
  /// for another message. libxml2 counts lines at `\n` alone, so with lone `\r` line ends the
  /// number is wrong: the handler points at the element (the innermost open one).
  public static func withoutLine(_ message: String) -> (message: String, note: String)? {
    if message.hasPrefix("The document ends while ") { return (message, leftOpen) }
    let notes = [
      ("Opening and ending tag mismatch: ", "the element it should close"),
      ("Premature end of data in tag ", leftOpen),
    ]
    guard let note = notes.first(where: { message.hasPrefix($0.0) })?.1,
      let line = message.range(of: " line ")
    else { return nil }
    var end = line.upperBound
    while end < message.endIndex, message[end].isASCII, message[end].isNumber {
      end = message.index(after: end)
    }
    guard end > line.upperBound else { return nil }
    return (String(message[..<line.lowerBound] + message[end...]), note)
  }
}
