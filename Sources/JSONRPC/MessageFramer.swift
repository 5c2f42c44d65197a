/// Splits a byte stream into JSON-RPC message bodies framed by LSP's
/// `Content-Length` headers (base protocol). Bytes may arrive in any chunks.
public struct MessageFramer {
  /// What the stream held next.
  public enum Frame: Equatable {
    /// A complete message body.
    case message([UInt8])
    /// A header block that cannot be used; the framer skipped it.
    case badHeader(String)
  }

  /// The largest body accepted (the body is skipped past this).
  public var maximumBodyLength = 1 << 30
  private var buffer: [UInt8] = []
  private var start = 0
  /// The length of the large body arriving at the start of `buffer`, a
  /// buffer of its own, once its header has been read.
  private var awaitedBody: Int?

  /// An empty framer.
  public init() {}

  /// Adds bytes from the stream.
  public mutating func append(_ bytes: some Sequence<UInt8>) { buffer += bytes }

  /// The next frame, or nil when more bytes are needed.
  public mutating func next() -> Frame? {
    if let length = awaitedBody {
      guard buffer.count >= length else { return nil }
      awaitedBody = nil
      return .message(takeBody(length))
    }
    guard let headerEnd = find([0x0D, 0x0A, 0x0D, 0x0A]) else {
      if buffer.count - start > 64 * 1024 {
        // No header ends within 64 KiB: garbage; drop it.
        start = buffer.count
        compact()
        return .badHeader("no header block ends within 64 KiB")
      }
      return nil
    }
    let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
    let bodyStart = headerEnd + 4
    var length: Int?
    var problem: String?
    var malformed: Substring?
    for line in header.split(separator: "\r\n", omittingEmptySubsequences: true) {
      guard let colon = line.firstIndex(of: ":") else {
        // Skipped like a header nobody knows, so the body still goes with its length.
        malformed = malformed ?? line
        continue
      }
      let name = line[..<colon].trimmingCharacters()
      let value = line[line.index(after: colon)...].trimmingCharacters()
      if name.lowercased() == "content-length" {
        if let parsed = Int(value), parsed >= 0 {
          if let length, length != parsed {
            problem = "Content-Length given twice, as \(length) and \(parsed)"
          }
          length = parsed
        } else {
          problem = "Content-Length '\(value.prefix(40))' is not a length"
        }
      }
    }
    if problem == nil && length == nil {
      problem =
        malformed.map { "no Content-Length header (malformed line '\($0.prefix(80))')" }
        ?? "no Content-Length header"
    }
    if let problem {
      start = resumption(from: start, to: headerEnd) ?? bodyStart
      compact()
      return .badHeader(problem)
    }
    let bodyLength = length!
    if bodyLength > maximumBodyLength {
      // A length no client sends: treat what follows as the next header, not as a body.
      start = bodyStart
      compact()
      return .badHeader("Content-Length \(bodyLength) is larger than \(maximumBodyLength)")
    }
    guard buffer.count - bodyStart >= bodyLength else {
      guard bodyLength >= 1 << 16 else { return nil }
      // A large body arrives in a buffer of its own, sized for it, which is
      // handed out whole at the end: a document of a hundred megabytes is
      // neither copied as the buffer grows nor moved once it has arrived.
      var body: [UInt8] = []
      body.reserveCapacity(min(bodyLength, 1 << 28))
      body.append(contentsOf: buffer[bodyStart...])
      buffer = body
      start = 0
      awaitedBody = bodyLength
      return nil
    }
    if bodyStart + bodyLength == buffer.count && bodyLength >= 1 << 16 {
      // A large body that ends the buffer: the buffer becomes the body, moved
      // in place instead of copied to new pages.
      var body: [UInt8] = []
      swap(&body, &buffer)
      body.removeFirst(bodyStart)
      start = 0
      return .message(body)
    }
    let body = Array(buffer[bodyStart..<bodyStart + bodyLength])
    start = bodyStart + bodyLength
    compact()
    return .message(body)
  }

  /// Where reading resumes after the header block `start..<end` that could not be read: at a
  /// `Content-Length` inside one of its lines, not starting it (the rest of a body that went
  /// astray, then a real header), else nil (after the block).
  private func resumption(from start: Int, to end: Int) -> Int? {
    let name = Array("content-length:".utf8)
    var index = end - name.count
    while index > start {
      var matched = true
      for offset in 0..<name.count {
        let byte = buffer[index + offset]
        if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != name[offset] {
          matched = false
          break
        }
      }
      if matched && buffer[index - 1] != 0x0A { return index }
      index -= 1
    }
    return nil
  }

  /// The first `length` bytes of the buffer, which holds nothing before
  /// them, as a body; the buffer keeps the bytes after them.
  private mutating func takeBody(_ length: Int) -> [UInt8] {
    var body: [UInt8] = []
    swap(&body, &buffer)
    if body.count > length {
      // The next messages' first bytes, read with the body's last: at most a read's worth.
      buffer = Array(body[length...])
      body.removeLast(body.count - length)
    }
    start = 0
    return body
  }

  private func find(_ needle: [UInt8]) -> Int? {
    guard buffer.count - start >= needle.count else { return nil }
    var index = start
    while index + needle.count <= buffer.count {
      if buffer[index] == needle[0] && buffer[index..<index + needle.count].elementsEqual(needle) {
        return index
      }
      index += 1
    }
    return nil
  }

  private mutating func compact() {
    if start > 1 << 16 || start == buffer.count {
      buffer.removeFirst(start)
      start = 0
    }
  }
}

extension Substring {
  fileprivate func trimmingCharacters() -> String {
    var slice = self
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
    return String(slice)
  }
}
