import OutlineCore
import TestSupport
import Testing

@testable import OutlineXML

/// libxml2's 10 MB limits are lifted (XML_PARSE_HUGE), long nodes parse in
/// linear time, and text comes as one run whatever the chunks.
@Suite struct HugeValueTests {
  func events(_ xml: [UInt8], chunkSize: Int = 1 << 20) -> [String] {
    let recorder = Recorder(xml)
    XMLEventParser.parse(xml, handler: recorder, chunkSize: chunkSize)
    return recorder.lines.map { String($0.prefix(60)) }
  }

  @Test func aFiftyMegabyteValueParsesWithoutLibxml2sLimit() {
    let value = [UInt8](repeating: UInt8(ascii: "a"), count: 50_000_000)
    let xml = Array("<r><i t=\"".utf8) + value + Array("\"/><!--".utf8) + value + Array("--></r>".utf8)
    var lines: [String] = []
    let elapsed = ThreadCPU.seconds { lines = events(xml) }
    #expect(lines.count == 5, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("error") })
    #expect(lines[1].hasPrefix("start i tag=<i t=\"aaaa"))
    #expect(lines[3].hasPrefix("comment <!--aaaa"))
    // Quadratic rescans of the unfinished tag took over 10 s here. Compared
    // with a tenth of the input, in this thread's CPU time (other work on the
    // machine does not count): linear work grows about 10 times, quadratic
    // about 100 times.
    let tenth = [UInt8](repeating: UInt8(ascii: "a"), count: 5_000_000)
    let small = Array("<r><i t=\"".utf8) + tenth + Array("\"/><!--".utf8) + tenth + Array("--></r>".utf8)
    let smallElapsed = ThreadCPU.seconds { _ = events(small) }
    #expect(elapsed < max(smallElapsed * 40, 2), "50 MB: \(elapsed) s, 5 MB: \(smallElapsed) s CPU")
  }

  @Test(arguments: [7, 4096, 1 << 20])
  func textComesAsOneRun(chunkSize: Int) {
    let text = String(repeating: "x &amp; y ", count: 300_000)
    let xml = Array("<r>\(text)<![CDATA[z]]> </r>".utf8)
    let lines = Recorder(xml).run(xml, chunkSize: chunkSize)
    let runs = lines.filter { $0.hasPrefix("text ") }
    #expect(runs.count == 1)
    #expect(runs.first == "text \(text)<![CDATA[z]]>")
  }
}

extension Recorder {
  func run(_ xml: [UInt8], chunkSize: Int) -> [String] {
    XMLEventParser.parse(xml, handler: self, chunkSize: chunkSize)
    return lines
  }
}

/// Id lists split at XML's four space characters, a `\r\n` included.
@Suite struct TokenTests {
  @Test func tokensSplitAtEveryXMLSpace() {
    #expect(XMLName.tokens("a b\tc\nd\re\r\nf").map(String.init) == ["a", "b", "c", "d", "e", "f"])
    #expect(XMLName.tokens("  ").isEmpty)
    #expect(XMLName.tokens(" é  x ").map(String.init) == ["é", "x"])
  }
}
