import OutlineCore
import OutlineJSON

/// Turns a JSON string's contents, as written (escapes and all), into the
/// text of an XML attribute value in one pass: no `String` in between.
///
/// Plain runs are copied eight bytes at a time; `&`, `<` and `"` become
/// `&amp; &lt; &quot;`, tab, line feed and carriage return become character
/// references (so attribute normalization keeps them); UTF-8 is checked as
/// it is copied. A character XML 1.0 cannot hold (a control character other
/// than tab, line feed and carriage return, U+FFFE, U+FFFF) or bytes that are
/// not UTF-8 are refused with their offset, because an XML file cannot carry
/// them and replacing them would lose what the user had.
enum JSONStringTranscoding {
  /// Why a string cannot become XML text, and the offset in the contents.
  struct Problem: Error {
    var message: String
    var offset: Int
  }

  /// Appends the XML attribute text of `raw` (a JSON string's contents whose
  /// escapes the reader checked) to `out`.
  static func appendAttributeText(_ raw: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) throws(Problem) {
    guard let base = raw.baseAddress else { return }
    let end = raw.count
    var at = 0
    while at < end {
      let runEnd = plainRun(base, from: at, to: end)
      if runEnd > at { out.append(contentsOf: UnsafeBufferPointer(start: base + at, count: runEnd - at)) }
      at = runEnd
      guard at < end else { return }
      let byte = base[at]
      switch byte {
      case UInt8(ascii: "&"):
        out.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])  // &amp;
        at += 1
      case UInt8(ascii: "<"):
        out.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])  // &lt;
        at += 1
      case UInt8(ascii: "\\"):
        let escape = at
        let scalar: Unicode.Scalar
        switch base[at + 1] {
        case UInt8(ascii: "u"):
          let (decoded, length) = JSONReader.unicodeEscape(base, at, end)
          scalar = decoded
          at += length
        case UInt8(ascii: "n"): (scalar, at) = ("\n", at + 2)
        case UInt8(ascii: "r"): (scalar, at) = ("\r", at + 2)
        case UInt8(ascii: "t"): (scalar, at) = ("\t", at + 2)
        case UInt8(ascii: "b"): (scalar, at) = ("\u{8}", at + 2)
        case UInt8(ascii: "f"): (scalar, at) = ("\u{C}", at + 2)
        case let other: (scalar, at) = (Unicode.Scalar(other), at + 2)
        }
        if let problem = problem(with: scalar) { throw Problem(message: problem, offset: escape) }
        append(scalar, to: &out)
      default:
        // Non-ASCII: one UTF-8 sequence, checked.
        let length = try sequenceLength(base, at, end)
        let value = scalarValue(base, at, length)
        if value == 0xFFFE || value == 0xFFFF {
          throw Problem(message: problem(with: Unicode.Scalar(value)!)!, offset: at)
        }
        out.append(contentsOf: UnsafeBufferPointer(start: base + at, count: length))
        at += length
      }
    }
  }

  /// Why `scalar` cannot stand in XML 1.0 text, or nil.
  private static func problem(with scalar: Unicode.Scalar) -> String? {
    let value = scalar.value
    if value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D || value == 0xFFFE || value == 0xFFFF {
      return "U+\(String(value, radix: 16, uppercase: true).leftPadded(to: 4)) cannot stand in an XML file"
    }
    return nil
  }

  /// Appends a decoded scalar, escaped for an attribute value.
  private static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    switch scalar {
    case "&": out.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])
    case "<": out.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])
    case "\"": out.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])  // &quot;
    case "\t": out.append(contentsOf: [0x26, 0x23, 0x39, 0x3B])  // &#9;
    case "\n": out.append(contentsOf: [0x26, 0x23, 0x31, 0x30, 0x3B])  // &#10;
    case "\r": out.append(contentsOf: [0x26, 0x23, 0x31, 0x33, 0x3B])  // &#13;
    default: out.append(contentsOf: UTF8.encode(scalar)!)
    }
  }

  /// The length of the well-formed UTF-8 sequence at `at` (RFC 3629: no
  /// overlong forms, no surrogates, nothing above U+10FFFF).
  private static func sequenceLength(_ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int) throws(Problem)
    -> Int
  {
    let lead = base[at]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: (length, low) = (3, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: (length, high) = (3, 0x9F)
    case 0xF0: (length, low) = (4, 0x90)
    case 0xF1...0xF3: length = 4
    case 0xF4: (length, high) = (4, 0x8F)
    default:
      throw Problem(message: "Byte 0x\(String(lead, radix: 16, uppercase: true)) is not UTF-8", offset: at)
    }
    guard at + length <= end else { throw Problem(message: "A UTF-8 sequence is cut short", offset: at) }
    if base[at + 1] < low || base[at + 1] > high {
      throw Problem(message: "A UTF-8 sequence is malformed", offset: at)
    }
    for next in 2..<length where base[at + next] & 0xC0 != 0x80 {
      throw Problem(message: "A UTF-8 sequence is malformed", offset: at)
    }
    return length
  }

  private static func scalarValue(_ base: UnsafePointer<UInt8>, _ at: Int, _ length: Int) -> UInt32 {
    var value = UInt32(base[at]) & (0xFF >> (length + 1))
    for next in 1..<length { value = value << 6 | UInt32(base[at + next] & 0x3F) }
    return value
  }

  /// The first offset in `from..<to` holding `\`, `&`, `<` or a byte above
  /// 0x7F, or `to`; eight bytes at a time while there is none.
  @inline(__always)
  private static func plainRun(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
    var at = from
    while at + 8 <= to {
      let word = WordScan.load(base + at)
      let special =
        WordScan.equal(word, 0x5C) | WordScan.equal(word, 0x26) | WordScan.equal(word, 0x3C)
        | WordScan.nonASCII(word)
      if special != 0 { break }
      at += 8
    }
    while at < to {
      let byte = base[at]
      if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte >= 0x80
      {
        return at
      }
      at += 1
    }
    return at
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
