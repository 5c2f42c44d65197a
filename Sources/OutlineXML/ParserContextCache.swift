import CLibXML2
import OutlineCore

/// One libxml2 push parser context per thread, kept from one document to the
/// next: linting many small files made and freed a context for each (its
/// dictionary, name and input stacks, a copy of the SAX handler: two dozen
/// allocations a file).
///
/// A context is kept only after a parse that ended cleanly (the whole input
/// read, no fatal error, no `<!DOCTYPE`), and only while its stacks and
/// dictionary are small (a deep or wide document's are freed with it, so a
/// thread holds at most a few kilobytes). Taking one resets it to the state
/// `xmlCreatePushParserCtxt` gives a new one (``reset(_:userData:)``); the
/// caller then sets the same options as on a new one.
enum ParserContextCache {
  /// The thread's kept context; freed when the thread ends.
  private static let slot = ThreadSlot { pointer in
    if let pointer { xmlFreeParserCtxt(pointer.assumingMemoryBound(to: xmlParserCtxt.self)) }
  }

  /// The largest stacks (entries) and dictionary (names) a kept context may have.
  static let stackLimit: Int32 = 256
  static let dictionaryLimit = 4096

  /// A push parser context reporting to `sax` with `userData`: the thread's
  /// kept one, reset, or a new one. Nil when libxml2 could not make one.
  static func take(sax: inout xmlSAXHandler, userData: UnsafeMutableRawPointer) -> xmlParserCtxtPtr? {
    if let kept = slot.take() {
      let context = kept.assumingMemoryBound(to: xmlParserCtxt.self)
      if reset(context, userData: userData) { return context }
      xmlFreeParserCtxt(context)
    }
    return xmlCreatePushParserCtxt(&sax, userData, nil, 0, nil)
  }

  /// Keeps `context`, done with a parse that ended cleanly, for the thread's
  /// next document; frees it when the thread already keeps one or it grew large.
  static func keep(_ context: xmlParserCtxtPtr) {
    let state = context.pointee
    let small =
      state.nameMax <= stackLimit && state.spaceMax <= stackLimit && state.nsMax <= stackLimit
      && state.nodeMax <= stackLimit && state.maxatts <= stackLimit * 2
      && Int(xmlDictSize(state.dict)) <= dictionaryLimit
    if !small || !slot.put(context) { xmlFreeParserCtxt(context) }
  }

  /// Whether the calling thread keeps a context now (for tests).
  static var threadKeepsOne: Bool { slot.isFilled }

  /// Frees the calling thread's kept context, so its next parse makes a new one (for tests).
  static func discard() {
    guard let kept = slot.take() else { return }
    xmlFreeParserCtxt(kept.assumingMemoryBound(to: xmlParserCtxt.self))
  }

  /// Resets a kept context to what `xmlCreatePushParserCtxt(sax, userData,
  /// nil, 0, nil)` returns: its input a new empty buffer, its state the
  /// start, its handler the same (the handler's functions are the same for
  /// every parser; the user data says which parser hears them).
  private static func reset(_ context: xmlParserCtxtPtr, userData: UnsafeMutableRawPointer) -> Bool {
    // Frees the inputs, the version and encoding read, resets the state and
    // the error; allocates a new input buffer and stream.
    guard xmlCtxtResetPush(context, nil, 0, nil, nil) == 0 else { return false }
    // xmlCtxtReset (libxml2 2.9) leaves the namespace stack's count and the
    // push state (`progressive`: what the last push waited for) as they
    // were, empties the space stack where a new context holds one -1, and
    // sets the charset to UTF-8 where a new context without a first chunk
    // has none (the encoding is then detected from the first bytes).
    context.pointee.nsNr = 0
    context.pointee.progressive = 0
    if context.pointee.spaceTab != nil { context.pointee.spaceNr = 1 }
    context.pointee.charset = Int32(XML_CHAR_ENCODING_NONE.rawValue)
    context.pointee.userData = userData
    return true
  }
}
