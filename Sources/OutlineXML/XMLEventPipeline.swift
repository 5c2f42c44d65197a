import Foundation
import OutlineCore

/// Hands a parse's events to `handler` on a thread of its own, in order, so
/// libxml2 parses the next part of a large document while the validator (and
/// a writer beside it) works on the part before: two cores, one document.
///
/// Events go in batches of at most 4,096 (24 bytes each) with the bytes they
/// need; at most four batches wait, so memory stays bounded whatever the
/// document's size. What the parser's thread writes, the consumer's core must
/// fetch, so it writes little: a start tag in the document's bytes as read
/// into ``chunkBuffer()`` (or all in memory, ``readInPlace(_:)``) is read there
/// by the consumer, and only a tag outside them is copied (with a comment's
/// content and the attributes of a tag given scanned). The handler sees the
/// same events, with the same ranges, as it would directly; it must not be
/// touched by anyone else until ``finish()`` returns. Before replaying a
/// batch, the consumer scans its start tags and tells the handler of each
/// (``XMLEventHandler/upcoming(_:)``), so what they will need can be brought
/// into the caches for the whole batch at once.
public final class XMLEventPipeline: XMLEventHandler, @unchecked Sendable {
  private let handler: any XMLEventHandler
  /// The batch being filled (producer only).
  @exclusivity(unchecked) private var batch = Batch()
  /// The chunks of the document a start tag may still be read from in place, oldest first
  /// (producer only): a tag outside them (and outside the batch's last chunk) is copied into
  /// the batch.
  @exclusivity(unchecked) private var recentChunks: [SourceChunk] = []
  /// The document range of the batch's last chunk, `batch.chunks.last` (producer only): most
  /// start tags are in it, and finding so takes two comparisons.
  @exclusivity(unchecked) private var batchChunkRange = 0..<0
  /// Memory handed out by ``chunkBuffer()`` and not yet read into, and the document offset of
  /// the next chunk (producer only).
  @exclusivity(unchecked) private var pendingChunk: UnsafeMutablePointer<UInt8>?
  @exclusivity(unchecked) private var chunkEnd = 0
  private let chunkPool = ChunkPool()
  /// How many chunks' memory the pipeline allocated: what bounds its memory.
  var chunksAllocated: Int { chunkPool.allocated }
  private static let recentChunkLimit = 4
  /// Full batches on their way to the consumer's thread (at most four wait).
  private var handoff: Handoff<Carrier>!
  /// Carriers of batches the consumer replayed, emptied for the producer to fill again (at
  /// most ten exist): a fresh batch's half megabyte was allocated, faulted in and brought into
  /// the caches anew each time, a large share of a big lint's CPU time. Guarded by `sparesLock`.
  @exclusivity(unchecked) private var spares: [Carrier] = []
  private let sparesLock = NSLock()
  /// Documents of at least this many bytes are worth a pipeline; below it
  /// a thread costs more than it saves.
  public static let worthwhileBytes = 1 << 20
  static let batchBytes = 1 << 18
  private static let spareReserve = 4
  static let batchEvents = 1 << 12
  /// At most this many chunks a batch: the chunks alive are then at most 29 (the recent four,
  /// four for each of the six batches that can hold tags, one being read into), and the pool
  /// keeps eight more in reserve (``ChunkPool/reserve``): 9.25 MiB.
  static let batchChunks = 4
  /// How many events ahead ``scanAhead(_:)`` asks for a tag's bytes.
  private static let scanDistance = 8

  /// A batch on its way to the consumer and back: a box, so the batch handed back keeps its
  /// arrays uniquely referenced (and their capacity), while the producer fills one stored in
  /// place (no reference to retain on each event).
  private final class Carrier {
    @exclusivity(unchecked) var batch = Batch()
    deinit { batch.free() }
  }

