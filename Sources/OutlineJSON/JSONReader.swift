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

/// One token as bytes: what it is and where, nothing decoded. Readers on a
/// hot path compare and copy the bytes (``JSONReader/contents(of:)``) and
/// decode a string only when they need one (``JSONReader/string(_:)``).
public struct JSONToken: Equatable, Sendable {
  public enum Kind: UInt8, Sendable {
    case objectStart, objectEnd, arrayStart, arrayEnd, key, string, number, `true`, `false`, null
  }
  /// What the token is.
  public var kind: Kind
  /// Its bytes: a key's or a string's with the quotes.
  public var range: TextRange
  /// Whether a key or string holds a backslash escape (already checked to be valid).
  public var hasEscapes: Bool
}

/// A JSON syntax error with its offset.
public struct JSONSyntaxError: Error, Equatable, Sendable {
  /// What is wrong.
  public var message: String
  /// Where, as a UTF-8 offset.
  public var offset: Int

  public init(message: String, offset: Int) {
    self.message = message
    self.offset = offset
  }
}

/// A pull reader of JSON (RFC 8259) over bytes: no recursion, no depth limit,
/// exact ranges, numbers kept as written.
///
/// ``nextToken()`` checks the whole syntax, escapes included, and hands out
/// byte ranges; ``next()`` also decodes keys, strings and numbers into
/// `String`s. A token's bytes stay readable until the next call.
public struct JSONReader {
  private let storage: ByteBuffer
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  private var discarded = 0
  private enum Container { case object, array }
  private var containers: [Container] = []
  enum Expect { case value, keyOrEnd, key, colon, commaOrEnd, valueOrEnd, done }
  var expect: Expect = .value
  /// The range of the last event returned.
  public internal(set) var range = TextRange(at: 0)
  /// How deep the reader is (objects and arrays open).
  public var depth: Int { containers.count }

  /// A reader over a copy of `bytes` (a UTF-8 BOM is skipped).
  public init(_ bytes: [UInt8]) {
    self.init(ByteBuffer(copying: bytes))
  }

  /// A reader over `storage`, handing back pages it has passed (a UTF-8 BOM is skipped).
  public init(_ storage: ByteBuffer) {
    self.storage = storage
    bytes = storage.unsafeBuffer
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  mutating func skipSpace() {
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
    guard let token = try nextToken() else { return nil }
    switch token.kind {
    case .objectStart: return .objectStart
    case .objectEnd: return .objectEnd
    case .arrayStart: return .arrayStart
    case .arrayEnd: return .arrayEnd
    case .key: return .key(string(token))
    case .string: return .string(string(token))
    case .number: return .number(String(decoding: contents(of: token), as: UTF8.self))
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .null: return .null
    }
  }

  /// The next token, or nil at the end of a complete text.
  public mutating func nextToken() throws(JSONSyntaxError) -> JSONToken? {
    if index - discarded > 1 << 23 {
      discarded = index - (1 << 16)
      storage.discard(upTo: discarded)
    }
    while true {
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
      case .commaOrEnd:
        if byte == UInt8(ascii: ",") {
          index += 1
          expect = containers.last == .object ? .key : .value
          continue
        }
        return try closeContainer(byte, start: start)
      case .keyOrEnd, .key:
        if expect == .keyOrEnd && byte == UInt8(ascii: "}") { return try closeContainer(byte, start: start) }
        guard byte == UInt8(ascii: "\"") else { throw fail("Expected a string key") }
        let escaped = try scanString()
        range = TextRange(start: start, end: index)
        expect = .colon
        return JSONToken(kind: .key, range: range, hasEscapes: escaped)
      case .valueOrEnd:
        if byte == UInt8(ascii: "]") { return try closeContainer(byte, start: start) }
        return try readValue(start: start)
      case .value:
        return try readValue(start: start)
      case .done:
        return nil
      }
    }
  }

