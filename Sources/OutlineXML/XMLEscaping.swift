import OutlineCore

/// Decoding and escaping of XML character data and attribute values.
///
/// Outline files have no DTD, so the only references are the five predefined
/// entities and character references; anything else never reaches here
/// because libxml2 rejects it first.
public enum XMLEscaping {
  /// Decodes a raw attribute value: references resolved, and literal tab,
  /// newline and carriage return normalized to spaces as XML 1.0 §3.3.3 says.
  public static func decodeAttribute(_ raw: UnsafeBufferPointer<UInt8>) -> String {
    decode(raw, normalizeWhitespace: true)
  }

  /// Decodes raw character data: references resolved, `\r\n` kept as written.
  public static func decodeText(_ raw: UnsafeBufferPointer<UInt8>) -> String {
    decode(raw, normalizeWhitespace: false)
  }

  /// Decodes `raw` given as an array.
  public static func decodeAttribute(_ raw: [UInt8]) -> String {
    raw.withUnsafeBufferPointer { decodeAttribute($0) }
  }

  /// Whether `raw` decodes to itself (no reference, nothing to normalize),
  /// so its bytes can be used as they are.
  @inlinable
  public static func isPlainAttribute(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in raw where byte == UInt8(ascii: "&") || byte < 0x20 { return false }
    return true
  }

  /// Appends the decoded bytes of a raw attribute value to `out`, making no string.
  public static func appendDecodedAttribute(_ raw: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    appendDecoded(raw, normalizeWhitespace: true, to: &out)
  }

  private static func decode(_ raw: UnsafeBufferPointer<UInt8>, normalizeWhitespace: Bool)
    -> String
  {
    // Fast path: nothing to decode.
    var needsWork = false
    for byte in raw where byte == UInt8(ascii: "&") || (normalizeWhitespace && byte < 0x20) {
      needsWork = true
      break
    }
    if !needsWork { return String(decoding: raw, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    appendDecoded(raw, normalizeWhitespace: normalizeWhitespace, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  private static func appendDecoded(
    _ raw: UnsafeBufferPointer<UInt8>, normalizeWhitespace: Bool, to out: inout [UInt8]
  ) {
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      if byte == UInt8(ascii: "&"), let (scalar, length) = reference(in: raw, at: index) {
        appendUTF8(scalar, to: &out)
        index += length
        continue
      }
      if normalizeWhitespace && byte == 0x0D {
        out.append(0x20)
        // A CR LF pair is one line end, so one space.
        if index + 1 < raw.count && raw[index + 1] == 0x0A { index += 1 }
      } else if normalizeWhitespace && (byte == 0x0A || byte == 0x09) {
        out.append(0x20)
      } else {
        out.append(byte)
      }
      index += 1
    }
  }

  /// The scalar a reference at `index` (on its `&`) stands for, and the
  /// reference's length; nil when it is not one.
  public static func reference(in raw: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
    var end = index + 1
    while end < raw.count && raw[end] != UInt8(ascii: ";") && end - index < 12 { end += 1 }
    guard end < raw.count, raw[end] == UInt8(ascii: ";") else { return nil }
    let body = UnsafeBufferPointer(rebasing: raw[(index + 1)..<end])
    let length = end - index + 1
    if body.first == UInt8(ascii: "#") {
      var value: UInt32 = 0
      var digits = body.dropFirst()
      var radix: UInt32 = 10
      if digits.first == UInt8(ascii: "x") {
        radix = 16
        digits = digits.dropFirst()
      }
      guard !digits.isEmpty else { return nil }
      for digit in digits {
        guard let d = hexValue(digit), d < radix else { return nil }
        value = value &* radix &+ d
        if value > 0x10FFFF { return nil }
      }
      guard let scalar = Unicode.Scalar(value) else { return nil }
      return (scalar, length)
    }
    if XMLName.equals(body, "amp") { return ("&", length) }
    if XMLName.equals(body, "lt") { return ("<", length) }
    if XMLName.equals(body, "gt") { return (">", length) }
    if XMLName.equals(body, "quot") { return ("\"", length) }
    if XMLName.equals(body, "apos") { return ("'", length) }
    return nil
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    UTF8.encode(scalar) { out.append($0) }
  }

  /// Escapes `value` for a double-quoted attribute: `&amp; &lt; &quot;`, and
  /// tab, newline and carriage return as character references so they survive
  /// attribute-value normalization.
  public static func escapeAttribute(_ value: String) -> String {
    var needs = false
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: "\""), 0x09, 0x0A, 0x0D:
        needs = true
      default: continue
      }
      break
    }
    if !needs { return value }
    var out = ""
    out.reserveCapacity(value.utf8.count + 16)
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case "\"": out += "&quot;"
      case "\t": out += "&#9;"
      case "\n": out += "&#10;"
      case "\r": out += "&#13;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Appends what `escapeAttribute(decodeAttribute(raw))` gives, byte for
  /// byte, making no string: a raw value with no reference, control byte or
  /// `"` is copied as it is (the escaped bytes are all ASCII, so UTF-8
  /// sequences pass through whole).
  public static func appendCanonicalAttribute(_ raw: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if isCanonicalAttribute(raw) { return out.append(contentsOf: raw) }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(raw.count)
    appendDecoded(raw, normalizeWhitespace: true, to: &decoded)
    for byte in decoded {
      switch byte {
      case UInt8(ascii: "&"): append("&amp;", to: &out)
      case UInt8(ascii: "<"): append("&lt;", to: &out)
      case UInt8(ascii: "\""): append("&quot;", to: &out)
      case 0x09: append("&#9;", to: &out)
      case 0x0A: append("&#10;", to: &out)
      case 0x0D: append("&#13;", to: &out)
      default: out.append(byte)
      }
    }
  }

  /// Whether `raw` is already what ``appendCanonicalAttribute(_:to:)`` writes: no control byte
  /// or `"`, and each `&` starts `&amp;`, `&lt;` or `&quot;` (which decode and escape to themselves).
  public static func isCanonicalAttribute(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = raw.baseAddress else { return true }
    var index = 0
    let count = raw.count
    while index < count {
      let byte = base[index]
      if byte >= 0x20 && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "\"") {
        index += 1
        continue
      }
      guard byte == UInt8(ascii: "&") else { return false }
      let left = count - index
      if left >= 5 && memcmp(base + index, "&amp;", 5) == 0 {
        index += 5
      } else if left >= 4 && memcmp(base + index, "&lt;", 4) == 0 {
        index += 4
      } else if left >= 6 && memcmp(base + index, "&quot;", 6) == 0 {
        index += 6
      } else {
        return false
      }
    }
    return true
  }