  /// Starts the thread that hands events to `handler`.
  public init(handler: any XMLEventHandler) {
    self.handler = handler
    // Unowned: the handoff's thread calls back only until `finish()` returns, and the
    // pipeline must not outlive its owner through it.
    // The consumer is faster than the parser: woken for three batches at a time, it is woken
    // a third as often.
    handoff = Handoff(name: "outline-events", wakeAt: 3) { [unowned self] in self.replay($0) }
  }

  // MARK: Producer side (the parser's thread)

  /// Memory for the document's next bytes, read from a file in chunks: read into it, then say
  /// how many bytes it holds (``chunkRead(_:)``) and hand those to the parser. The consumer
  /// then reads the start tags in it where they are, instead of copies made on the parser's
  /// thread.
  public func chunkBuffer() -> UnsafeMutableBufferPointer<UInt8> {
    let memory = pendingChunk ?? chunkPool.take()
    pendingChunk = memory
    return UnsafeMutableBufferPointer(start: memory, count: ChunkPool.chunkBytes)
  }

  /// Says the memory of the last ``chunkBuffer()`` now holds the document's next `count`
  /// bytes (those after every chunk before it); returns them, to feed to the parser. Every
  /// byte of the document must come this way, from its first (not with ``readInPlace(_:)``);
  /// a tag whose bytes are not where its offset says is copied all the same.
  public func chunkRead(_ count: Int) -> ByteView {
    guard let memory = pendingChunk, count > 0 else { return ByteView() }
    pendingChunk = nil
    remember(SourceChunk(base: memory, start: chunkEnd, count: count, pool: chunkPool))
    chunkEnd += count
    return ByteView(UnsafeBufferPointer(start: memory, count: count))
  }

  /// Says the whole document is `bytes`, unchanged until ``finish()`` returns: the consumer
  /// reads start tags in it where they are.
  public func readInPlace(_ bytes: ByteView) { readInPlace(bytes.unsafeBuffer) }

  /// Says the whole document is `bytes`, unchanged until ``finish()`` returns: the consumer
  /// reads start tags in it where they are.
  public func readInPlace(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    remember(SourceChunk(base: base, start: 0, count: bytes.count, pool: nil))
  }

  private func remember(_ chunk: SourceChunk) {
    if recentChunks.count == Self.recentChunkLimit { recentChunks.removeFirst() }
    recentChunks.append(chunk)
  }

  /// The index in the batch's chunks of the one holding `range` of the document, when one of
  /// the recent chunks does.
  @inline(__always)
  private func batchChunk(holding range: Range<Int>) -> Int? {
    if range.lowerBound >= batchChunkRange.lowerBound && range.upperBound <= batchChunkRange.upperBound {
      return batch.chunks.count - 1
    }
    return addBatchChunk(holding: range)
  }

  /// Whether the document's bytes at `place` begin and end as `tag` does: a tag is read in
  /// place only where the offsets the parser gave are the document's, and a check that reads
  /// two words of each costs next to nothing.
  @inline(__always)
  private static func sameEnds(_ tag: UnsafeBufferPointer<UInt8>, _ place: UnsafePointer<UInt8>) -> Bool {
    guard let base = tag.baseAddress else { return false }
    let count = tag.count
    guard count >= 8 else { return memcmp(base, place, count) == 0 }
    let raw = UnsafeRawPointer(base)
    let other = UnsafeRawPointer(place)
    return raw.loadUnaligned(as: UInt64.self) == other.loadUnaligned(as: UInt64.self)
      && raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == other.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
  }

  private func addBatchChunk(holding range: Range<Int>) -> Int? {
    guard let chunk = recentChunks.last(where: { $0.start <= range.lowerBound }),
      range.upperBound <= chunk.start + chunk.count
    else { return nil }
    batchChunkRange = chunk.start..<chunk.start + chunk.count
    return batch.appendChunk(chunk)
  }