  /// Steps over the rest of the object or array whose start was the last
  /// token, without checking what it holds (a reader looking for one key
  /// of the root, say): strings are stepped over eight bytes at a time. A
  /// text cut short leaves the container open, so the next call fails.
  public mutating func skipContainer() {
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    var depth = 1
    var at = index
    while at < count {
      switch base[at] {
      case UInt8(ascii: "\""):
        at += 1
        while true {
          at = Self.plainRun(base, from: at, to: count)
          guard at < count else { break }
          if base[at] == UInt8(ascii: "\"") {
            at += 1
            break
          }
          at += base[at] == UInt8(ascii: "\\") ? 2 : 1
        }
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        at += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
        at += 1
        if depth == 0 {
          index = at
          containers.removeLast()
          range = TextRange(start: at - 1, end: at)
          afterValue()
          return
        }
      default:
        at += 1
      }
    }
    index = count
  }

  /// A key's or string's bytes between the quotes (escapes as written), or a number's digits.
  public func contents(of token: JSONToken) -> UnsafeBufferPointer<UInt8> {
    switch token.kind {
    case .key, .string:
      return UnsafeBufferPointer(rebasing: bytes[token.range.start + 1..<token.range.end - 1])
    default:
      return UnsafeBufferPointer(rebasing: bytes[token.range.start..<token.range.end])
    }
  }

  /// A key or string, decoded.
  public func string(_ token: JSONToken) -> String {
    let raw = contents(of: token)
    guard token.hasEscapes else { return String(decoding: raw, as: UTF8.self) }
    return Self.decode(raw)
  }

  private mutating func closeContainer(_ byte: UInt8, start: Int) throws(JSONSyntaxError) -> JSONToken {
    let container = containers.last
    if byte == UInt8(ascii: "}") && container == .object || byte == UInt8(ascii: "]") && container == .array {
      index += 1
      containers.removeLast()
      range = TextRange(start: start, end: index)
      afterValue()
      return JSONToken(kind: container == .object ? .objectEnd : .arrayEnd, range: range, hasEscapes: false)
    }
    throw fail(container == .object ? "Expected ',' or '}'" : "Expected ',' or ']'")
  }

  mutating func afterValue() {
    expect = containers.isEmpty ? .done : .commaOrEnd
  }

