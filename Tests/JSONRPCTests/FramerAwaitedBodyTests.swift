import JSONRPC
import Testing

/// A large body whose header arrives before the rest of it is collected in a
/// buffer of its own and handed out whole; what was read after it stays queued.
@Suite struct FramerAwaitedBodyTests {
  static func frame(_ body: [UInt8]) -> [UInt8] { Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body }

  static func body(_ count: Int, seed: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ seed) }
  }

  /// Feeds `stream` in reads ending at `ends` (the last must be the stream's end); returns every frame's body.
  static func bodies(_ stream: [UInt8], readsEndingAt ends: [Int]) -> [[UInt8]] {
    var framer = MessageFramer()
    var bodies: [[UInt8]] = []
    var offset = 0
    for end in ends {
      framer.append(stream[offset..<end])
      offset = end
      while let frame = framer.next() {
        guard case .message(let body) = frame else {
          Issue.record("bad frame \(frame)")
          return bodies
        }
        bodies.append(body)
      }
    }
    return bodies
  }

  @Test func aLargeBodyFollowedBySmallOnesInItsLastRead() {
    let large = Self.body(300_000, seed: 5)
    let small = Array("{\"id\":2}".utf8)
    let stream = Self.frame(large) + Self.frame(small) + Self.frame(small)
    // The header and a little of the body, most of the body, then its end with both small messages.
    let ends = [30, 200_000, stream.count]
    #expect(Self.bodies(stream, readsEndingAt: ends) == [large, small, small])
  }

  @Test func theNextHeaderSplitAcrossTheBodysLastRead() {
    let large = Self.body(100_000, seed: 9)
    let next = Self.body(70_000, seed: 1)
    let stream = Self.frame(large) + Self.frame(next)
    let bodyEnd = Self.frame(large).count
    // The large body ends in a read that holds half of the next header; the next body is large too.
    let ends = [10, 50_000, bodyEnd + 9, bodyEnd + 40, stream.count]
    #expect(Self.bodies(stream, readsEndingAt: ends) == [large, next])
  }

  @Test func aLargeBodyEndingExactlyWithARead() {
    let large = Self.body(1 << 17, seed: 2)
    let small = Array("{}".utf8)
    let stream = Self.frame(small) + Self.frame(large) + Self.frame(small)
    let largeEnd = Self.frame(small).count + Self.frame(large).count
    let ends = [Self.frame(small).count + 20, largeEnd, stream.count]
    #expect(Self.bodies(stream, readsEndingAt: ends) == [small, large, small])
  }

  @Test func manyMessagesInOneReadAndByteByByte() {
    let bodies = (0..<50).map { Array("{\"n\":\($0)}".utf8) }
    let stream = bodies.flatMap(Self.frame)
    #expect(Self.bodies(stream, readsEndingAt: [stream.count]) == bodies)
    #expect(Self.bodies(stream, readsEndingAt: Array(1...stream.count)) == bodies)
  }

  @Test func badHeaderAfterALargeBodyIsStillReported() {
    let large = Self.body(80_000, seed: 4)
    let stream = Self.frame(large) + Array("Content-Type: x\r\n\r\n".utf8) + Self.frame(Array("{}".utf8))
    var framer = MessageFramer()
    framer.append(stream[0..<1000])
    #expect(framer.next() == nil)
    framer.append(stream[1000...])
    var frames: [MessageFramer.Frame] = []
    while let frame = framer.next() { frames.append(frame) }
    #expect(frames == [.message(large), .badHeader("no Content-Length header"), .message(Array("{}".utf8))])
  }
}
