import OutlineCore
import OutlineXML
import Testing

/// Records the start tags the pipeline announces ahead (`upcoming`) beside the events
/// themselves, to check each tag with an `xml:id` is announced, as it will be reported,
/// before its start, and no other.
private final class AnnouncementRecorder: XMLEventHandler {
  let recorder: Recorder
  var announced: [String] = []
  var starts = 0
  /// Starts that arrived before their tag was announced.
  var unannounced = 0

  init(_ source: [UInt8]) { recorder = Recorder(source) }

  func upcoming(_ tag: StartTag) {
    let before = recorder.lines.count
    recorder.startElement(tag)
    announced.append(recorder.lines.removeLast())
    #expect(recorder.lines.count == before)
  }

  func startElement(_ tag: StartTag) {
    recorder.startElement(tag)
    guard tag.index(of: "xml:id") != nil else { return }
    starts += 1
    if starts > announced.count { unannounced += 1 }
  }
  func endElement(range: TextRange?) { recorder.endElement(range: range) }
  func comment(range: TextRange, content: ByteView) {
    recorder.comment(range: range, content: content)
  }
  func text(range: TextRange) { recorder.text(range: range) }
  func doctype(range: TextRange) { recorder.doctype(range: range) }
  func syntaxError(message: String, range: TextRange, isFatal: Bool) {
    recorder.syntaxError(message: message, range: range, isFatal: isFatal)
  }
}

@Suite struct UpcomingTagTests {
  /// Enough items for many of the pipeline's batches, with ids, references and comments.
  static func document(items: Int) -> [UInt8] {
    var text = "<?xml version=\"1.0\"?>\n<outline version=\"1\">\n"
    for index in 0..<items {
      let id = index % 3 == 0 ? " xml:id=\"i\(index)\"" : ""
      if index % 50 == 0 {
        text +=
          "  <Item title=\"group &amp; \(index)\" order=\"\(index)\"\(id)>\n    <!-- note \(index) -->\n"
        text += "    <Item title='inner' order=\"0\"/>\n  </Item>\n"
      } else {
        text += "  <Item\(id) title=\"item \(index)\" order=\"\(index)\"/>\n"
      }
    }
    return Array((text + "</outline>\n").utf8)
  }

  @Test(arguments: [1, 3_000, 20_000])
  func pipelineAnnouncesEachStartTagBeforeItsEvents(items: Int) {
    let bytes = Self.document(items: items)
    let handler = AnnouncementRecorder(bytes)
    let pipeline = XMLEventPipeline(handler: handler)
    XMLEventParser.parse(bytes, handler: pipeline)
    pipeline.finish()
    let starts = handler.recorder.lines.filter { $0.hasPrefix("start ") }
    #expect(starts.count == items + items / 50 + (items % 50 == 0 ? 0 : 1) + 1)
    let withIDs = starts.filter { $0.contains("xml:id=") }
    #expect(withIDs.count == (items + 2) / 3)
    #expect(handler.announced == withIDs)
    #expect(handler.unannounced == 0)
  }

  @Test func directParsingAnnouncesNothing() {
    let bytes = Self.document(items: 100)
    let handler = AnnouncementRecorder(bytes)
    XMLEventParser.parse(bytes, handler: handler)
    #expect(handler.announced.isEmpty)
    #expect(handler.recorder.lines.contains { $0.hasPrefix("start Item") })
  }

  @Test func teeAnnouncesToBothHandlers() {
    let bytes = Self.document(items: 200)
    let first = AnnouncementRecorder(bytes)
    let second = AnnouncementRecorder(bytes)
    let pipeline = XMLEventPipeline(handler: XMLEventTee(first, second))
    XMLEventParser.parse(bytes, handler: pipeline)
    pipeline.finish()
    #expect(first.announced.count == 67)
    #expect(first.announced == second.announced)
    #expect(first.recorder.lines == second.recorder.lines)
  }
}
