import CLibXML2
import OutlineCore

/// Drives libxml2's push parser over a document and reports its events with
/// exact byte ranges.
///
/// libxml2 checks well-formedness and produces the error messages; this type
/// turns each SAX callback into byte ranges by reading the tag's own bytes in
/// libxml2's input buffer (at a start tag the parser stands on its `>` or `/>`,
/// after an end tag just past its `>`), so nothing is tokenized twice.
///
/// Security: no DTD is loaded, no entity is declared or substituted and no
/// network is used; parsing stops at a `<!DOCTYPE`. The push parser keeps no
/// depth limit, so a chain of any depth parses.
///
/// Sizes: libxml2's own limits on one value or node (10 MB) are lifted with
/// `XML_PARSE_HUGE`, so the size rule (``SizeRule``) is the validator's, with a
/// positioned diagnostic. The bytes of a tag or comment libxml2 is still
/// waiting to complete are fed in growing pieces, so its rescans stay linear,
/// and a single unfinished node past ``SizeRule/parserHoldLimit`` stops the
/// parse with a syntax error instead of libxml2's "Huge input lookup".
///
/// Consecutive pieces of character data (libxml2 hands them over in pieces:
/// around references, at chunk boundaries) are reported as one `text` event.
public final class XMLEventParser {
  private let handler: any XMLEventHandler
  /// The handler when it is a pipeline: start tags go to it unscanned, and
  /// its consumer thread scans their attributes.
  /// Unmanaged: `handler` holds it, and even an `unowned(unsafe)` optional was retained and
  /// released around each start tag (two atomic operations on the parser's thread).
  private let pipeline: Unmanaged<XMLEventPipeline>?
  @exclusivity(unchecked) private var context: xmlParserCtxtPtr?
  /// A start tag's attribute ranges, refilled for each tag: memory of its own, so a tag costs
  /// no array bookkeeping (emptying an array of them was a generic call on every tag).
  @exclusivity(unchecked) private var scratch = UnsafeMutablePointer<RawAttribute>.allocate(capacity: 16)
  @exclusivity(unchecked) private var scratchCapacity = 16
  @exclusivity(unchecked) private var stopped = false
  @exclusivity(unchecked) private var sawFatal = false
  /// Whether the end of the document was pushed (the context may then serve another parse).
  @exclusivity(unchecked) private var finished = false
  /// Whether the end of the document is being pushed: an error then is about how it ends.
  @exclusivity(unchecked) private var ending = false
  @exclusivity(unchecked) private var fed = 0
  /// Whether an element started: before one, libxml2's messages for a document with no root
  /// are made clearer (``rootlessMessage(at:)``).
  @exclusivity(unchecked) private var sawElement = false
  /// The first byte fed that is not white space (nor a byte order mark), with its offset.
  @exclusivity(unchecked) private var firstContent: (offset: Int, byte: UInt8)?
  @exclusivity(unchecked) private var checkedPrologue = false
  /// The encoding the declaration names when it is ASCII: each byte pushed must then be ASCII.
  @exclusivity(unchecked) private var declaredASCII: String?
  @exclusivity(unchecked) private var pendingPrologue: [UInt8] = []
  /// Bytes held back while libxml2 waits for the end of a long node.
  @exclusivity(unchecked) private var heldBack: [UInt8] = []
  /// The text run not yet reported: pieces join until another event comes.
  @exclusivity(unchecked) private var pendingText: TextRange?
  /// Where text may start: libxml2's position at the last markup (tag, comment,
  /// instruction). Text libxml2 hands over copied lies after it.
  @exclusivity(unchecked) private var textFloor = 0
  /// libxml2's user data: this parser, its context, and where the white space libxml2 handed
  /// over last, in place, ends (`textEnd`, a global offset), when nothing was reported since:
  /// the markup that ends it starts there, so the tag reported next starts there too, found
  /// without a scan back for its `<` (-1 otherwise). The white space between tags, most
  /// character data, is answered in C (`outline_sax_characters`) without a call into Swift.
  private let state = UnsafeMutablePointer<outline_sax_state>.allocate(capacity: 1)

  /// Where the white space before the next markup ended (see `state`).
  private var textEnd: Int {
    get { state.pointee.textEnd }
    set { state.pointee.textEnd = newValue }
  }