  public func startElement(_ tag: StartTag) {
    let bytes = batch.appendBytes(tag.unsafeBytes)
    let attributesStart = batch.attributes.count
    batch.attributes.append(contentsOf: tag.unsafeAttributes)
    batch.appendRare(
      .start(
        offset: tag.offset, bytes: bytes, nameEnd: tag.nameEnd,
        attributes: attributesStart..<batch.attributes.count, isSelfClosing: tag.isSelfClosing))
    submitIfFull()
  }

  /// A start tag given as its bytes (`<` to `>`), with where its `>` or
  /// `/>` starts: only the bytes are copied here, and the consumer's thread
  /// scans its name and attributes, taking that work off the parser's thread.
  public func startElement(
    unscanned tag: UnsafeBufferPointer<UInt8>, offset: Int, contentEnd: Int, isSelfClosing: Bool
  ) {
    let extra = contentEnd | (isSelfClosing ? Int(Batch.selfClosing) : 0)
    if contentEnd < Int(Batch.selfClosing), let chunk = batchChunk(holding: offset..<offset + tag.count),
      Self.sameEnds(tag, batch.address(inChunk: chunk, at: offset))
    {
      // The numbers fit: a batch has at most `batchChunks` chunks, a tag in one is shorter than it.
      batch.append(
        Event(
          offset: offset, first: UInt32(truncatingIfNeeded: chunk),
          count: UInt32(truncatingIfNeeded: tag.count),
          extra: UInt32(truncatingIfNeeded: extra), kind: .startInChunk))
      submitIfFull()
      return
    }
    let bytes = batch.appendBytes(tag)
    if contentEnd < Int(Batch.selfClosing) {
      batch.append(
        .start, offset: offset, first: bytes.lowerBound, count: bytes.count,
        extra: extra,
        otherwise: .unscannedStart(
          offset: offset, bytes: bytes, contentEnd: contentEnd, isSelfClosing: isSelfClosing))
    } else {
      batch.appendRare(
        .unscannedStart(offset: offset, bytes: bytes, contentEnd: contentEnd, isSelfClosing: isSelfClosing))
    }
    submitIfFull()
  }

  public func endElement(range: TextRange?) {
    if let range {
      batch.append(.end, offset: range.start, first: 0, count: range.length, otherwise: .end(range))
    } else if !batch.endLastEmptyElement() {
      batch.append(Event(offset: 0, first: 0, count: 0, extra: 0, kind: .endWithoutTag))
    }
    submitIfFull()
  }

  public func comment(range: TextRange, content: ByteView) {
    batch.appendRare(.comment(range, content: batch.appendBytes(content.unsafeBuffer)))
    submitIfFull()
  }

  public func text(range: TextRange) {
    batch.append(.text, offset: range.start, first: 0, count: range.length, otherwise: .text(range))
    submitIfFull()
  }

