import CLibXML2
import OutlineCore

// The SAX callbacks of ``XMLEventParser``: libxml2 calls them through `startContext()`; each
// finds the range of what libxml2 just read in its input buffer and reports it to the handler.

extension XMLEventParser {
  /// Reports the end of an element: to the pipeline directly when there is one (a call the
  /// compiler can see into, not through the handler's witness table).
  @inline(__always)
  private func reportEnd(_ range: TextRange?) {
    if let pipeline {
      pipeline._withUnsafeGuaranteedRef { $0.endElement(range: range) }
    } else {
      handler.endElement(range: range)
    }
  }

  func onStartElement() {
    sawElement = true
    guard !stopped, let input else { return }
    flushText(input)
    // libxml2 calls startElementNs standing on the tag's `>` or `/>`.
    let cursor = input.cur
    guard cursor < input.end || cursor.pointee == UInt8(ascii: ">"),
      let open = tagStart(before: cursor, input: input)
    else { return }
    let isSelfClosing = cursor.pointee == UInt8(ascii: "/")
    let tagEnd = cursor + (isSelfClosing ? 2 : 1)
    let tag = UnsafeBufferPointer(start: open, count: open.distance(to: tagEnd))
    let offset = input.baseOffset + input.base.distance(to: open)
    reportStart(tag, offset: offset, contentEnd: open.distance(to: cursor), isSelfClosing: isSelfClosing)
  }

  /// Reports the start tag whose bytes (`<` to `>`) are `tag`, at global `offset`, its
  /// attributes ending at `contentEnd` (the offset of its `>` or `/>` in `tag`).
  @inline(__always)
  func reportStart(_ tag: UnsafeBufferPointer<UInt8>, offset: Int, contentEnd: Int, isSelfClosing: Bool) {
    if let pipeline {
      pipeline._withUnsafeGuaranteedRef {
        $0.startElement(unscanned: tag, offset: offset, contentEnd: contentEnd, isSelfClosing: isSelfClosing)
      }
      return
    }
    var count = 0
    let nameEnd = TagScanner.scan(tag, contentEnd: contentEnd) { attribute in
      if count == scratchCapacity { growScratch() }
      (scratch + count).initialize(to: attribute)
      count += 1
    }
    handler.startElement(
      StartTag(
        bytes: tag, offset: offset, nameEnd: nameEnd,
        attributes: UnsafeBufferPointer(start: scratch, count: count), isSelfClosing: isSelfClosing))
  }

  /// Reports the tags of a plain document (``PlainDocument``), `document` holding their bytes,
  /// as libxml2's callbacks report them.
  func replay(_ tags: [PlainDocument.Tag], in document: UnsafeBufferPointer<UInt8>) {
    guard let base = document.baseAddress else { return }
    sawElement = true
    for tag in tags {
      let start = Int(tag.start)
      let length = Int(tag.end) - start
      switch tag.kind {
      case .end:
        reportEnd(TextRange(start: start, end: start + length))
      case .start:
        reportStart(
          UnsafeBufferPointer(start: base + start, count: length), offset: start, contentEnd: length - 1,
          isSelfClosing: false)
      case .empty:
        reportStart(
          UnsafeBufferPointer(start: base + start, count: length), offset: start, contentEnd: length - 2,
          isSelfClosing: true)
        reportEnd(nil)
      }
    }
  }

  /// Twice the room for a tag's attributes, those scanned so far kept.
  private func growScratch() {
    let grown = UnsafeMutablePointer<RawAttribute>.allocate(capacity: scratchCapacity * 2)
    grown.moveInitialize(from: scratch, count: scratchCapacity)
    scratch.deallocate()
    scratch = grown
    scratchCapacity *= 2
  }

  func onEndElement() {
    guard !stopped, let input else { return }
    flushText(input)
    let cursor = input.cur
    // After `/>` the element was empty; after `</name>` report the end tag.
    if input.base.distance(to: cursor) >= 2, (cursor - 2).pointee == UInt8(ascii: "/"),
      (cursor - 1).pointee == UInt8(ascii: ">")
    {
      reportEnd(nil)
      return
    }
    guard let open = tagStart(before: cursor, input: input) else {
      reportEnd(nil)
      return
    }
    let start = input.baseOffset + input.base.distance(to: open)
    reportEnd(TextRange(start: start, end: start + open.distance(to: cursor)))
  }

