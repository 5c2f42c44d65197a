import CLibXML2
import Foundation
import OutlineCore

/// Hints to the processor's caches.
public enum CacheHint {
  /// Asks for the cache line at `address` ahead of a write to it (a hint: nothing waits for it).
  @inlinable
  public static func prefetchForWrite(_ address: UnsafeRawPointer) {
    outline_prefetch_for_write(address)
  }
}

/// Hands a parse's events to `handler` on a thread of its own, in order, so
/// libxml2 parses the next part of a large document while the validator (and
/// a writer beside it) works on the part before: two cores, one document.
///
/// Events are copied into batches of about 256 KiB (a start tag's bytes and
/// attribute ranges, a comment's content); at most four batches wait, so
/// memory stays bounded whatever the document's size. The handler sees the
/// same events, with the same ranges, as it would directly; it must not be
/// touched by anyone else until ``finish()`` returns. Before replaying a
/// batch, the consumer scans its start tags and tells the handler of each
/// (``XMLEventHandler/upcoming(_:)``), so what they will need can be brought
/// into the caches for the whole batch at once.
public final class XMLEventPipeline: XMLEventHandler, @unchecked Sendable {
  private let handler: any XMLEventHandler
  /// The batch being filled (producer only).
  @exclusivity(unchecked) private var batch = Batch()
  /// Full batches on their way to the consumer's thread (at most four wait).
  private var handoff: Handoff<Carrier>!
  /// Carriers of batches the consumer replayed, emptied for the producer to fill again (at
  /// most six exist): a fresh batch's half megabyte was allocated, faulted in and brought into
  /// the caches anew each time, 14% of a 1M-item lint's CPU time. Guarded by `sparesLock`.
  @exclusivity(unchecked) private var spares: [Carrier] = []
  private let sparesLock = NSLock()
  /// Documents of at least this many bytes are worth a pipeline; below it
  /// a thread costs more than it saves.
  public static let worthwhileBytes = 1 << 20
  private static let batchBytes = 1 << 18
  private static let batchEvents = 1 << 12

  private enum Event {
    case start(offset: Int, bytes: Range<Int>, nameEnd: Int, attributes: Range<Int>, isSelfClosing: Bool)
    /// A start tag whose attributes the consumer scans (``startElement(unscanned:offset:contentEnd:isSelfClosing:)``).
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
  private struct Batch {
    private(set) var events = UnsafeMutablePointer<Event>.allocate(capacity: XMLEventPipeline.batchEvents + 1)
    private(set) var eventCount = 0
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var byteCount = 0
    private var byteCapacity = XMLEventPipeline.batchBytes + (1 << 12)
    var attributes: [RawAttribute] = []
    var messages: [String] = []

    init() { bytes = .allocate(capacity: byteCapacity) }

    /// Frees the memory; the batch must not be used after.
    func free() {
      events.deallocate()
      bytes.deallocate()
    }

    /// Appends `event`; a batch holds at most `batchEvents` (the pipeline submits it then).
    @inline(__always)
    mutating func append(_ event: Event) {
      (events + eventCount).initialize(to: event)
      eventCount += 1
    }

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

    /// Empties the batch, keeping its memory.
    mutating func clear() {
      eventCount = 0
      byteCount = 0
      attributes.removeAll(keepingCapacity: true)
      messages.removeAll(keepingCapacity: true)
    }
  }

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
    handoff = Handoff(name: "outline-events") { [unowned self] in self.replay($0) }
  }

  // MARK: Producer side (the parser's thread)

  public func startElement(_ tag: StartTag) {
    let bytes = batch.appendBytes(tag.bytes)
    let attributesStart = batch.attributes.count
    batch.attributes.append(contentsOf: tag.attributes)
    batch.append(
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
    let bytes = batch.appendBytes(tag)
    batch.append(
      .unscannedStart(offset: offset, bytes: bytes, contentEnd: contentEnd, isSelfClosing: isSelfClosing))
    submitIfFull()
  }

  public func endElement(range: TextRange?) {
    batch.append(.end(range))
    submitIfFull()
  }

  public func comment(range: TextRange, content: UnsafeBufferPointer<UInt8>) {
    batch.append(.comment(range, content: batch.appendBytes(content)))
    submitIfFull()
  }

  public func text(range: TextRange) {
    batch.append(.text(range))
    submitIfFull()
  }

  public func doctype(range: TextRange) {
    batch.append(.doctype(range))
    submitIfFull()
  }

  public func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    batch.messages.append(message)
    batch.append(.syntaxError(message: batch.messages.count - 1, range, isFatal: isFatal))
    submitIfFull()
  }

