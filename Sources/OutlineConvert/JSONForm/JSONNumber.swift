/// Number text as the JSON form writes it.
enum JSONNumber {
  /// `text` (already checked as a decimal number) in JSON syntax, keeping its
  /// digits: a leading `+` dropped, `.5` as `0.5`, `5.` as `5`, leading zeros of
  /// the integer part dropped.
  static func normalize(_ text: String) -> String {
    var bytes = Array(text.utf8)[...]
    var out: [UInt8] = []
    if bytes.first == UInt8(ascii: "-") {
      out.append(UInt8(ascii: "-"))
      bytes = bytes.dropFirst()
    } else if bytes.first == UInt8(ascii: "+") {
      bytes = bytes.dropFirst()
    }
    let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
    var integer = Array(bytes.prefix(while: isDigit))
    bytes = bytes.dropFirst(integer.count)
    while integer.count > 1 && integer.first == 0x30 { integer.removeFirst() }
    if integer.isEmpty { integer = [0x30] }
    out += integer
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      let fraction = bytes.prefix(while: isDigit)
      bytes = bytes.dropFirst(fraction.count)
      if !fraction.isEmpty {
        out.append(UInt8(ascii: "."))
        out += fraction
      }
    }
    out += bytes  // the exponent, if any, is valid JSON as written
    return String(decoding: out, as: UTF8.self)
  }
}
