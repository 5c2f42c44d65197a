import OutlineJSON
import TestSupport
import Testing

/// The test clients' framing (TestSupport's `LSPFraming`) reads what it writes, however the
/// stream is cut, so a client never misses or merges the server's messages.
@Suite struct LSPFramingTests {
  @Test func framesReadBackWhateverPiecesTheStreamArrivesIn() {
    let messages: [JSONValue] = [
      ["jsonrpc": "2.0", "id": 1, "result": .null],
      ["jsonrpc": "2.0", "method": "window/logMessage", "params": ["message": "café \r\n\r\n 中"]],
      ["jsonrpc": "2.0", "id": 2, "result": .array([])],
    ]
    let stream =
      messages.flatMap(LSPFraming.frame)
      + Array("X-Other: 1\r\n\r\ncontent-length: 2\r\n\r\n[]".utf8)
    for piece in 1...7 {
      var reader = LSPFraming.Reader()
      var read: [JSONValue] = []
      for start in stride(from: 0, to: stream.count, by: piece) {
        reader.append(stream[start..<min(start + piece, stream.count)])
        while let message = reader.next() { read.append(message) }
      }
      // A header block without a length is skipped; the field's name is read in any case.
      #expect(read == messages + [[]], "in pieces of \(piece)")
    }
  }
}
