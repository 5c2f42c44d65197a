import OutlineCore
import Testing

@testable import OutlineXML

/// The pipeline reads start tags where the document's bytes are (a whole document in memory,
/// or the chunks a file is read into) instead of copying them on the parser's thread: its
/// handler must see exactly the events, ranges and bytes it would see directly, wherever the
/// chunks end, and however far back a tag libxml2 held starts.
@Suite struct PipelineInPlaceTests {
  /// Records every event with the bytes the handler was given (not the source's).
  final class BytesRecorder: XMLEventHandler {
    var lines: [String] = []

    func startElement(_ tag: StartTag) {
      var attributes: [String] = []
      for index in 0..<tag.attributes.count {
        let name = String(decoding: tag.name(of: index), as: UTF8.self)
        let value = String(decoding: tag.rawValue(of: index), as: UTF8.self)
        attributes.append("\(name)=\(value)@\(tag.valueRange(of: index).start)")
      }
      let bytes = String(decoding: tag.bytes, as: UTF8.self)
      lines.append(
        "start@\(tag.offset) \(bytes)\(tag.isSelfClosing ? " empty" : "") [\(attributes.joined(separator: " "))]"
      )
    }
    func endElement(range: TextRange?) { lines.append("end \(range.map { "\($0.start)-\($0.end)" } ?? "-")") }
    func comment(range: TextRange, content: ByteView) {
      lines.append("comment@\(range.start) \(String(decoding: content, as: UTF8.self))")
    }
    func text(range: TextRange) { lines.append("text \(range.start)-\(range.end)") }
    func doctype(range: TextRange) { lines.append("doctype \(range.start)") }
    func syntaxError(message: String, range: TextRange, isFatal: Bool) {
      lines.append("error@\(range.start) \(message)")
    }
  }

  /// Items of every kind the pipeline keeps apart: self-closing, with children, with ids,
  /// references, comments, text, and (with `hugeTitle`) one start tag longer than the
  /// chunks a pipeline keeps.
  static func document(items: Int, hugeTitle: Int = 0) -> [UInt8] {
    // A byte order mark and CRLF line ends: ranges stay the file's bytes.
    var xml = "\u{FEFF}<?xml version=\"1.0\"?>\r\n<outline version=\"1\">\r\n<?keep this?>\n"
    for index in 0..<items {
      if index % 97 == 0 { xml += "<!-- comment \(index) é -->\n" }
      if index == items / 2 && hugeTitle > 0 {
        xml += "<Item title=\"\(String(repeating: "long é ", count: hugeTitle / 8))\" order=\"\(index)\"/>\n"
      } else if index % 7 == 0 {
        xml +=
          "<Item title=\"p\(index) &amp; 中文\" order=\"\(index)\">\n<Item title='c' order='0'/>\n</Item>\n"
      } else {
        xml += "<Item xml:id=\"i\(index)\" title=\"t\(index)\" order=\"\(index)\"/>\n"
      }
    }
    return Array((xml + "stray text\n</outline>\n<late/>").utf8)
  }

  static func direct(_ bytes: [UInt8]) -> [String] {
    let recorder = BytesRecorder()
    XMLEventParser.parse(bytes, handler: recorder)
    return recorder.lines
  }

  @Test(arguments: [10, 5_000, 40_000])
  func aDocumentInMemoryIsReadInPlace(items: Int) {
    let bytes = Self.document(items: items, hugeTitle: items > 10 ? 700_000 : 0)
    let recorder = BytesRecorder()
    let pipeline = XMLEventPipeline(handler: recorder)
    bytes.withUnsafeBufferPointer { buffer in
      pipeline.readInPlace(buffer)
      let parser = XMLEventParser(handler: pipeline)
      parser.feed(buffer)
      parser.finish()
      pipeline.finish()
    }
    Self.expectSame(recorder.lines, Self.direct(bytes))
  }

