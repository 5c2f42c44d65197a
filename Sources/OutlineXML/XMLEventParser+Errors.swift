import CLibXML2
import OutlineCore

// The errors of ``XMLEventParser``: libxml2's messages made one line, placed on the reference
// they are about, said clearly for a document with no root or with elements left open.

extension XMLEventParser {
  func onError(_ error: xmlError) {
    textEnd = -1
    if stopped || sawFatal { return }
    let level = error.level
    if level == XML_ERR_WARNING { return }
    let fatal = level == XML_ERR_FATAL
    var offset = fed
    if let input { offset = min(fed, input.baseOffset + input.base.distance(to: input.cur)) }
    // libxml2's messages end with a newline and some hold one ("... encoding !\nBytes: 0xFF ..."):
    // every diagnostic is one line in every format, so the message is made one here.
    if fatal && !sawElement, let (message, at) = rootlessMessage(code: error.code, at: offset) {
      report(message: message, range: TextRange(at: at), fatal: true)
      return
    }
    if fatal && ending, let message = unclosedMessage(code: error.code) {
      // At the end of the document, not where libxml2 last stood.
      report(message: Excerpt.shorteningWords(message), range: TextRange(at: fed), fatal: true)
      return
    }
    // Names and values it quotes are shortened as every message quotes them (``Excerpt``).
    let message = Excerpt.shorteningWords(
      MessageText.singleLine(error.message.map { String(cString: $0) } ?? "XML error \(error.code)"))
    report(
      message: message, range: referenceRange(code: error.code, at: offset) ?? TextRange(at: offset),
      fatal: fatal)
  }

  /// libxml2's errors about one entity or character reference (`&nbsp;`, `&#xD800;`, `&#1;`).
  private static let referenceErrors: Set<Int32> = [
    Int32(XML_ERR_UNDECLARED_ENTITY.rawValue), Int32(XML_WAR_UNDECLARED_ENTITY.rawValue),
    Int32(XML_ERR_INVALID_CHAR.rawValue), Int32(XML_ERR_INVALID_CHARREF.rawValue),
    Int32(XML_ERR_INVALID_DEC_CHARREF.rawValue), Int32(XML_ERR_INVALID_HEX_CHARREF.rawValue),
  ]

  /// The whole reference, `&` to `;`, that an error about one is about: libxml2 reports it
  /// standing just past the `;`, at `offset`. The reference is whole in libxml2's buffer (the
  /// push parser waits for its `;`, at any chunk size); nil for any other error, or when
  /// no `&` stands within ``referenceLimit`` bytes before.
  private func referenceRange(code: Int32, at offset: Int) -> TextRange? {
    guard Self.referenceErrors.contains(code), let input,
      input.baseOffset + input.base.distance(to: input.cur) == offset
    else { return nil }
    let available = input.base.distance(to: input.cur)
    guard let length = Self.referenceLength(endingAt: input.cur, available: available) else { return nil }
    return TextRange(start: offset - length, end: offset)
  }

  /// The longest reference whose range is found (a longer one keeps libxml2's position): the
  /// scan back is bounded, so an error on a long line costs no more than a short one.
  static let referenceLimit = 256

  /// The length of the reference `&name;`, `&#digits;` or `&#xhex;` that ends just before
  /// `end`, looking back at most `available` bytes (and ``referenceLimit``); nil when the
  /// bytes before `end` are not one.
  static func referenceLength(endingAt end: UnsafePointer<UInt8>, available: Int) -> Int? {
    guard available >= 3, (end - 1).pointee == UInt8(ascii: ";") else { return nil }
    var length = 2
    while length <= min(available, referenceLimit) {
      let byte = (end - length).pointee
      if byte == UInt8(ascii: "&") { return length > 2 ? length : nil }
      // Name characters, `#` and hex digits: no markup, quote or white space inside a reference.
      if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: ";")
        || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || XMLName.isSpace(byte)
      {
        return nil
      }
      length += 1
    }
    return nil
  }

  /// Notes the first byte of `chunk` (fed at offset `fed`) that is not white space, nor part of
  /// a byte order mark at the start.
  func noteFirstContent(_ chunk: UnsafeBufferPointer<UInt8>) {
    for (index, byte) in chunk.enumerated() {
      let offset = fed + index
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
      if offset < 3 && [0xEF, 0xBB, 0xBF][offset] == byte { continue }
      firstContent = (offset, byte)
      return
    }
  }

  /// For a document that ended or went wrong before any element, libxml2's push parser says
  /// "Extra content at the end of the document" of an empty file and "Document is empty" of
  /// text: said as xmllint says them, at the place they are about, and a document of only a
  /// declaration and comments has no root element. Nil for other errors.
  private func rootlessMessage(code: Int32, at offset: Int) -> (String, Int)? {
    guard code == Int32(XML_ERR_DOCUMENT_END.rawValue) || code == Int32(XML_ERR_DOCUMENT_EMPTY.rawValue)
    else {
      return nil
    }
    guard let firstContent else { return ("Document is empty", offset) }
    if firstContent.byte != UInt8(ascii: "<") {
      return ("Start tag expected, '<' not found", firstContent.offset)
    }
    // Only a declaration, comments or processing instructions.
    return ("The document has no root element", offset)
  }

  /// For a document that ends while elements are open, what libxml2's push parser says is
  /// "Extra content at the end of the document" (2.9 and 2.10, the opposite of what is wrong)
  /// or "Premature end of data in tag NAME line N" (later versions, the line counted at `\n`
  /// alone): said the same whatever the version, naming the innermost element (the handlers
  /// point at it, ``XMLErrorText/withoutLine(_:)``). Nil for other errors, and for content
  /// after the root element closed, which is extra content indeed.
  private func unclosedMessage(code: Int32) -> String? {
    guard code == Int32(XML_ERR_DOCUMENT_END.rawValue) || code == Int32(XML_ERR_TAG_NOT_FINISHED.rawValue),
      let context, context.pointee.nameNr > 0, let name = context.pointee.name
    else { return nil }
    return XMLErrorText.unclosed(
      innermost: String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)),
      openCount: Int(context.pointee.nameNr))
  }

  func report(message: String, range: TextRange, fatal: Bool) {
    flushText()
    if fatal { sawFatal = true }
    handler.syntaxError(message: message, range: range, isFatal: fatal)
  }
}
