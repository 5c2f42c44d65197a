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
  let handler: any XMLEventHandler
  /// The handler when it is a pipeline: start tags go to it unscanned, and
  /// its consumer thread scans their attributes.
  /// Unmanaged: `handler` holds it, and even an `unowned(unsafe)` optional was retained and
  /// released around each start tag (two atomic operations on the parser's thread).
  let pipeline: Unmanaged<XMLEventPipeline>?
  @exclusivity(unchecked) var context: xmlParserCtxtPtr?
  /// A start tag's attribute ranges, refilled for each tag: memory of its own, so a tag costs
  /// no array bookkeeping (emptying an array of them was a generic call on every tag).
  @exclusivity(unchecked) var scratch = UnsafeMutablePointer<RawAttribute>.allocate(capacity: 16)
  @exclusivity(unchecked) var scratchCapacity = 16
  @exclusivity(unchecked) var stopped = false
  @exclusivity(unchecked) var sawFatal = false
  /// Whether the end of the document was pushed (the context may then serve another parse).
  @exclusivity(unchecked) private var finished = false
  /// Whether the end of the document is being pushed: an error then is about how it ends.
  @exclusivity(unchecked) var ending = false
  @exclusivity(unchecked) var fed = 0
  /// Whether an element started: before one, libxml2's messages for a document with no root
  /// are made clearer (``rootlessMessage(at:)``).
  @exclusivity(unchecked) var sawElement = false
  /// The first byte fed that is not white space (nor a byte order mark), with its offset.
  @exclusivity(unchecked) var firstContent: (offset: Int, byte: UInt8)?
  @exclusivity(unchecked) private var checkedPrologue = false
  /// Whether the document was a plain one, its events reported without libxml2 (``feedWhole(_:)``).
  @exclusivity(unchecked) private var replayed = false
  /// The encoding the declaration names when it is ASCII: each byte pushed must then be ASCII.
  @exclusivity(unchecked) private var declaredASCII: String?
  @exclusivity(unchecked) private var pendingPrologue: [UInt8] = []
  /// Bytes held back while libxml2 waits for the end of a long node.
  @exclusivity(unchecked) private var heldBack: [UInt8] = []
  /// The text run not yet reported: pieces join until another event comes.
  @exclusivity(unchecked) var pendingText: TextRange?
  /// Where text may start: libxml2's position at the last markup (tag, comment,
  /// instruction). Text libxml2 hands over copied lies after it.
  @exclusivity(unchecked) var textFloor = 0
  /// libxml2's user data: this parser, its context, and where the white space libxml2 handed
  /// over last, in place, ends (`textEnd`, a global offset), when nothing was reported since:
  /// the markup that ends it starts there, so the tag reported next starts there too, found
  /// without a scan back for its `<` (-1 otherwise). The white space between tags, most
  /// character data, is answered in C (`outline_sax_characters`) without a call into Swift.
  private let state = UnsafeMutablePointer<outline_sax_state>.allocate(capacity: 1)

  /// Where the white space before the next markup ended (see `state`).
  var textEnd: Int {
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

  /// Feeds the next bytes of the document, lent as a view.
  @inlinable
  public func feed(_ chunk: ByteView) { feed(chunk.unsafeBuffer) }

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

  /// Feeds the whole document at once: ``finish()`` comes next, with nothing fed between.
  /// A document of the plainest shape (``PlainDocument``) is checked and its events
  /// reported without libxml2, exactly as libxml2's callbacks would report them; any
  /// other is fed to libxml2.
  public func feedWhole(_ document: ByteView) {
    let bytes = document.unsafeBuffer
    guard fed == 0, !checkedPrologue, pendingPrologue.isEmpty, pipeline == nil,
      let tags = PlainDocument.tags(of: bytes)
    else {
      feed(document)
      return
    }
    replayed = true
    fed = bytes.count
    replay(tags, in: bytes)
  }

  /// Tells the parser the document is complete.
  public func finish() {
    if replayed { return }
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
  var input:
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
  func scanBack(for byte: UInt8, from cursor: UnsafePointer<UInt8>, base: UnsafePointer<UInt8>)
    -> UnsafePointer<UInt8>?
  {
    guard cursor > base else { return nil }
    return outline_last_byte(base, Int32(byte), base.distance(to: cursor))
  }
}
