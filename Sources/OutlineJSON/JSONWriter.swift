/// Escapes strings for JSON output.
public enum JSONText {
  /// `value` as a quoted JSON string.
  public static func quote(_ value: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(value.utf8.count + 2)
    appendQuoted(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `value` as a quoted JSON string: runs that need no escape are copied whole.
  public static func appendQuoted(_ value: String, to out: inout [UInt8]) {
    var value = value
    value.withUTF8 { appendQuoted(bytes: $0, to: &out) }
  }

  /// Appends an ASCII `byte` as it stands inside a JSON string: `"`, `\\`
  /// and control characters escaped, anything else as it is.
  public static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
    guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { return out.append(byte) }
    out.append(0x5C)
    switch byte {
    case 0x22, 0x5C: out.append(byte)
    case 0x0A: out.append(UInt8(ascii: "n"))
    case 0x0D: out.append(UInt8(ascii: "r"))
    case 0x09: out.append(UInt8(ascii: "t"))
    default:
      let digits: StaticString = "0123456789abcdef"
      out.append(UInt8(ascii: "u"))
      out.append(0x30)
      out.append(0x30)
      out.append(digits.utf8Start[Int(byte >> 4)])
      out.append(digits.utf8Start[Int(byte & 0xF)])
    }
  }

  /// Appends UTF-8 `bytes` as a quoted JSON string.
  public static func appendQuoted(bytes utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var runStart = 0
    for index in 0..<utf8.count {
      let byte = utf8[index]
      guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      appendEscaped(byte, to: &out)
      runStart = index + 1
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    out.append(UInt8(ascii: "\""))
  }
}

/// Builds JSON text in bytes, for large results written without a value
/// tree. Its appends are inlinable: a result of a million objects makes
/// tens of millions of them. The text is kept in pieces of about 1 MiB, so
/// a result of hundreds of megabytes is never copied to grow.
public struct JSONBytes {
  /// The piece being written.
  public var bytes: [UInt8] = []
  /// The pieces before it.
  @usableFromInline var full: [[UInt8]] = []
  @usableFromInline static let pieceSize = 1 << 20

  /// An empty text.
  public init() {}

  /// Starts a new piece once the current one holds about 1 MiB; call it
  /// between values (appends never split one).
  @inlinable
  public mutating func checkpoint() {
    guard bytes.count >= Self.pieceSize else { return }
    full.append(bytes)
    bytes = []
    bytes.reserveCapacity(Self.pieceSize + (1 << 16))
  }

  /// Appends literal JSON punctuation or a key written by the caller.
  @inlinable
  public mutating func raw(_ text: StaticString) {
    bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends a quoted string.
  public mutating func string(_ value: String) { JSONText.appendQuoted(value, to: &bytes) }

  /// Appends an integer, digit by digit (no string made).
  @inlinable
  public mutating func int(_ value: Int) {
    if value >= 0 && value < 10 { return bytes.append(UInt8(ascii: "0") + UInt8(value)) }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var magnitude = value.magnitude
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// Appends UTF-8 text as a quoted string.
  public mutating func string(bytes utf8: UnsafeBufferPointer<UInt8>) {
    JSONText.appendQuoted(bytes: utf8, to: &bytes)
  }

  /// Appends UTF-8 text, known to need no escape, as it is (inside a string the caller opened).
  @inlinable
  public mutating func plain(_ utf8: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: utf8) }

  /// Appends the text of `other`, its pieces shared, not copied.
  public mutating func append(_ other: JSONBytes) {
    if !bytes.isEmpty { full.append(bytes) }
    full += other.full
    bytes = other.bytes
  }

  /// The text as a ``JSONValue`` to put in a message.
  public var value: JSONValue { .raw(full + [bytes]) }
}