  /// The first line where `lines` and `expected` differ, if any (a whole document's lines
  /// would bury it).
  static func expectSame(_ lines: [String], _ expected: [String]) {
    #expect(lines.count == expected.count)
    if let index = lines.indices.first(where: { $0 < expected.count && lines[$0] != expected[$0] }) {
      Issue.record("event \(index): \(lines[index].prefix(200)) instead of \(expected[index].prefix(200))")
    }
  }

  /// Chunks of every size, from a byte to a full buffer, as short reads make them: tags cut
  /// by a chunk's end, and tags that start more chunks back than the pipeline keeps, are
  /// copied; every other tag is read in its chunk.
  @Test(arguments: [[1, 7, 300], [4096], [100_003, 262_144], [262_144]])
  func chunksOfAFileAreReadInPlace(sizes: [Int]) {
    let bytes = Self.document(items: 20_000, hugeTitle: 1_300_000)
    let recorder = BytesRecorder()
    let pipeline = XMLEventPipeline(handler: recorder)
    let parser = XMLEventParser(handler: pipeline)
    var at = 0
    var turn = 0
    while at < bytes.count {
      let buffer = pipeline.chunkBuffer()
      let count = min(sizes[turn % sizes.count], buffer.count, bytes.count - at)
      turn += 1
      bytes.withUnsafeBufferPointer { buffer.baseAddress!.update(from: $0.baseAddress! + at, count: count) }
      at += count
      parser.feed(pipeline.chunkRead(count))
    }
    _ = pipeline.chunkBuffer()
    #expect(pipeline.chunkRead(0).isEmpty)
    parser.finish()
    pipeline.finish()
    let expected = Self.direct(bytes)
    Self.expectSame(recorder.lines, expected)
    #expect(expected.contains { $0.hasPrefix("start") && $0.count > 1_000_000 })
  }

  /// Tags a chunk or more apart (long text between them) are few to a batch's events, and a
  /// batch keeps the chunks its tags are in: the chunks alive must stay few all the same.
  @Test func tagsFarApartKeepFewChunks() {
    var xml = "<outline version=\"1\">\n"
    for index in 0..<120 {
      xml += "<Item title=\"t\(index)\" order=\"\(index)\">"
      xml += String(repeating: "text between the tags ", count: 12_000) + "</Item>\n"
    }
    let bytes = Array((xml + "</outline>\n").utf8)
    let recorder = BytesRecorder()
    let pipeline = XMLEventPipeline(handler: recorder)
    let parser = XMLEventParser(handler: pipeline)
    var at = 0
    while at < bytes.count {
      let buffer = pipeline.chunkBuffer()
      let count = min(buffer.count, bytes.count - at)
      bytes.withUnsafeBufferPointer { buffer.baseAddress!.update(from: $0.baseAddress! + at, count: count) }
      at += count
      parser.feed(pipeline.chunkRead(count))
    }
    parser.finish()
    pipeline.finish()
    Self.expectSame(recorder.lines, Self.direct(bytes))
    #expect(bytes.count / (1 << 18) > 100)
    #expect(pipeline.chunksAllocated <= 40)
  }

  /// Released chunk memory is reused oldest first, and only once the pool's reserve waits
  /// behind it: the chunk the consumer released last stays out of the parser's reads.
  @Test func chunksAreReusedOldestFirstBehindAReserve() {
    let pool = ChunkPool()
    let taken = (0..<(ChunkPool.reserve + 2)).map { _ in pool.take() }
    #expect(pool.allocated == ChunkPool.reserve + 2)
    for memory in taken { pool.put(memory) }
    #expect(pool.take() == taken[0])
    #expect(pool.take() == taken[1])
    // The reserve is all that waits now: the next take allocates.
    let fresh = pool.take()
    #expect(!taken.contains(fresh))
    #expect(pool.allocated == ChunkPool.reserve + 3)
    pool.put(fresh)
    pool.put(taken[0])
    pool.put(taken[1])
  }
}
