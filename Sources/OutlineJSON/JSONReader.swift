import OutlineCore

/// One token of a JSON text, with its byte range.
public enum JSONEvent: Equatable, Sendable {
  case objectStart, objectEnd, arrayStart, arrayEnd
  /// An object key.
  case key(String)
  /// A string value.
  case string(String)
  /// A number, with its digits exactly as written.
  case number(String)
  case bool(Bool)
  case null
}

/// A JSON syntax error with its offset.
public struct JSONSyntaxError: Error, Equatable, Sendable {
  /// What is wrong.
  public var message: String
  /// Where, as a UTF-8 offset.
  public var offset: Int
}

/// A pull reader of JSON (RFC 8259) over bytes: no recursion, no depth limit,
/// exact ranges, numbers kept as written.
public struct JSONReader {
  private let storage: ByteBuffer
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var discarded = 0
  private enum Container { case object, array }
  private var containers: [Container] = []
  private enum Expect { case value, keyOrEnd, key, colon, commaOrEnd, valueOrEnd, done }
  private var expect: Expect = .value
  /// The range of the last event returned.
  public private(set) var range = TextRange(at: 0)
  /// How deep the reader is (objects and arrays open).
  public var depth: Int { containers.count }

  /// A reader over a copy of `bytes` (a UTF-8 BOM is skipped).
  public init(_ bytes: [UInt8]) {
    self.init(ByteBuffer(copying: bytes))
  }

  /// A reader over `storage`, handing back pages it has passed (a UTF-8 BOM is skipped).
  public init(_ storage: ByteBuffer) {
    self.storage = storage
    bytes = storage.buffer
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  private mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(message: message, offset: offset ?? index)
  }

  /// The next event, or nil at the end of a complete text.
  public mutating func next() throws(JSONSyntaxError) -> JSONEvent? {
    if index - discarded > 1 << 23 {
      discarded = index - (1 << 16)
      storage.discard(upTo: discarded)
    }
    skipSpace()
    if expect == .done {
      if index < bytes.count { throw fail("Unexpected text after the JSON value") }
      return nil
    }
    guard index < bytes.count else { throw fail("Unexpected end of the JSON text") }
    let start = index
    let byte = bytes[index]
    switch expect {
    case .colon:
      guard byte == UInt8(ascii: ":") else { throw fail("Expected ':' after the key") }
      index += 1
      expect = .value
      return try next()
    case .commaOrEnd:
      if byte == UInt8(ascii: ",") {
        index += 1
        expect = containers.last == .object ? .key : .value
        return try next()
      }
      return try closeContainer(byte, start: start)
    case .keyOrEnd, .key:
      if expect == .keyOrEnd && byte == UInt8(ascii: "}") { return try closeContainer(byte, start: start) }
      guard byte == UInt8(ascii: "\"") else { throw fail("Expected a string key") }
      let key = try readString()
      range = TextRange(start: start, end: index)
      expect = .colon
      return .key(key)
    case .valueOrEnd:
      if byte == UInt8(ascii: "]") { return try closeContainer(byte, start: start) }
      return try readValue(start: start)
    case .value:
      return try readValue(start: start)
    case .done:
      return nil
    }
  }

  private mutating func closeContainer(_ byte: UInt8, start: Int) throws(JSONSyntaxError) -> JSONEvent {
    let container = containers.last
    if byte == UInt8(ascii: "}") && container == .object || byte == UInt8(ascii: "]") && container == .array {
      index += 1
      containers.removeLast()
      range = TextRange(start: start, end: index)
      afterValue()
      return container == .object ? .objectEnd : .arrayEnd
    }
    throw fail(container == .object ? "Expected ',' or '}'" : "Expected ',' or ']'")
  }

  private mutating func afterValue() {
    expect = containers.isEmpty ? .done : .commaOrEnd
  }

  private mutating func readValue(start: Int) throws(JSONSyntaxError) -> JSONEvent {
    let byte = bytes[index]
    let event: JSONEvent
    switch byte {
    case UInt8(ascii: "{"):
      open(.object, start: start)
      return .objectStart
    case UInt8(ascii: "["):
      open(.array, start: start)
      return .arrayStart
    case UInt8(ascii: "\""):
      event = .string(try readString())
    case UInt8(ascii: "t"):
      try literal("true")
      event = .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      event = .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      event = .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      event = .number(try readNumber())
    default:
      throw fail("Unexpected character '\(Character(Unicode.Scalar(byte)))'")
    }
    range = TextRange(start: start, end: index)
    afterValue()
    return event
  }

  private mutating func open(_ container: Container, start: Int) {
    index += 1
    containers.append(container)
    expect = container == .object ? .keyOrEnd : .valueOrEnd
    range = TextRange(start: start, end: index)
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      bytes[index..<index + count].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
    else { throw fail("Invalid literal") }
    index += count
  }