  public func doctype(range: TextRange) {
    batch.appendRare(.doctype(range))
    submitIfFull()
  }

  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    batch.messages.append(message)
    batch.appendRare(.syntaxError(message: batch.messages.count - 1, range, isFatal: isFatal))
    submitIfFull()
  }

  public func processingInstruction(range: TextRange) {
    batch.appendRare(.processingInstruction(range))
    submitIfFull()
  }

  public func markup(range: TextRange, bytes: ByteView) {
    batch.appendRare(.markup(range, bytes: batch.appendBytes(bytes.unsafeBuffer)))
    submitIfFull()
  }

  private func submitIfFull() {
    // A batch keeps the chunks its tags are in: few, or tags far apart (long text between
    // them) would keep the whole document.
    guard
      batch.byteCount >= Self.batchBytes || batch.eventCount >= Self.batchEvents
        || batch.chunks.count >= Self.batchChunks
    else { return }
    submit()
  }

  private func submit() {
    sparesLock.lock()
    // Oldest first, once `spareReserve` wait: the batch the consumer replayed last is still in
    // its core's caches, and filling it made this core claim each line back (as for chunks).
    let carrier = spares.count > Self.spareReserve ? spares.removeFirst() : Carrier()
    sparesLock.unlock()
    swap(&carrier.batch, &batch)
    batchChunkRange = 0..<0
    handoff.submit(carrier)
  }

  /// Hands over the last events and waits until the handler has seen them all.
  public func finish() {
    if batch.eventCount > 0 { submit() }
    handoff.finish()
    recentChunks.removeAll()
    if let memory = pendingChunk { chunkPool.put(memory) }
    pendingChunk = nil
  }

  // MARK: Consumer side

  /// One scanned start tag of the batch being replayed: where its name ends, and its
  /// attributes in `scanned`.
  private struct TagScan {
    var nameEnd: Int32
    var first: Int32
    var count: Int32
  }

  /// The consumer's attribute ranges of the batch's start tags (`scannedCapacity` of them).
  @exclusivity(unchecked) private var scanned = UnsafeMutablePointer<RawAttribute>.allocate(capacity: 1 << 12)
  @exclusivity(unchecked) private var scannedCapacity = 1 << 12
  /// The batch's start tags as scanned, in order (a batch holds at most `batchEvents` + 1 events).
  @exclusivity(unchecked) private var tagScans = UnsafeMutablePointer<TagScan>.allocate(
    capacity: XMLEventPipeline.batchEvents + 1)

  deinit {
    scanned.deallocate()
    tagScans.deallocate()
    batch.free()
    if let pendingChunk { chunkPool.put(pendingChunk) }
  }

  /// Scans the start tag `tag` into `scanned` from `first` on, growing it when needed;
  /// returns where the name ends, the count and whether an attribute is the `xml:id`.
  @inline(__always)
  private func scan(_ tag: UnsafeBufferPointer<UInt8>, contentEnd: Int, from first: Int) -> (
    nameEnd: Int, count: Int, hasID: Bool
  ) {
    var count = first
    var hasID = false
    let base = tag.baseAddress
    let nameEnd = TagScanner.scan(tag, contentEnd: contentEnd) { attribute in
      if attribute.nameEnd &- attribute.nameStart == 6, let base,
        XMLName.isXMLID(base + Int(attribute.nameStart), length: 6)
      {
        hasID = true
      }
      if count == scannedCapacity {
        let grown = UnsafeMutablePointer<RawAttribute>.allocate(capacity: scannedCapacity * 2)
        grown.moveInitialize(from: scanned, count: count)
        scanned.deallocate()
        scanned = grown
        scannedCapacity *= 2
      }
      (scanned + count).initialize(to: attribute)
      count += 1
    }
    return (nameEnd, count - first, hasID)
  }

  /// Scans the batch's start tags and tells the handler of each with an `xml:id` ahead of its
  /// events (``XMLEventHandler/upcoming(_:)``): the validator brings the id table's slots
  /// into the caches for a whole batch at once instead of waiting on each in turn.
  private func scanAhead(_ carrier: Carrier) {
    let events = carrier.batch.events
    let handler = self.handler
    var tags = 0
    var attributes = 0
    let eventCount = carrier.batch.eventCount
    for index in 0..<eventCount {
      let event = events[index]
      // The parser's core wrote the bytes of the tags ahead: asked for a few tags early, they
      // are here when the scan comes to them.
      let ahead = index + Self.scanDistance
      if ahead < eventCount, events[ahead].kind == .startInChunk || events[ahead].kind == .emptyElementInChunk
      {
        CacheHint.prefetch(carrier.batch.address(inChunk: Int(events[ahead].first), at: events[ahead].offset))
      }
      let offset: Int
      let tag: UnsafeBufferPointer<UInt8>
      let contentEnd: Int
      let isSelfClosing: Bool
      switch event.kind {
      case .start, .emptyElement, .startInChunk, .emptyElementInChunk:
        offset = event.offset
        tag = carrier.batch.bytes(of: event)
        contentEnd = Int(event.extra & ~Batch.selfClosing)
        isSelfClosing = event.extra & Batch.selfClosing != 0
      case .rare:
        guard
          case .unscannedStart(let at, let range, let end, let closing) = carrier.batch.rare[Int(event.first)]
        else { continue }
        (offset, tag, contentEnd, isSelfClosing) = (at, carrier.batch.bytes(range), end, closing)
      default: continue
      }
      let (nameEnd, count, hasID) = scan(tag, contentEnd: contentEnd, from: attributes)
      (tagScans + tags).initialize(
        to: TagScan(
          nameEnd: Int32(truncatingIfNeeded: nameEnd), first: Int32(truncatingIfNeeded: attributes),
          count: Int32(truncatingIfNeeded: count)))
      if hasID {
        handler.upcoming(
          StartTag(
            bytes: tag, offset: offset, nameEnd: nameEnd,
            attributes: UnsafeBufferPointer(start: scanned + attributes, count: count),
            isSelfClosing: isSelfClosing))
      }
      tags += 1
      attributes += count
    }
  }

  private func replay(_ carrier: Carrier) {
    scanAhead(carrier)
    var tagIndex = 0
    let events = carrier.batch.events
    for index in 0..<carrier.batch.eventCount {
      let event = events[index]
      switch event.kind {
      case .start, .emptyElement, .startInChunk, .emptyElementInChunk:
        let scan = tagScans[tagIndex]
        tagIndex += 1
        handler.startElement(
          StartTag(
            bytes: carrier.batch.bytes(of: event), offset: event.offset, nameEnd: Int(scan.nameEnd),
            attributes: UnsafeBufferPointer(start: scanned + Int(scan.first), count: Int(scan.count)),
            isSelfClosing: event.extra & Batch.selfClosing != 0))
        if event.kind == .emptyElement || event.kind == .emptyElementInChunk {
          handler.endElement(range: nil)
        }
      case .end:
        handler.endElement(range: TextRange(start: event.offset, end: event.offset + Int(event.count)))
      case .endWithoutTag: handler.endElement(range: nil)
      case .text: handler.text(range: TextRange(start: event.offset, end: event.offset + Int(event.count)))
      case .rare: replay(carrier.batch.rare[Int(event.first)], of: carrier, tagIndex: &tagIndex)
      }
    }
    carrier.batch.clear()
    sparesLock.lock()
    spares.append(carrier)
    sparesLock.unlock()
  }

  private func replay(_ event: Rare, of carrier: Carrier, tagIndex: inout Int) {
    switch event {
    case .start(let offset, let range, let nameEnd, let attributeRange, let isSelfClosing):
      // The attributes are read in place: a copy would keep them from being emptied for reuse.
      carrier.batch.attributes.withUnsafeBufferPointer { attributes in
        handler.startElement(
          StartTag(
            bytes: carrier.batch.bytes(range), offset: offset, nameEnd: nameEnd,
            attributes: UnsafeBufferPointer(rebasing: attributes[attributeRange]),
            isSelfClosing: isSelfClosing))
      }
    case .unscannedStart(let offset, let range, _, let isSelfClosing):
      let scan = tagScans[tagIndex]
      tagIndex += 1
      handler.startElement(
        StartTag(
          bytes: carrier.batch.bytes(range), offset: offset, nameEnd: Int(scan.nameEnd),
          attributes: UnsafeBufferPointer(start: scanned + Int(scan.first), count: Int(scan.count)),
          isSelfClosing: isSelfClosing))
    case .end(let range): handler.endElement(range: range)
    case .comment(let range, let content):
      handler.comment(range: range, content: ByteView(carrier.batch.bytes(content)))
    case .text(let range): handler.text(range: range)
    case .doctype(let range): handler.doctype(range: range)
    case .syntaxError(let message, let range, let isFatal):
      handler.syntaxError(message: carrier.batch.messages[message], range: range, isFatal: isFatal)
    case .processingInstruction(let range): handler.processingInstruction(range: range)
    case .markup(let range, let markup):
      handler.markup(range: range, bytes: ByteView(carrier.batch.bytes(markup)))
    }
  }
}