  /// Creates a parser that reports to `handler`.
  public init(handler: any XMLEventHandler) {
    self.handler = handler
    pipeline = (handler as? XMLEventPipeline).map { Unmanaged.passUnretained($0) }
    state.initialize(
      to: outline_sax_state(
        owner: nil, context: nil, textEnd: -1,
        characters: { owner, characters, length in
          Unmanaged<XMLEventParser>.fromOpaque(owner!)._withUnsafeGuaranteedRef {
            $0.onCharacters(characters, Int(length))
          }
        }))
    state.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
  }

  deinit {
    scratch.deallocate()
    state.deallocate()
    guard let context else { return }
    // A context that parsed a whole document cleanly serves the thread's next one.
    if finished && !stopped && !sawFatal {
      ParserContextCache.keep(context)
    } else {
      xmlFreeParserCtxt(context)
    }
  }

  /// Parses a whole document held in memory, feeding libxml2 in chunks.
  public static func parse(
    _ bytes: [UInt8], handler: any XMLEventHandler, chunkSize: Int = 1 << 20
  ) {
    let parser = XMLEventParser(handler: handler)
    bytes.withUnsafeBufferPointer { buffer in
      var start = 0
      let chunk = max(1, chunkSize)
      repeat {
        let end = min(start + chunk, buffer.count)
        parser.feed(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        start = end
      } while start < buffer.count
    }
    parser.finish()
  }

  /// Feeds the next bytes of the document, in pieces of at most 1 MiB
  /// (libxml2 refuses to look ahead through more than 10 MB at once).
  public func feed(_ chunk: UnsafeBufferPointer<UInt8>) {
    let piece = 1 << 20
    if chunk.count > piece {
      var start = 0
      while start < chunk.count {
        feed(UnsafeBufferPointer(rebasing: chunk[start..<min(start + piece, chunk.count)]))
        start += piece
      }
      return
    }
    if stopped || chunk.isEmpty { return }
    // libxml2 rescans an unfinished tag or comment from its start on every
    // push: while it holds a long one, hold bytes back until they are as many
    // as it holds, so the rescans add up to a linear amount.
    let waiting = unconsumedBytes
    if waiting > piece || !heldBack.isEmpty {
      heldBack.append(contentsOf: chunk)
      if heldBack.count < waiting { return }
      pushHeldBack()
      return
    }
    if !checkedPrologue {
      // Look at the first bytes once enough of them are here to see the
      // byte order mark and the encoding declaration: where they are when
      // the first chunk holds them (a small file fed whole is not copied).
      if pendingPrologue.isEmpty && chunk.count >= 512 {
        checkPrologue(chunk)
        return
      }
      pendingPrologue.append(contentsOf: chunk)
      if pendingPrologue.count < 512 { return }
      flushPrologue()
      return
    }
    push(chunk, terminate: false)
  }

  /// Tells the parser the document is complete.
  public func finish() {
    if !checkedPrologue { flushPrologue() }
    pushHeldBack()
    if stopped { return }
    if context == nil { startContext() }
    ending = true
    push(UnsafeBufferPointer(start: nil, count: 0), terminate: true)
    ending = false
    finished = true
    flushText()
  }

  private func pushHeldBack() {
    guard !heldBack.isEmpty else { return }
    let bytes = heldBack
    heldBack = []
    bytes.withUnsafeBufferPointer { push($0, terminate: false) }
  }

  /// Bytes fed to libxml2 that it has not consumed yet: the node it waits to see end.
  private var unconsumedBytes: Int {
    guard let input else { return 0 }
    return fed - (input.baseOffset + input.base.distance(to: input.cur))
  }

  private func flushPrologue() {
    let bytes = pendingPrologue
    pendingPrologue = []
    bytes.withUnsafeBufferPointer { checkPrologue($0) }
  }

  /// Checks the encoding of the document's first bytes, `bytes`, then starts the parse with them.
  private func checkPrologue(_ bytes: UnsafeBufferPointer<UInt8>) {
    checkedPrologue = true
    switch EncodingCheck.verdict(for: bytes) {
    case .refused(let problem):
      report(message: problem.message, range: problem.range, fatal: true)
      stopped = true
      return
    case .ascii(let declared): declaredASCII = declared
    case .utf8: break
    }
    startContext()
    push(bytes, terminate: false)
  }

  private func startContext() {
    var sax = xmlSAXHandler()
    sax.initialized = UInt32(XML_SAX2_MAGIC)
    sax.startElementNs = { userData, _, _, _, _, _, _, _, _ in
      XMLEventParser.with(userData) { $0.onStartElement() }
    }
    sax.endElementNs = { userData, _, _, _ in
      XMLEventParser.with(userData) { $0.onEndElement() }
    }
    sax.characters = outline_sax_characters
    // The same function for white space: libxml2 then hands white space
    // over without first asking whether it is ignorable (`areBlanks`).
    sax.ignorableWhitespace = outline_sax_characters
    sax.cdataBlock = { userData, _, length in
      XMLEventParser.with(userData) { $0.onCDATA(Int(length)) }
    }
    sax.comment = { userData, content in
      XMLEventParser.with(userData) { $0.onComment(content) }
    }
    sax.processingInstruction = { userData, _, _ in
      XMLEventParser.with(userData) { $0.onProcessingInstruction() }
    }
    sax.internalSubset = { userData, _, _, _ in
      XMLEventParser.with(userData) { $0.onDoctype() }
    }
    sax.serror = { userData, error in
      guard let userData, let error else { return }
      XMLEventParser.with(userData) { $0.onError(error.pointee) }
    }
    guard let context = ParserContextCache.take(sax: &sax, userData: UnsafeMutableRawPointer(state)) else {
      stopped = true
      report(message: "libxml2 could not create a parser", range: TextRange(at: 0), fatal: true)
      return
    }
    // No network, no DTD loading, no entity substitution: the defaults,
    // plus NONET for good measure. Never NOENT or DTDLOAD. HUGE lifts the
    // 10 MB limits on one value or node (the size rule is ours, SizeRule);
    // in libxml2 2.9 it also lifts the guard against entity expansion, which
    // is safe only because a DOCTYPE stops the parse before anything it
    // declares is read (onDoctype), so no entity can exist. IGNORE_ENC: the
    // bytes are read as UTF-8 whatever the declaration says (EncodingCheck
    // lets only UTF-8 and ASCII through): for `US-ASCII` libxml2 would
    // otherwise switch to a decoder of its own, and the positions it gives
    // after the declaration would stop being the file's.
    xmlCtxtUseOptions(
      context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_IGNORE_ENC.rawValue))
    self.context = context
    state.pointee.context = context
  }