  /// Appends `text`'s bytes without making an array of them first.
  @inline(__always)
  private static func append(_ text: StaticString, to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// The bytes ``escapeAttribute(_:)`` would write for `value`, counted without writing them.
  public static func escapedAttributeByteCount(_ value: String) -> Int {
    var count = 0
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "&"): count += 5
      case UInt8(ascii: "<"), 0x09: count += 4
      case UInt8(ascii: "\""): count += 6
      case 0x0A, 0x0D: count += 5
      default: count += 1
      }
    }
    return count
  }

  /// Escapes character data (the text between tags) so that an XML reader gets `value` back:
  /// `&amp; &lt; &gt;` (every `>`, so `]]>` never stands in it), and carriage return as `&#13;`,
  /// because XML 1.0 §2.11 reads a raw one, alone or before a line feed, as a line feed (a
  /// `\r\n` pair is written `&#13;` and a raw line feed, and read back as both). Tab and line
  /// feed stand as they are: text keeps them. For an attribute value, ``escapeAttribute(_:)``.
  public static func escapeText(_ value: String) -> String {
    var needs = false
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0x0D: needs = true
      default: continue
      }
      break
    }
    if !needs { return value }
    var out = ""
    out.reserveCapacity(value.utf8.count + 16)
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\r": out += "&#13;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension XMLEscaping {
  /// Decodes a raw attribute value lent as a view.
  @inlinable
  public static func decodeAttribute(_ raw: ByteView) -> String { decodeAttribute(raw.unsafeBuffer) }

  /// Decodes raw character data lent as a view.
  @inlinable
  public static func decodeText(_ raw: ByteView) -> String { decodeText(raw.unsafeBuffer) }

  /// Whether the raw value decodes to itself.
  @inlinable
  public static func isPlainAttribute(_ raw: ByteView) -> Bool { isPlainAttribute(raw.unsafeBuffer) }

  /// Appends the decoded bytes of a raw attribute value to `out`.
  @inlinable
  public static func appendDecodedAttribute(_ raw: ByteView, to out: inout [UInt8]) {
    appendDecodedAttribute(raw.unsafeBuffer, to: &out)
  }

  /// Appends the canonical form of a raw attribute value to `out`.
  @inlinable
  public static func appendCanonicalAttribute(_ raw: ByteView, to out: inout [UInt8]) {
    appendCanonicalAttribute(raw.unsafeBuffer, to: &out)
  }

  /// Whether the raw value is already in canonical form.
  @inlinable
  public static func isCanonicalAttribute(_ raw: ByteView) -> Bool { isCanonicalAttribute(raw.unsafeBuffer) }

  /// The character reference at `index` of a raw value, and its length.
  @inlinable
  public static func reference(in raw: ByteView, at index: Int) -> (Unicode.Scalar, Int)? {
    reference(in: raw.unsafeBuffer, at: index)
  }
}