  private mutating func readValue(start: Int) throws(JSONSyntaxError) -> JSONToken {
    let byte = bytes[index]
    var escaped = false
    let kind: JSONToken.Kind
    switch byte {
    case UInt8(ascii: "{"):
      open(.object, start: start)
      return JSONToken(kind: .objectStart, range: range, hasEscapes: false)
    case UInt8(ascii: "["):
      open(.array, start: start)
      return JSONToken(kind: .arrayStart, range: range, hasEscapes: false)
    case UInt8(ascii: "\""):
      escaped = try scanString()
      kind = .string
    case UInt8(ascii: "t"):
      try literal("true")
      kind = .true
    case UInt8(ascii: "f"):
      try literal("false")
      kind = .false
    case UInt8(ascii: "n"):
      try literal("null")
      kind = .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try scanNumber()
      kind = .number
    default:
      throw fail("Unexpected character \(Excerpt.quoted(String(Character(Unicode.Scalar(byte)))))")
    }
    range = TextRange(start: start, end: index)
    afterValue()
    return JSONToken(kind: kind, range: range, hasEscapes: escaped)
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

  private mutating func scanNumber() throws(JSONSyntaxError) {
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
  }

  /// Steps over the string at `index` (on its quote), checking every escape,
  /// and tells whether it has any. Plain runs go eight bytes at a time.
  private mutating func scanString() throws(JSONSyntaxError) -> Bool {
    let open = index
    let count = bytes.count
    guard let base = bytes.baseAddress else { throw fail("Unterminated string", at: open) }
    var at = index + 1
    var escaped = false
    while true {
      at = Self.plainRun(base, from: at, to: count)
      guard at < count else { throw fail("Unterminated string", at: open) }
      let byte = base[at]
      if byte == UInt8(ascii: "\"") { break }
      if byte < 0x20 { throw fail("Control character in a string", at: at) }
      // A backslash.
      escaped = true
      guard at + 1 < count else { throw fail("Unterminated string", at: open) }
      switch base[at + 1] {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
        at += 2
      case UInt8(ascii: "u"):
        guard let scalar = Self.hex4(base, at + 2, count) else {
          throw fail("Invalid \\u escape", at: at + 2)
        }
        at += 6
        if (0xD800..<0xDC00).contains(scalar) {
          guard at + 1 < count, base[at] == UInt8(ascii: "\\"), base[at + 1] == UInt8(ascii: "u") else {
            throw fail("Invalid \\u escape (lone surrogate)", at: at)
          }
          guard let low = Self.hex4(base, at + 2, count), (0xDC00..<0xE000).contains(low) else {
            throw fail("Invalid surrogate pair", at: at + 2)
          }
          at += 6
        } else if (0xDC00..<0xE000).contains(scalar) {
          throw fail("Invalid \\u escape (lone surrogate)", at: at)
        }
      default:
        throw fail("Invalid escape '\\\(Character(Unicode.Scalar(base[at + 1])))'", at: at)
      }
    }
    index = at + 1
    return escaped
  }

  /// A key or string, decoded into UTF-8 bytes (no `String` made, and no
  /// check of the bytes' UTF-8: whoever reads them as text checks it).
  public func utf8(_ token: JSONToken) -> [UInt8] {
    let raw = contents(of: token)
    guard token.hasEscapes else { return Array(raw) }
    return [UInt8](unsafeUninitializedCapacity: raw.count) { out, count in
      count = Self.decode(raw, into: out.baseAddress!)
    }
  }

  /// Decodes string contents whose escapes ``scanString()`` checked, in one
  /// pass straight into the string's own storage (decoding never makes text
  /// longer).
  private static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: raw.count) { out -> Int in
      guard let target = out.baseAddress else { return 0 }
      return decode(raw, into: target)
    }
  }

  /// Decodes checked string contents into `target` (room for `raw.count`
  /// bytes); returns how many it wrote.
  private static func decode(_ raw: UnsafeBufferPointer<UInt8>, into target: UnsafeMutablePointer<UInt8>)
    -> Int
  {
    guard let base = raw.baseAddress else { return 0 }
    let end = raw.count
    var written = 0
    var at = 0
    while at < end {
      // Copy the run up to the next backslash whole.
      let runEnd = plainRun(base, from: at, to: end)
      (target + written).initialize(from: base + at, count: runEnd - at)
      written += runEnd - at
      at = runEnd
      guard at < end else { break }
      let escape = base[at + 1]
      at += 2
      // Checked when read: an escape is one of the simple ones or `\u`.
      if let simple = simpleEscape(escape) {
        target[written] = simple
        written += 1
        continue
      }
      let (scalar, length) = unicodeEscape(base, at - 2, end)
      at += length - 2
      for unit in UTF8.encode(scalar)! {
        target[written] = unit
        written += 1
      }
    }
    return written
  }

  /// The byte a one-letter escape stands for (`\n` is 0x0A; `\"`, `\\` and
  /// `\/` stand for themselves); nil for `u` and any other letter.
  @inline(__always)
  static func simpleEscape(_ letter: UInt8) -> UInt8? {
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return letter
    case UInt8(ascii: "b"): return 0x08
    case UInt8(ascii: "f"): return 0x0C
    case UInt8(ascii: "n"): return 0x0A
    case UInt8(ascii: "r"): return 0x0D
    case UInt8(ascii: "t"): return 0x09
    default: return nil
    }
  }

  /// The scalar of the checked `\uXXXX` escape (or surrogate pair) at `at`, and its length in bytes.
  @inline(__always)
  public static func unicodeEscape(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> (
    Unicode.Scalar, Int
  ) {
    let high = hex4(base, at + 2, end) ?? 0xFFFD
    if (0xD800..<0xDC00).contains(high), let low = hex4(base, at + 8, end) {
      return (Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}", 12)
    }
    return (Unicode.Scalar(high) ?? "\u{FFFD}", 6)
  }

  /// The first offset in `from..<to` holding a quote, a backslash or a
  /// control character, or `to`: eight bytes at a time while none of them is one.
  @inline(__always)
  static func plainRun(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    var at = from
    while at + 8 <= to {
      let word = WordScan.load(base + at)
      if WordScan.equal(word, 0x22) | WordScan.equal(word, 0x5C) | WordScan.below(word, 0x20) != 0 { break }
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
  static func hex4(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> UInt32? {
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