  private func push(_ chunk: UnsafeBufferPointer<UInt8>, terminate: Bool) {
    guard let context, !stopped else { return }
    if let declared = declaredASCII, let index = EncodingCheck.firstNonASCII(in: chunk) {
      // What comes before it is parsed; the byte stops the parse, as a decoder of the declared
      // encoding would stop (libxml2 reads the file as UTF-8: XML_PARSE_IGNORE_ENC).
      push(UnsafeBufferPointer(rebasing: chunk[..<index]), terminate: false)
      guard !stopped else { return }
      let byte = String(chunk[index], radix: 16, uppercase: true)
      report(
        message:
          "The file declares \(declared), but this byte (0x\(byte)) is not ASCII; outline files are UTF-8: declare encoding=\"UTF-8\"",
        range: TextRange(start: fed, end: fed + 1), fatal: true)
      stopped = true
      xmlStopParser(context)
      return
    }
    if firstContent == nil { noteFirstContent(chunk) }
    fed += chunk.count
    chunk.withMemoryRebound(to: CChar.self) { chars in
      _ = xmlParseChunk(context, chars.baseAddress, Int32(chars.count), terminate ? 1 : 0)
    }
    if !stopped, !terminate, unconsumedBytes > SizeRule.parserHoldLimit { stopHolding() }
  }

  /// Stops at a node far over the size rule that libxml2 would otherwise
  /// hold whole, before it gives up with "Huge input lookup".
  private func stopHolding() {
    guard let input else { return }
    let start = input.baseOffset + input.base.distance(to: input.cur)
    flushText()
    report(
      message:
        "A single tag, comment or text here is over \(SizeRule.describe(SizeRule.parserHoldLimit)) (a value or node may have at most \(SizeRule.describe(SizeRule.maximumValueBytes))); nothing after it is read",
      range: TextRange(at: start), fatal: true)
    stopped = true
    if let context { xmlStopParser(context) }
  }

