import JSONRPC
import Testing

/// Large bodies (a `didOpen` of a big document) arrive in many chunks; the
/// framer hands each over whole, whether it ends the buffer or not.
@Suite struct FramerLargeBodyTests {
  static func frame(_ body: [UInt8]) -> [UInt8] { Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body }

  static func body(_ count: Int, seed: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
  }

  @Test func largeBodiesInChunksComeOutWhole() {
    let small = Array("{\"a\":1}".utf8)
    let large = Self.body(3 << 20, seed: 7)
    let next = Self.body(1 << 17, seed: 3)
    // The large body ends the buffer (taken in place); the next one arrives with a message after it.
    let stream = Self.frame(small) + Self.frame(large) + Self.frame(next) + Self.frame(small)
    var framer = MessageFramer()
    var bodies: [[UInt8]] = []
    var offset = 0
    let ends = [Self.frame(small).count + Self.frame(large).count, stream.count]
    for end in ends {
      while offset < end {
        let chunk = min(offset + (1 << 20), end)
        framer.append(stream[offset..<chunk])
        offset = chunk
        while let frame = framer.next() {
          guard case .message(let body) = frame else {
            Issue.record("bad frame \(frame)")
            return
          }
          bodies.append(body)
        }
      }
    }
    #expect(bodies.count == 4)
    #expect(bodies.map(\.count) == [small.count, large.count, next.count, small.count])
    #expect(bodies == [small, large, next, small])
  }
}