  public func processingInstruction(range: TextRange) {
    batch.append(.processingInstruction(range))
    submitIfFull()
  }

  public func markup(range: TextRange, bytes: UnsafeBufferPointer<UInt8>) {
    batch.append(.markup(range, bytes: batch.appendBytes(bytes)))
    submitIfFull()
  }

  private func submitIfFull() {
    guard batch.byteCount >= Self.batchBytes || batch.eventCount >= Self.batchEvents else { return }
    submit()
  }

  private func submit() {
    sparesLock.lock()
    let carrier = spares.popLast() ?? Carrier()
    sparesLock.unlock()
    swap(&carrier.batch, &batch)
    handoff.submit(carrier)
  }

  /// Hands over the last events and waits until the handler has seen them all.
  public func finish() {
    if batch.eventCount > 0 { submit() }
    handoff.finish()
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
  }

  /// Scans the start tag `tag` into `scanned` from `first` on, growing it when needed;
  /// returns where the name ends and the count.
  @inline(__always)
  private func scan(_ tag: UnsafeBufferPointer<UInt8>, contentEnd: Int, from first: Int) -> (
    nameEnd: Int, count: Int
  ) {
    var count = first
    let nameEnd = TagScanner.scan(tag, contentEnd: contentEnd) { attribute in
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
    return (nameEnd, count - first)
  }

  /// Scans the batch's start tags and tells the handler of each ahead of its events
  /// (``XMLEventHandler/upcoming(_:)``): the validator brings the id table's slots into the
  /// caches for a whole batch at once instead of waiting on each in turn.
  private func scanAhead(_ carrier: Carrier) {
    let events = carrier.batch.events
    let handler = self.handler
    var tags = 0
    var attributes = 0
    for index in 0..<carrier.batch.eventCount {
      guard case .unscannedStart(let offset, let range, let contentEnd, let isSelfClosing) = events[index]
      else { continue }
      let tag = carrier.batch.bytes(range)
      let (nameEnd, count) = scan(tag, contentEnd: contentEnd, from: attributes)
      (tagScans + tags).initialize(
        to: TagScan(
          nameEnd: Int32(truncatingIfNeeded: nameEnd), first: Int32(truncatingIfNeeded: attributes),
          count: Int32(truncatingIfNeeded: count)))
      handler.upcoming(
        StartTag(
          bytes: tag, offset: offset, nameEnd: nameEnd,
          attributes: UnsafeBufferPointer(start: scanned + attributes, count: count),
          isSelfClosing: isSelfClosing))
      tags += 1
      attributes += count
    }
  }

  private func replay(_ carrier: Carrier) {
    scanAhead(carrier)
    var tagIndex = 0
    // The attributes are read in place: a copy would keep them from being emptied for reuse.
    let events = carrier.batch.events
    carrier.batch.attributes.withUnsafeBufferPointer { attributes in
      for index in 0..<carrier.batch.eventCount {
        switch events[index] {
        case .start(let offset, let range, let nameEnd, let attributeRange, let isSelfClosing):
          handler.startElement(
            StartTag(
              bytes: carrier.batch.bytes(range), offset: offset, nameEnd: nameEnd,
              attributes: UnsafeBufferPointer(rebasing: attributes[attributeRange]),
              isSelfClosing: isSelfClosing))
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
          handler.comment(range: range, content: carrier.batch.bytes(content))
        case .text(let range): handler.text(range: range)
        case .doctype(let range): handler.doctype(range: range)
        case .syntaxError(let message, let range, let isFatal):
          handler.syntaxError(message: carrier.batch.messages[message], range: range, isFatal: isFatal)
        case .processingInstruction(let range): handler.processingInstruction(range: range)
        case .markup(let range, let markup):
          handler.markup(range: range, bytes: carrier.batch.bytes(markup))
        }
      }
    }
    carrier.batch.clear()
    sparesLock.lock()
    spares.append(carrier)
    sparesLock.unlock()
  }
}