  /// Calls `body` with the parser behind libxml2's user data, without a
  /// retain and release around each of the millions of callbacks (the
  /// parser outlives its context).
  private static func with(_ userData: UnsafeMutableRawPointer?, _ body: (XMLEventParser) -> Void) {
    let state = userData!.assumingMemoryBound(to: outline_sax_state.self)
    Unmanaged<XMLEventParser>.fromOpaque(state.pointee.owner!)._withUnsafeGuaranteedRef(body)
  }

  // MARK: Positions in libxml2's input buffer

  /// The current input's base, cursor and the global offset of its base.
  private var input:
    (base: UnsafePointer<UInt8>, cur: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, baseOffset: Int)?
  {
    // Field by field through the pointer: copying the whole xmlParserInput
    // on every callback showed in profiles.
    guard let input = context?.pointee.input, let base = input.pointee.base, let cur = input.pointee.cur,
      let end = input.pointee.end
    else { return nil }
    return (
      UnsafeRawPointer(base).assumingMemoryBound(to: UInt8.self),
      UnsafeRawPointer(cur).assumingMemoryBound(to: UInt8.self),
      UnsafeRawPointer(end).assumingMemoryBound(to: UInt8.self),
      Int(input.pointee.consumed)
    )
  }

  /// Scans back from `cursor` (exclusive) for `byte`, not before `base`.
  private func scanBack(for byte: UInt8, from cursor: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>)
    -> UnsafePointer<UInt8>?
  {
    guard cursor > base else { return nil }
    return outline_last_byte(base, Int32(byte), base.distance(to: cursor))
  }

  // MARK: Callbacks

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

  private func onStartElement() {
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
    if let pipeline {
      pipeline._withUnsafeGuaranteedRef {
        $0.startElement(
          unscanned: tag, offset: offset, contentEnd: open.distance(to: cursor), isSelfClosing: isSelfClosing)
      }
      return
    }
    var count = 0
    let nameEnd = TagScanner.scan(tag, contentEnd: open.distance(to: cursor)) { attribute in
      if count == scratchCapacity { growScratch() }
      (scratch + count).initialize(to: attribute)
      count += 1
    }
    handler.startElement(
      StartTag(
        bytes: tag, offset: offset, nameEnd: nameEnd,
        attributes: UnsafeBufferPointer(start: scratch, count: count), isSelfClosing: isSelfClosing))
  }

  /// Twice the room for a tag's attributes, those scanned so far kept.
  private func growScratch() {
    let grown = UnsafeMutablePointer<RawAttribute>.allocate(capacity: scratchCapacity * 2)
    grown.moveInitialize(from: scratch, count: scratchCapacity)
    scratch.deallocate()
    scratch = grown
    scratchCapacity *= 2
  }

  private func onEndElement() {
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

  private func onCharacters(_ characters: UnsafePointer<xmlChar>?, _ length: Int) {
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
      bytes: UnsafeBufferPointer(start: base + start, count: cursor - start))
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
  private func flushText() {
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

  private func onCDATA(_ length: Int) {
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

  private func onComment(_ content: UnsafePointer<xmlChar>?) {
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
      handler.comment(range: TextRange(start: max(0, end - length - 7), end: end), content: text)
      return
    }
    let range = TextRange(start: input.baseOffset + input.base.distance(to: open), end: end)
    handler.comment(range: range, content: text)
    handler.markup(range: range, bytes: UnsafeBufferPointer(start: open, count: open.distance(to: input.cur)))
  }

  private func onProcessingInstruction() {
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
      bytes: UnsafeBufferPointer(start: input.base + opening, count: range.length))
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

  private func onDoctype() {
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

  private func onError(_ error: xmlError) {
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
  private func noteFirstContent(_ chunk: UnsafeBufferPointer<UInt8>) {
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

  private func report(message: String, range: TextRange, fatal: Bool) {
    flushText()
    if fatal { sawFatal = true }
    handler.syntaxError(message: message, range: range, isFatal: fatal)
  }
}