  private mutating func readNumber() throws(JSONSyntaxError) -> String {
    let start = index
    func digits() -> Int {
      let from = index
      while index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
      return index - from
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    guard integerDigits > 0 else { throw fail("Invalid number") }
    if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
      throw fail("Numbers have no leading zeros", at: integerStart)
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw fail("Invalid number: digits must follow '.'") }
    }
    if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
      index += 1
      if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
        index += 1
      }
      guard digits() > 0 else { throw fail("Invalid number: digits must follow the exponent") }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Reads the string at `index` (on its quote). A string without escapes
  /// is made from its bytes; one with escapes is decoded in one pass straight
  /// into the string's own storage (decoding never makes text longer), so a
  /// 100 MB document in a `didOpen` is copied once, not through a buffer.
  private mutating func readString() throws(JSONSyntaxError) -> String {
    let open = index
    let start = index + 1
    let count = bytes.count
    guard let base = bytes.baseAddress else { throw fail("Unterminated string", at: open) }
    // Fast path: no escapes.
    let cursor = Self.plainRun(base, from: start, to: count)
    guard cursor < count else { throw fail("Unterminated string", at: open) }
    if base[cursor] == UInt8(ascii: "\"") {
      index = cursor + 1
      return String(decoding: UnsafeBufferPointer(start: base + start, count: cursor - start), as: UTF8.self)
    }
    if base[cursor] < 0x20 { throw fail("Control character in a string", at: cursor) }
    // The end is the first quote that no backslash escapes.
    var scan = cursor
    while true {
      scan = Self.plainRun(base, from: scan, to: count)
      guard scan < count, base[scan] != UInt8(ascii: "\"") else { break }
      scan += base[scan] == UInt8(ascii: "\\") ? 2 : 1
    }
    guard scan < count else { throw fail("Unterminated string", at: open) }
    // Constants from here on: the closure below captures them by value.
    let end = scan
    let escapesFrom = cursor
    var failure: JSONSyntaxError?
    let text = String(unsafeUninitializedCapacity: end - start) { out -> Int in
      let target = out.baseAddress!
      var written = escapesFrom - start
      target.initialize(from: base + start, count: written)
      var at = escapesFrom
      while at < end {
        // Copy the run up to the next backslash or control character whole.
        let runEnd = Self.plainRun(base, from: at, to: end)
        (target + written).initialize(from: base + at, count: runEnd - at)
        written += runEnd - at
        at = runEnd
        guard at < end else { break }
        if base[at] != UInt8(ascii: "\\") {
          failure = JSONSyntaxError(message: "Control character in a string", offset: at)
          return 0
        }
        // The end scan stepped over every escape, so its letter lies before `end`.
        let escape = base[at + 1]
        at += 2
        let simple: UInt8?
        switch escape {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
          failure = JSONSyntaxError(
            message: "Invalid escape '\\\(Character(Unicode.Scalar(escape)))'", offset: at - 2)
          return 0
        }
        if let simple {
          target[written] = simple
          written += 1
          continue
        }
        guard var scalar = Self.hex4(base, at, end) else {
          failure = JSONSyntaxError(message: "Invalid \\u escape", offset: at)
          return 0
        }
        at += 4
        if (0xD800..<0xDC00).contains(scalar), at + 1 < end, base[at] == UInt8(ascii: "\\"),
          base[at + 1] == UInt8(ascii: "u")
        {
          at += 2
          guard let low = Self.hex4(base, at, end), (0xDC00..<0xE000).contains(low) else {
            failure = JSONSyntaxError(message: "Invalid surrogate pair", offset: at)
            return 0
          }
          at += 4
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let value = Unicode.Scalar(scalar) else {
          failure = JSONSyntaxError(message: "Invalid \\u escape (lone surrogate)", offset: at)
          return 0
        }
        for unit in UTF8.encode(value)! {
          target[written] = unit
          written += 1
        }
      }
      return written
    }
    if let failure { throw failure }
    index = end + 1
    return text
  }

  /// The first offset in `from..<to` holding a quote, a backslash or a
  /// control character, or `to`: eight bytes at a time while none of them is
  /// one (the usual SWAR tests for a byte equal to, or below, a value).
  @inline(__always)
  private static func plainRun(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    var at = from
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while at + 8 <= to {
      let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let special =
        ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
      if special & highs != 0 { break }
      at += 8
    }
    while at < to {
      let byte = base[at]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return at }
      at += 1
    }
    return at
  }

  /// The four hex digits at `at` (before `end`) as a number, or nil.
  private static func hex4(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> UInt32? {
    guard at + 4 <= end else { return nil }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = base[at + offset]
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: return nil
      }
      value = value << 4 | digit
    }
    return value
  }

}