  /// The `<` of the tag libxml2 just read, standing at `cursor`: where the white space before
  /// it ended (``textEnd``), else the last `<` before `cursor`.
  @inline(__always)
  private func tagStart(
    before cursor: UnsafePointer<UInt8>,
    input: (base: UnsafePointer<UInt8>, cur: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, baseOffset: Int)
  ) -> UnsafePointer<UInt8>? {
    let known = textEnd - input.baseOffset
    textEnd = -1
    if known >= 0, known < input.base.distance(to: cursor), input.base[known] == UInt8(ascii: "<") {
      return input.base + known
    }
    return scanBack(for: UInt8(ascii: "<"), from: cursor, base: input.base)
  }

  func onCharacters(_ characters: UnsafePointer<xmlChar>?, _ length: Int) {
    guard !stopped, let characters else { return }
    let chars = UnsafeRawPointer(characters).assumingMemoryBound(to: UInt8.self)
    // Most calls are the white space between tags: nothing to report. In character data every
    // byte below 0x21 is XML white space (libxml2 refuses other control characters). But white
    // space libxml2 copied may be a character reference's (`&#32;`, `&#xA;`): the user wrote
    // it, and it is no layout to drop (XML's white space `S` is never a reference).
    if Self.isWhiteSpace(chars, length) {
      guard let input else { return }
      if chars >= input.base && chars + length <= input.end {
        textEnd = input.baseOffset + input.base.distance(to: chars) + length
      } else {
        textEnd = -1
        if pendingText == nil { reportWhiteSpaceReference(input) }
      }
      return
    }
    textEnd = -1
    var first = 0
    // Indentation, eight spaces at a time.
    let spaces: UInt64 = 0x2020_2020_2020_2020
    while first < length && XMLName.isSpace(chars[first]) {
      first += 1
      while first + 8 <= length && UnsafeRawPointer(chars + first).loadUnaligned(as: UInt64.self) == spaces {
        first += 8
      }
    }
    // White space between tags, most calls: nothing to report.
    if first == length { return }
    guard let input else { return }
    var last = length
    while last > first && XMLName.isSpace(chars[last - 1]) { last -= 1 }
    if chars >= input.base && chars + length <= input.end {
      let start = input.baseOffset + input.base.distance(to: chars)
      addText(TextRange(start: start + first, end: start + last))
    } else {
      // Copied text; libxml2 stands just past what it read for it.
      let end = input.baseOffset + input.base.distance(to: input.cur)
      addText(copiedTextRange(chars, length: length, first: first, last: last, end: end, input: input))
    }
  }

  /// Reports the character reference libxml2 just read, when it stands right before its
  /// position, as ``XMLEventHandler/markup(range:bytes:)`` with no event before it: it is no
  /// text (it stands for white space), but a handler that writes the layout keeps it.
  private func reportWhiteSpaceReference(
    _ input: (
      base: UnsafePointer<UInt8>, cur: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, baseOffset: Int
    )
  ) {
    let base = input.base
    let cursor = base.distance(to: input.cur)
    let floor = max(0, textFloor - input.baseOffset)
    // A character reference, `&#...;`, not an entity's: found as an error's reference is.
    guard let length = Self.referenceLength(endingAt: input.cur, available: cursor - floor), length >= 4,
      base[cursor - length + 1] == UInt8(ascii: "#")
    else { return }
    let start = cursor - length
    flushText(input)
    handler.markup(
      range: TextRange(start: input.baseOffset + start, end: input.baseOffset + cursor),
      bytes: ByteView(UnsafeBufferPointer(start: base + start, count: cursor - start)))
  }

