import OutlineCore

/// Reading values as the model's types say, shared by the model checks
/// (defaults and bounds) and the document validator (attribute values).
public enum ModelValues {
  /// `YES`/`NO`, `true`/`false`, `1`/`0`; nil for anything else.
  public static func boolean(_ text: String?) -> Bool? {
    switch text {
    case "YES", "true", "1": true
    case "NO", "false", "0": false
    default: nil
    }
  }

  /// The range of each integer width (64 bits for a type that is not an integer).
  public static func integerBounds(_ type: AttributeType) -> ClosedRange<Int64> {
    type.integerBounds ?? Int64.min...Int64.max
  }

  /// A decimal integer (`-12`, `+3`, `0`) from bytes, or nil (also on overflow).
  @inlinable
  public static func integer<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int64?
  where Bytes.Index == Int {
    var index = 0
    var negative = false
    if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    guard index < bytes.count else { return nil }
    var magnitude: UInt64 = 0
    while index < bytes.count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
      if o1 || o2 { return nil }
      magnitude = sum
      index += 1
    }
    if negative {
      if magnitude > UInt64(Int64.max) + 1 { return nil }
      return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }
    return magnitude > UInt64(Int64.max) ? nil : Int64(magnitude)
  }

  /// A decimal integer from a string.
  public static func integer(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { integer($0) }
  }

  /// Whether `text` is a decimal number: `-1.5`, `2e10`, `.5`; no NaN or infinity.
  public static func isDecimalNumber(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
    let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    let integerDigits = bytes.prefix(while: isDigit).count
    bytes = bytes.dropFirst(integerDigits)
    var fractionDigits = 0
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      fractionDigits = bytes.prefix(while: isDigit).count
      bytes = bytes.dropFirst(fractionDigits)
    }
    guard integerDigits + fractionDigits > 0 else { return false }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
      let exponentDigits = bytes.prefix(while: isDigit).count
      guard exponentDigits > 0 else { return false }
      bytes = bytes.dropFirst(exponentDigits)
    }
    return bytes.isEmpty
  }

  /// The number `text` stands for, for comparing against bounds.
  public static func number(_ text: String) -> Double? {
    guard isDecimalNumber(text), let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// Whether `text` is an ISO 8601 date-time with a time zone that exists
  /// on the calendar, e.g. `2024-05-01T09:30:00Z`.
  public static func isISODate(_ text: String) -> Bool { dateProblem(text) == nil }

  /// Why `text` is not a date as Foundation's ISO 8601 reader takes it, or
  /// nil when it is one: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` then `Z` or an
  /// offset `±HH`, `±HHMM` or `±HH:MM`; the day must exist in its month of
  /// the (proleptic Gregorian) calendar, hours are 0-23, minutes and seconds
  /// 0-59, offsets within ±18:00.
  public static func dateProblem(_ text: String) -> String? {
    let b = Array(text.utf8)
    var syntax: String {
      "\(Excerpt.quoted(text)) is not an ISO 8601 date with a time zone (2024-05-01T09:30:00Z)"
    }
    func digits(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= b.count else { return nil }
      var value = 0
      for byte in b[start..<start + count] {
        guard byte >= 48 && byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard let year = digits(0, 4), b.count >= 10, b[4] == UInt8(ascii: "-"), let month = digits(5, 2),
      b[7] == UInt8(ascii: "-"), let day = digits(8, 2)
    else { return syntax }
    guard (1...12).contains(month) else { return "\(Excerpt.quoted(text)): there is no month \(month)" }
    let length = daysIn(month: month, year: year)
    guard (1...length).contains(day) else {
      return "\(Excerpt.quoted(text)): \(monthNames[month - 1]) \(year) has \(length) days, not \(day)"
    }
    if b.count == 10 { return "\(Excerpt.quoted(text)) has no time and time zone (2024-05-01T09:30:00Z)" }
    guard b[10] == UInt8(ascii: "T") else { return syntax }
    guard let hour = digits(11, 2), b.count > 13, b[13] == UInt8(ascii: ":"), let minute = digits(14, 2)
    else { return syntax }
    guard hour < 24 else { return "\(Excerpt.quoted(text)): hour \(hour) is not 0-23" }
    guard minute < 60 else { return "\(Excerpt.quoted(text)): minute \(minute) is not 0-59" }
    var index = 16
    if index < b.count && b[index] == UInt8(ascii: ":") {
      guard let second = digits(index + 1, 2) else { return syntax }
      guard second < 60 else { return "\(Excerpt.quoted(text)): second \(second) is not 0-59" }
      index += 3
      if index < b.count && b[index] == UInt8(ascii: ".") {
        index += 1
        let start = index
        while index < b.count && b[index] >= 48 && b[index] <= 57 { index += 1 }
        guard index > start else { return syntax }
      }
    }
    guard index < b.count else { return "\(Excerpt.quoted(text)) has no time zone (Z, +02:00)" }
    if b[index] == UInt8(ascii: "Z") { return index + 1 == b.count ? nil : syntax }
    let zoneStart = index
    guard b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-"), let zoneHour = digits(index + 1, 2)
    else { return syntax }
    index += 3
    var zoneMinute = 0
    if index < b.count {
      if b[index] == UInt8(ascii: ":") { index += 1 }
      guard let minutes = digits(index, 2), index + 2 == b.count else { return syntax }
      zoneMinute = minutes
    }
    let zone = String(decoding: b[zoneStart...], as: UTF8.self)
    guard zoneMinute < 60 else {
      return "\(Excerpt.quoted(text)): the offset \(zone) has minute \(zoneMinute), not 0-59"
    }
    guard zoneHour * 60 + zoneMinute <= 18 * 60 else {
      return "\(Excerpt.quoted(text)): the time-zone offset \(zone) is beyond ±18:00"
    }
    return nil
  }

  private static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
  ]

  /// The days of `month` (1-12) in `year` of the proleptic Gregorian calendar.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Why the decimal number `text` does not fit NSDecimalNumber, or nil
  /// when it does: its value must be a mantissa of at most 38 decimal digits
  /// times 10 to an exponent in -128...127 (`1e130` is `1000e127` and fits;
  /// `1e400` and 39 significant digits do not).
  public static func decimalProblem(_ text: String) -> String? {
    var digits: [UInt8] = []
    var exponent = 0
    var bytes = Array(text.utf8)[...]
    if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
    var inFraction = false
    while let byte = bytes.first {
      if byte == UInt8(ascii: ".") {
        inFraction = true
      } else if byte >= 48 && byte <= 57 {
        if !(digits.isEmpty && byte == 48) { digits.append(byte) }
        if inFraction { exponent -= 1 }
      } else {
        break
      }
      bytes = bytes.dropFirst()
    }
    if !bytes.isEmpty {
      // An exponent: `e`, a sign, digits (checked by isDecimalNumber); huge ones saturate.
      let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
      let written = Int(text.prefix(12)) ?? 0
      let long = text.drop(while: { $0 == "+" || $0 == "-" }).count > 10
      exponent += long ? (text.hasPrefix("-") ? -1_000_000_000_000 : 1_000_000_000_000) : written
    }
    while digits.last == 48 {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty { return nil }
    if digits.count > 38 {
      return "\(Excerpt.quoted(text)) has \(digits.count) significant digits; Decimal keeps at most 38"
    }
    // Zeros may join the mantissa to bring a large exponent down to 127.
    if exponent > 127 && digits.count + (exponent - 127) > 38 || exponent < -128 {
      return "\(Excerpt.quoted(text)) is outside the Decimal range (38 digits times 10^-128...10^127)"
    }
    return nil
  }

  /// The canonical text of an integer (`-0` is `0`, `+3` is `3`, `007` is
  /// `7`), or nil when `text` is not a decimal integer of 64 bits.
  public static func canonicalInteger(_ text: String) -> String? {
    integer(text).map { String($0) }
  }

  /// Whether `text` is a UUID: `8-4-4-4-12` hex digits.
  public static func isUUID(_ text: String) -> Bool {
    let b = Array(text.utf8)
    guard b.count == 36 else { return false }
    for (index, byte) in b.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard isHex(byte) else { return false }
      }
    }
    return true
  }

  /// Whether `text` is an absolute URI: a scheme, `:`, and no white space.
  public static func isAbsoluteURI(_ text: String) -> Bool {
    let b = Array(text.utf8)
    guard let colon = b.firstIndex(of: UInt8(ascii: ":")), colon > 0, isAlpha(b[0]) else {
      return false
    }
    for byte in b[1..<colon] {
      guard
        isAlpha(byte) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "+")
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      else { return false }
    }
    return colon + 1 < b.count && !b.contains { $0 <= 0x20 || $0 == 0x7F }
  }

  /// Whether `text` is base64 (white space allowed between groups, `=` padding).
  public static func isBase64(_ text: String) -> Bool {
    var count = 0
    var padding = 0
    for byte in text.utf8 {
      if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { continue }
      if byte == UInt8(ascii: "=") {
        padding += 1
        count += 1
        continue
      }
      guard padding == 0,
        isAlpha(byte) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "+")
          || byte == UInt8(ascii: "/")
      else { return false }
      count += 1
    }
    return count % 4 == 0 && padding <= 2
  }

  private static func isHex(_ byte: UInt8) -> Bool {
    (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
  }

  private static func isAlpha(_ byte: UInt8) -> Bool {
    (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
  }

  /// Why `text` is not a value of `type`, or nil when it is.
  public static func problem(with text: String, as type: AttributeType) -> String? {
    switch type {
    case .integer16, .integer32, .integer64:
      let bounds = integerBounds(type)
      guard let value = integer(text) else {
        // Digits past 64 bits are an integer still: out of range, as a smaller type's are.
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
        if text.utf8.count <= 1 + digits.count, !digits.isEmpty,
          digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        {
          return
            "\(Excerpt.quoted(text)) is outside the \(type.rawValue) range \(bounds.lowerBound)...\(bounds.upperBound)"
        }
        return "\(Excerpt.quoted(text)) is not a decimal integer (\(type.rawValue))"
      }
      return bounds.contains(value)
        ? nil : "\(value) is outside the \(type.rawValue) range \(bounds.lowerBound)...\(bounds.upperBound)"
    case .double:
      guard isDecimalNumber(text) else { return "\(Excerpt.quoted(text)) is not a decimal number (Double)" }
      return Double(text)?.isFinite == true
        ? nil : "\(Excerpt.quoted(text)) is outside the Double range ±1.7976931348623157e308"
    case .float:
      guard isDecimalNumber(text) else { return "\(Excerpt.quoted(text)) is not a decimal number (Float)" }
      return Float(text)?.isFinite == true
        ? nil : "\(Excerpt.quoted(text)) is outside the Float range ±3.4028235e38"
    case .decimal:
      guard isDecimalNumber(text) else { return "\(Excerpt.quoted(text)) is not a decimal number (Decimal)" }
      return decimalProblem(text)
    case .boolean:
      return boolean(text) == nil ? "\(Excerpt.quoted(text)) is not a Boolean (true/false, YES/NO, 1/0)" : nil
    case .date:
      return dateProblem(text)
    case .uuid:
      return isUUID(text) ? nil : "\(Excerpt.quoted(text)) is not a UUID (8-4-4-4-12 hex digits)"
    case .uri:
      return isAbsoluteURI(text) ? nil : "\(Excerpt.quoted(text)) is not an absolute URI"
    case .binary:
      return isBase64(text) ? nil : "the value is not base64"
    case .string, .transformable, .objectID, .composite, .undefined:
      return nil
    }
  }
}
