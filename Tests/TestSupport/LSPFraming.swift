import OutlineJSON

/// The Language Server Protocol's framing (a `Content-Length` header, a blank line, the body)
/// as the test clients speak it, in process and to the binary: written here, apart from the
/// server's own framer, so a test does not read the server's output with the code under test.
public enum LSPFraming {
  /// `body` framed: its `Content-Length` header, the blank line, the body.
  public static func frame(body: [UInt8]) -> [UInt8] {
    Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
  }

  /// `message` serialized and framed.
  public static func frame(_ message: JSONValue) -> [UInt8] {
    frame(body: Array(message.serialized().utf8))
  }

  /// A message body as a value. A deep reply (symbols of a deep chain) stays text, with its
  /// id: a deep value would be released recursively.
  public static func message(_ body: [UInt8]) -> JSONValue {
    if let parsed = try? JSONValue.parse(body, maximumDepth: 64) { return parsed }
    let text = String(decoding: body, as: UTF8.self)
    let id = text.range(of: "\"id\":").map { text[$0.upperBound...].prefix { $0.isNumber } }.flatMap {
      Int($0)
    }
    return ["id": id.map { .int($0) } ?? .null, "raw": .string(text)]
  }

  /// The frames of a byte stream that arrives in pieces, one body at a time.
  public struct Reader {
    private var buffer: [UInt8] = []
    /// Where the next frame starts in `buffer`.
    private var start = 0
    /// How far from `start` no header end was found (a header's end is not searched twice).
    private var searched = 0

    /// A reader that has read nothing.
    public init() {}

    /// Adds the next bytes of the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) { buffer += bytes }

    /// The next message's body; nil until all of it arrived. A header block without a
    /// `Content-Length` (never sent by the server) is skipped.
    public mutating func nextBody() -> [UInt8]? {
      while true {
        guard let headerEnd = headerEnd() else { return nil }
        let bodyStart = headerEnd + 4
        guard let length = Self.contentLength(buffer[start..<headerEnd]) else {
          advance(to: bodyStart)
          continue
        }
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        advance(to: bodyStart + length)
        return body
      }
    }

    /// The next message as a value (see ``LSPFraming/message(_:)``); nil until all of it arrived.
    public mutating func next() -> JSONValue? { nextBody().map(LSPFraming.message) }

    /// Where the blank line after the next header block starts.
    private mutating func headerEnd() -> Int? {
      var index = start + max(0, searched - 3)
      while index + 4 <= buffer.count {
        if buffer[index] == 0x0D && buffer[index + 1] == 0x0A && buffer[index + 2] == 0x0D
          && buffer[index + 3] == 0x0A
        {
          return index
        }
        index += 1
      }
      searched = buffer.count - start
      return nil
    }

    /// The value of the (case-insensitive) `Content-Length` field of a header block.
    private static func contentLength(_ header: ArraySlice<UInt8>) -> Int? {
      for line in String(decoding: header, as: UTF8.self).split(separator: "\r\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
        return Int(String(parts[1].filter { $0 != " " && $0 != "\t" }))
      }
      return nil
    }

    /// Drops what was read before `offset`, compacting the buffer once most of it was read.
    private mutating func advance(to offset: Int) {
      start = offset
      searched = 0
      if start >= buffer.count {
        buffer.removeAll(keepingCapacity: true)
        start = 0
      } else if start > 1 << 16 && start > buffer.count / 2 {
        buffer.removeFirst(start)
        start = 0
      }
    }
  }
}