  /// Whether the `length` bytes at `chars` of character data are all below 0x21, eight at a
  /// time: the high bit of a byte of `(word | 0x80...) - 0x21...` is set where its low seven
  /// bits are 0x21 or more (no borrow crosses bytes), and a byte of 0x80 or more is no space.
  @inline(__always)
  private static func isWhiteSpace(_ chars: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    @inline(__always) func noSpaces(_ word: UInt64) -> UInt64 {
      (((word | 0x8080_8080_8080_8080) &- 0x2121_2121_2121_2121) | word) & 0x8080_8080_8080_8080
    }
    guard length >= 8 else {
      guard length >= 4 else {
        for index in 0..<length where chars[index] > 0x20 { return false }
        return true
      }
      // Two overlapping four-byte loads in one word.
      let raw = UnsafeRawPointer(chars)
      let word =
        UInt64(raw.loadUnaligned(as: UInt32.self))
        | UInt64(raw.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)) << 32
      return noSpaces(word) == 0
    }
    var index = 0
    while index + 8 <= length {
      if noSpaces(WordScan.load(chars + index)) != 0 { return false }
      index += 8
    }
    return index == length || noSpaces(WordScan.load(chars + length - 8)) == 0
  }

  /// Where copied text lies in the input, `end` being libxml2's position after it.
  ///
  /// A reference (`&amp;`, `&#233;`) is the `&` before `end` when the bytes
  /// between spell one. Other text libxml2 copies (character data with
  /// non-ASCII bytes, handed over in pieces of a few hundred bytes) is matched
  /// back from `end` against the input, where each `\r\n` became `\n` (and a
  /// lone `\r` a `\n`); never before the last markup. `first..<last` is the
  /// piece without its surrounding white space.
  private func copiedTextRange(
    _ chars: UnsafePointer<UInt8>, length: Int, first: Int, last: Int, end: Int,
    input: (base: UnsafePointer<UInt8>, cur: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, baseOffset: Int)
  ) -> TextRange {
    let base = input.base
    let cursor = base.distance(to: input.cur)
    let floor = max(0, textFloor - input.baseOffset)
    if cursor > 0, base[cursor - 1] == UInt8(ascii: ";") {
      // A reference is a name or a character number: look a short way back only.
      var at = cursor - 1
      while at > max(floor, cursor - 64) {
        at -= 1
        let byte = base[at]
        if byte == UInt8(ascii: "&") { return TextRange(start: input.baseOffset + at, end: end) }
        // A name's bytes (any non-ASCII byte may be part of one) or a character number's.
        let isNameByte =
          byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
          || byte == UInt8(ascii: "#")
        guard isNameByte else { break }
      }
    }
    let inputEnd = base.distance(to: input.end)
    var index = length
    var at = cursor
    var start = end
    var stop = end
    while index > first, at > floor {
      if base[at - 1] == 0x0D, chars[index - 1] != 0x0D, at < inputEnd, base[at] == 0x0A {
        at -= 1  // the `\r` of a `\r\n`, which libxml2 left out
        continue
      }
      index -= 1
      at -= 1
      if index == last - 1 { stop = input.baseOffset + at + 1 }
      if index == first { start = input.baseOffset + at }
    }
    if index > first { start = input.baseOffset + at }
    return TextRange(start: min(start, stop), end: stop)
  }

  /// Joins a piece of character data to the run not yet reported.
  private func addText(_ range: TextRange) {
    if let run = pendingText {
      pendingText = TextRange(start: min(run.start, range.start), end: max(run.end, range.end))
    } else {
      pendingText = range
    }
  }

  /// Reports the pending text run, before any other event.
  func flushText() {
    if let input {
      flushText(input)
    } else if let run = pendingText {
      pendingText = nil
      handler.text(range: run)
    }
  }

  /// Reports the pending text run, before any other event, `input` being libxml2's input now.
  @inline(__always)
  private func flushText(
    _ input: (
      base: UnsafePointer<UInt8>, cur: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, baseOffset: Int
    )
  ) {
    textFloor = input.baseOffset + input.base.distance(to: input.cur)
    guard let run = pendingText else { return }
    pendingText = nil
    if let pipeline {
      pipeline._withUnsafeGuaranteedRef { $0.text(range: run) }
    } else {
      handler.text(range: run)
    }
  }

  func onCDATA(_ length: Int) {
    textEnd = -1
    guard !stopped, let input else { return }
    // libxml2 2.9 stands on the section's content, after `<![CDATA[`; other
    // versions stand past `]]>`. The section is `<![CDATA[` + content + `]]>`.
    let cursor = input.baseOffset + input.base.distance(to: input.cur)
    let opener = Array("<![CDATA[".utf8)
    let afterOpener =
      input.base.distance(to: input.cur) >= opener.count
      && opener.elementsEqual(UnsafeBufferPointer(start: input.cur - opener.count, count: opener.count))
    // A section cut off by the end of the input has no `]]>`: the range
    // stops at the last byte fed (found by FuzzOutline).
    let start = afterOpener ? cursor - opener.count : max(0, cursor - length - 12)
    let end = min(start + length + 12, fed)
    addText(TextRange(start: min(start, end), end: end))
  }

  func onComment(_ content: UnsafePointer<xmlChar>?) {
    textEnd = -1
    guard !stopped, let content, let input else { return }
    flushText()
    let length = Int(strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self)))
    let text = UnsafeBufferPointer(
      start: UnsafeRawPointer(content).assumingMemoryBound(to: UInt8.self), count: length)
    // libxml2 stands just past `-->`; the comment starts at the last `<!--` before it (its
    // content holds no `--`). Counting back from the content's length would miss the `\r`
    // libxml2 drops from each `\r\n` inside it.
    let end = input.baseOffset + input.base.distance(to: input.cur)
    var cursor = input.cur
    var opener: UnsafePointer<UInt8>?
    while opener == nil, let found = scanBack(for: UInt8(ascii: "<"), from: cursor, base: input.base) {
      cursor = found
      if found.distance(to: input.end) >= 4, found[1] == UInt8(ascii: "!"), found[2] == UInt8(ascii: "-"),
        found[3] == UInt8(ascii: "-")
      {
        opener = found
      }
    }
    guard let open = opener else {
      handler.comment(range: TextRange(start: max(0, end - length - 7), end: end), content: ByteView(text))
      return
    }
    let range = TextRange(start: input.baseOffset + input.base.distance(to: open), end: end)
    handler.comment(range: range, content: ByteView(text))
    handler.markup(
      range: range, bytes: ByteView(UnsafeBufferPointer(start: open, count: open.distance(to: input.cur))))
  }

  func onProcessingInstruction() {
    textEnd = -1
    guard !stopped, let input else { return }
    let floor = textFloor
    flushText()
    // libxml2 stands just past `?>`. The instruction's data may hold `<?` itself, so its start is
    // found forward from where the markup before it ended: only character data lies between,
    // which holds no `<` but in a CDATA section (and the XML declaration, at the very start).
    let opening =
      Self.instructionStart(
        from: floor - input.baseOffset, to: input.base.distance(to: input.cur), in: input.base)
      ?? Self.lastInstructionOpening(before: input.cur, base: input.base)
    guard let opening else { return }
    let start = input.baseOffset + opening
    let range = TextRange(start: start, end: input.baseOffset + input.base.distance(to: input.cur))
    handler.processingInstruction(range: range)
    handler.markup(
      range: range,
      bytes: ByteView(UnsafeBufferPointer(start: input.base + opening, count: range.length)))
  }

  /// The offset from `base` of the `<?` that opens the instruction ending at `end`, found
  /// forward from `floor` (where the markup before it ended): CDATA sections and the XML
  /// declaration passed over; nil when `floor` is not in the buffer or something else is met.
  static func instructionStart(from floor: Int, to end: Int, in base: UnsafePointer<UInt8>) -> Int? {
    guard floor >= 0, floor < end else { return nil }
    let cdata = Array("<![CDATA[".utf8)
    var at = floor
    while at + 1 < end {
      guard base[at] == UInt8(ascii: "<") else {
        at += 1
        continue
      }
      if base[at + 1] == UInt8(ascii: "?") {
        // The declaration (`<?xml` and a space, first in the document) is not an instruction.
        let isDeclaration =
          at + 5 < end && base[at + 2] == UInt8(ascii: "x") && base[at + 3] == UInt8(ascii: "m")
          && base[at + 4] == UInt8(ascii: "l") && XMLName.isSpace(base[at + 5]) && at < floor + 4
        if !isDeclaration || at + 5 >= end { return at }
        guard let close = Self.find([UInt8(ascii: "?"), UInt8(ascii: ">")], from: at + 5, to: end, in: base)
        else { return nil }
        at = close + 2
        continue
      }
      guard end - at >= cdata.count, (0..<cdata.count).allSatisfy({ base[at + $0] == cdata[$0] }) else {
        return nil
      }
      guard let close = Self.find(Array("]]>".utf8), from: at + cdata.count, to: end, in: base) else {
        return nil
      }
      at = close + 3
    }
    return nil
  }

  /// The offset of the first `needle` at or after `from` and before `end`.
  private static func find(_ needle: [UInt8], from: Int, to end: Int, in base: UnsafePointer<UInt8>) -> Int? {
    var at = from
    while at + needle.count <= end {
      if (0..<needle.count).allSatisfy({ base[at + $0] == needle[$0] }) { return at }
      at += 1
    }
    return nil
  }

  /// The last `<?` before `cursor`: where the bytes before the instruction are gone from
  /// libxml2's buffer.
  private static func lastInstructionOpening(before cursor: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>)
    -> Int?
  {
    var pointer = cursor
    while pointer > base + 1 {
      pointer -= 1
      if pointer.pointee == UInt8(ascii: "?") && (pointer - 1).pointee == UInt8(ascii: "<") {
        return base.distance(to: pointer - 1)
      }
    }
    return nil
  }

  func onDoctype() {
    textEnd = -1
    guard !stopped, let input else { return }
    flushText()
    var start = input.baseOffset + input.base.distance(to: input.cur)
    var pointer = input.cur
    while pointer > input.base {
      pointer -= 1
      if pointer.pointee == UInt8(ascii: "<") {
        start = input.baseOffset + input.base.distance(to: pointer)
        break
      }
    }
    let end = input.baseOffset + input.base.distance(to: input.cur)
    handler.doctype(range: TextRange(start: start, end: end))
    stopped = true
    if let context { xmlStopParser(context) }
  }
}
