import OutlineCore

/// What ``XMLEventPipeline`` hands from the parser's thread to its consumer: events and the
/// bytes they need, in memory allocated once a batch.
extension XMLEventPipeline {
  /// An event as a batch keeps it: 24 bytes. Start tags and end tags, nearly every event of a
  /// document, are held here whole; the rest (``Rare``) in the batch's `rare` array, the event
  /// giving the index. Each event's bytes are written by the parser's thread and read by the
  /// consumer's, so every byte saved here is one less moved between the cores: the enum this
  /// replaced took 56 bytes an event, and an `<Item .../>` took two.
  struct Event {
    enum Kind: UInt8 {
      /// A start tag whose attributes the consumer scans
      /// (``startElement(unscanned:offset:contentEnd:isSelfClosing:)``): its bytes are
      /// `first..<first + count` of the batch's bytes, its `>` or `/>` at `extra`.
      case start
      /// A self-closing start tag and its end (`endElement(range: nil)`) in one event.
      case emptyElement
      /// A start tag read in place from the document's bytes: `offset..<offset + count` of the
      /// batch's `chunks[first]`; `extra` as for ``start``.
      case startInChunk
      /// ``startInChunk`` and its end, as ``emptyElement``.
      case emptyElementInChunk
      /// An end tag at `offset..<offset + count`.
      case end
      /// The end of an element with no end tag of its own.
      case endWithoutTag
      /// Text at `offset..<offset + count`.
      case text
      /// `rare[first]`.
      case rare
    }
    var offset: Int
    var first: UInt32
    var count: UInt32
    var extra: UInt32
    var kind: Kind
  }

  /// The events that are not start or end tags, or whose numbers do not fit an ``Event``.
  enum Rare {
    case start(offset: Int, bytes: Range<Int>, nameEnd: Int, attributes: Range<Int>, isSelfClosing: Bool)
    case unscannedStart(offset: Int, bytes: Range<Int>, contentEnd: Int, isSelfClosing: Bool)
    case end(TextRange?)
    case comment(TextRange, content: Range<Int>)
    case text(TextRange)
    case doctype(TextRange)
    /// A syntax error; its message is `messages[message]` (so the events
    /// hold no references and a batch is copied and freed without walking them).
    case syntaxError(message: Int, TextRange, isFatal: Bool)
    case processingInstruction(TextRange)
    case markup(TextRange, bytes: Range<Int>)
  }

  /// Events and the bytes they point to, in memory allocated once per batch: appends on the
  /// parser's thread (the one a large lint waits for) make no array uniqueness or capacity
  /// checks. Events hold no references, so they need no deinitialization. Its owner (the
  /// pipeline, or a carrier) frees it.
  struct Batch {
    private(set) var events = UnsafeMutablePointer<Event>.allocate(capacity: XMLEventPipeline.batchEvents + 1)
    private(set) var eventCount = 0
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var byteCount = 0
    private var byteCapacity = XMLEventPipeline.batchBytes + (1 << 12)
    var attributes: [RawAttribute] = []
    var messages: [String] = []
    var rare: [Rare] = []
    /// The chunks of the document the batch's in-place start tags are read from, in order.
    private(set) var chunks: [SourceChunk] = []
    /// Per chunk, the address its document offset 0 would have (its base less its start): a
    /// tag's bytes are found from its offset with one addition, with no reference to the
    /// chunk retained and released on either thread.
    private let origins = UnsafeMutablePointer<Int>.allocate(capacity: XMLEventPipeline.batchChunks + 1)

    init() { bytes = .allocate(capacity: byteCapacity) }

    /// Frees the memory; the batch must not be used after.
    func free() {
      events.deallocate()
      bytes.deallocate()
      origins.deallocate()
    }

    /// Keeps `chunk` for the batch's in-place tags; returns its index.
    mutating func appendChunk(_ chunk: SourceChunk) -> Int {
      precondition(chunks.count <= XMLEventPipeline.batchChunks, "a batch holds few chunks")
      origins[chunks.count] = Int(bitPattern: chunk.base) &- chunk.start
      chunks.append(chunk)
      return chunks.count - 1
    }

    /// Where the document's byte at `offset` is in the batch's chunk `chunk`.
    @inline(__always)
    func address(inChunk chunk: Int, at offset: Int) -> UnsafePointer<UInt8> {
      UnsafePointer(bitPattern: origins[chunk] &+ offset)!
    }

    /// Appends `event`; a batch holds at most `batchEvents` (the pipeline submits it then).
    @inline(__always)
    mutating func append(_ event: Event) {
      (events + eventCount).initialize(to: event)
      eventCount += 1
    }

    /// Appends an event of `kind` whose numbers are `offset`, `first`, `count` and `extra`,
    /// or `otherwise` when one of them does not fit 32 bits.
    @inline(__always)
    mutating func append(
      _ kind: Event.Kind, offset: Int, first: Int, count: Int, extra: Int = 0,
      otherwise: @autoclosure () -> Rare
    ) {
      guard let first = UInt32(exactly: first), let count = UInt32(exactly: count),
        let extra = UInt32(exactly: extra)
      else { return appendRare(otherwise()) }
      append(Event(offset: offset, first: first, count: count, extra: extra, kind: kind))
    }

    mutating func appendRare(_ event: Rare) {
      rare.append(event)
      append(
        Event(offset: 0, first: UInt32(truncatingIfNeeded: rare.count - 1), count: 0, extra: 0, kind: .rare))
    }

    /// Makes the last event, a self-closing start tag, also its element's end; false when the
    /// last event is something else.
    @inline(__always)
    mutating func endLastEmptyElement() -> Bool {
      guard eventCount > 0, events[eventCount - 1].extra & Self.selfClosing != 0 else { return false }
      switch events[eventCount - 1].kind {
      case .start: events[eventCount - 1].kind = .emptyElement
      case .startInChunk: events[eventCount - 1].kind = .emptyElementInChunk
      default: return false
      }
      return true
    }

    /// The bit of a start event's `extra` saying it ends with `/>` (the rest is where that starts).
    static let selfClosing: UInt32 = 1 << 31

    /// Appends `source`; returns where it is in the batch's bytes.
    @inline(__always)
    mutating func appendBytes(_ source: UnsafeBufferPointer<UInt8>) -> Range<Int> {
      let start = byteCount
      if byteCount + source.count > byteCapacity {
        // A tag or comment larger than a batch.
        byteCapacity = max(byteCapacity * 2, byteCount + source.count)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: byteCapacity)
        grown.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = grown
      }
      if let base = source.baseAddress { (bytes + byteCount).update(from: base, count: source.count) }
      byteCount += source.count
      return start..<byteCount
    }

    /// The bytes at `range`.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(start: bytes + range.lowerBound, count: range.count)
    }

    /// The bytes of a start event.
    func bytes(of event: Event) -> UnsafeBufferPointer<UInt8> {
      switch event.kind {
      case .startInChunk, .emptyElementInChunk:
        return UnsafeBufferPointer(
          start: address(inChunk: Int(event.first), at: event.offset), count: Int(event.count))
      default:
        return UnsafeBufferPointer(start: bytes + Int(event.first), count: Int(event.count))
      }
    }

    /// Empties the batch, keeping its memory.
    mutating func clear() {
      eventCount = 0
      byteCount = 0
      attributes.removeAll(keepingCapacity: true)
      messages.removeAll(keepingCapacity: true)
      rare.removeAll(keepingCapacity: true)
      chunks.removeAll(keepingCapacity: true)
    }
  }
}
