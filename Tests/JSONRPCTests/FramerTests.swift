import JSONRPC
import OutlineJSON
import Testing

@Suite struct FramerTests {
  static func frame(_ body: String) -> [UInt8] {
    Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
  }

  @Test(arguments: [1, 2, 3, 5, 7, 16, 1000])
  func messagesSurviveAnyChunking(chunk: Int) {
    let stream = Self.frame("{\"a\":1}") + Self.frame("{\"b\":\"é😀\"}") + Self.frame("{}")
    var framer = MessageFramer()
    var bodies: [String] = []
    var index = 0
    while index < stream.count {
      framer.append(stream[index..<min(index + chunk, stream.count)])
      index += chunk
      while let frame = framer.next() {
        if case .message(let body) = frame { bodies.append(String(decoding: body, as: UTF8.self)) }
      }
    }
    #expect(bodies == ["{\"a\":1}", "{\"b\":\"é😀\"}", "{}"])
  }

  @Test func badHeadersAreReportedAndSkipped() {
    var framer = MessageFramer()
    framer.append(Array("Content-Type: x\r\n\r\n".utf8))
    framer.append(Array("Content-Length: -1\r\n\r\n".utf8))
    framer.append(Array("Content-Length: 1099511627776\r\n\r\n".utf8))
    framer.append(Array("content-length: 2\r\nContent-Length: 3\r\n\r\n".utf8))
    framer.append(Self.frame("{}"))
    var problems: [String] = []
    var messages = 0
    while let frame = framer.next() {
      switch frame {
      case .badHeader(let problem): problems.append(problem)
      case .message: messages += 1
      }
    }
    #expect(problems.count == 4)
    #expect(problems[0] == "no Content-Length header")
    #expect(problems[2].contains("larger than"))
    #expect(problems[3] == "Content-Length given twice, as 2 and 3")
    #expect(messages == 1)
  }

  /// A header line without a colon is skipped like an unknown header, and the same length given
  /// twice is one length: the body still goes with it. A body whose header was lost (glued to
  /// the next header) costs only itself: reading resumes at the `Content-Length` after it.
  @Test func framingRecoversFromBadHeaderLines() {
    var framer = MessageFramer()
    framer.append(Array("X-Trace\r\n".utf8) + Self.frame("{\"a\":1}"))
    framer.append(Array("Content-Length: 7\r\ncontent-length: 7\r\n\r\n{\"b\":2}".utf8))
    framer.append(Array("{\"lost\":true}".utf8) + Self.frame("{\"c\":3}"))
    framer.append(Self.frame("{\"d\":4}"))
    var bodies: [String] = []
    var problems: [String] = []
    while let frame = framer.next() {
      switch frame {
      case .badHeader(let problem): problems.append(problem)
      case .message(let body): bodies.append(String(decoding: body, as: UTF8.self))
      }
    }
    #expect(bodies == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}", "{\"d\":4}"])
    #expect(problems == ["no Content-Length header"], "\(problems)")
  }

  @Test func decodeClassifiesMessages() {
    func decode(_ text: String) -> Message { Message.decode(Array(text.utf8)) }
    if case .request(let id, let method, _) = decode(#"{"jsonrpc":"2.0","id":"x","method":"m"}"#) {
      #expect(id == "x" && method == "m")
    } else {
      Issue.record("not a request")
    }
    if case .notification(let method, _) = decode(#"{"jsonrpc":"2.0","method":"n","params":{}}"#) {
      #expect(method == "n")
    } else {
      Issue.record("not a notification")
    }
    for (text, code) in [
      ("{", -32700), ("[1]", -32600), ("1", -32600), (#"{"method":3}"#, -32600), ("{}", -32600),
    ] {
      if case .invalid(let error, let id) = decode(text) {
        #expect(error.code == code, "\(text)")
        #expect(id == .null, "\(text)")
      } else {
        Issue.record("\(text) was accepted")
      }
    }
    // A request whose id can be read is answered to that id, even when it is invalid.
    if case .invalid(let error, let id) = decode(#"{"jsonrpc":"2.0","id":77,"method":5}"#) {
      #expect(error.code == -32600 && id == .int(77))
    } else {
      Issue.record("a method that is not a string was accepted")
    }
    if case .response = decode(#"{"jsonrpc":"2.0","id":1,"result":null}"#) {
    } else {
      Issue.record("not a response")
    }
    // Nesting is bounded: no stack is exhausted by a hostile body.
    let deep = String(repeating: "[", count: 100_000)
    if case .invalid(let error, _) = decode(deep) {
      #expect(error.code == -32700)
    } else {
      Issue.record("deep accepted")
    }
  }
}
