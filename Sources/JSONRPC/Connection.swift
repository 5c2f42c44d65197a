import Foundation
import OutlineJSON

/// A JSON-RPC connection over two file descriptors (the server's stdin and stdout).
///
/// Reading happens on a thread of its own; every message is handed to the
/// handler in the order it arrived. Sending is serialized, so replies from
/// several threads never interleave.
public final class Connection: @unchecked Sendable {
  private let input: Int32
  private let output: Int32
  private let lock = NSLock()

  /// A connection reading `input` and writing `output`.
  public init(input: Int32 = 0, output: Int32 = 1) {
    self.input = input
    self.output = output
    #if os(Linux)
      // Pipes of 1 MiB instead of 64 KiB: a document or a result of a
      // hundred megabytes crosses in a sixteenth of the wake-ups. Not a
      // pipe, or not allowed: nothing changes.
      let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which the C library's module leaves out
      _ = fcntl(input, setPipeSize, Int32(1 << 20))
      _ = fcntl(output, setPipeSize, Int32(1 << 20))
    #endif
  }

  /// Reads until end of input, calling `handler` with each message (and
  /// `onBadFrame` with each unusable header block); returns at end of input.
  public func run(handler: (Message) -> Void, onBadFrame: (String) -> Void) {
    var framer = MessageFramer()
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return }
      framer.append(chunk[0..<count])
      while let frame = framer.next() {
        switch frame {
        case .message(let body): handler(Message.decode(body))
        case .badHeader(let problem): onBadFrame(problem)
        }
      }
    }
  }

  /// Sends a result.
  public func reply(to id: JSONValue, result: JSONValue) {
    send(["jsonrpc": "2.0", "id": id, "result": result])
  }

  /// Sends an error reply.
  public func reply(to id: JSONValue, error: ResponseError) {
    send([
      "jsonrpc": "2.0", "id": id, "error": ["code": .int(error.code), "message": .string(error.message)],
    ])
  }

  /// Sends a notification.
  public func notify(_ method: String, _ params: JSONValue) {
    send(["jsonrpc": "2.0", "method": .string(method), "params": params])
  }

  /// Sends a request the server makes (its reply arrives as a `.response`).
  public func request(id: Int, _ method: String, _ params: JSONValue) {
    send(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
  }

  /// Frames and writes one message.
  public func send(_ message: JSONValue) {
    // A large raw result is written from where it is, not copied into the message.
    let pieces = message.serializedPieces()
    let length = pieces.reduce(0) { $0 + $1.count }
    let header = Array("Content-Length: \(length)\r\n\r\n".utf8)
    lock.lock()
    defer { lock.unlock() }
    guard writeAll(header) else { return }
    for piece in pieces where !piece.isEmpty {
      guard writeAll(piece) else { return }
    }
  }

  /// Writes every byte (through interruptions); false when the output failed.
  private func writeAll(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(output, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += written
      }
      return true
    }
  }
}
