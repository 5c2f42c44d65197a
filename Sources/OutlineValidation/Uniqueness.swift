import Foundation
import OutlineCore
import OutlineModel
import OutlineXML

/// The values seen per constraint: each object's members, typed and
/// normalized into one key, kept one after the other with a 32-bit seeded
/// hash, and compared at the end. Nothing is looked up while the document
/// streams (every write is an append, so a million objects cost no cache
/// miss each); at the end the hashes are radix-sorted (linear) and only keys
/// with equal hashes are compared.
struct UniquenessTables {
  /// One object's key in a table.
  private struct Record {
    var hash: UInt32
    /// Where its key ends in the table's `keys` (it starts where the previous one ends).
    var keyEnd: UInt32
    var rangeStart: Int
    var rangeLength: UInt32
    var entity: Int32
  }

  private struct Table {
    var records: [Record] = []
    /// Each its own (a class: the tables share none).
    let keys = KeyBytes()
    /// The constraint's members and declaring entity, for messages.
    var names: [String] = []
    var declaringEntity = ""

    /// Where the key of record `index` is in `keys`.
    func keyRange(_ index: Int) -> Range<Int> {
      (index == 0 ? 0 : Int(records[index - 1].keyEnd))..<Int(records[index].keyEnd)
    }
  }

  private var tables: [Table]
  private let seed = HashSeed.process

  init(count: Int) {
    tables = (0..<count).map { _ in Table() }
  }

  /// Records `tag`'s values for every constraint of `entity`. `attributeTag`
  /// gives the tag's attribute index of a model attribute (-1 when not
  /// written), `written` the relationships written; `parentID` names the
  /// object nesting sets `implied` to.
  @inline(__always)
  mutating func record(
    _ tag: StartTag, entity: Int, attributeTag: (Int) -> Int, written: [(relationship: Int, index: Int)],
    implied: Int,
    parentID: () -> String, schema: ModelIndex
  ) {
    let checks = schema.uniqueness.checks[entity]
    checks: for check in checks {
      // The key is built at the end of the table's keys, and dropped again when a member has no value.
      let table = check.table
      let keys = tables[table].keys
      let keyStart = keys.count
      var firstRange: TextRange?
      for position in 0..<check.members.count {
        switch check.members[position] {
        case .attribute(let attribute):
          let index = attributeTag(attribute)
          if index >= 0 {
            if firstRange == nil { firstRange = tag.valueRange(of: index) }
            Self.appendNormalized(
              tag.unsafeRawValue(of: index), type: check.types[position], to: keys)
          } else if let value = check.defaults[position] {
            value.withUnsafeBufferPointer {
              Self.appendNormalized($0, type: check.types[position], to: keys)
            }
          } else {
            // No value: like SQL's NULL, never a duplicate.
            keys.truncate(to: keyStart)
            continue checks
          }
        case .relationship(let relationship):
          var target: String
          if relationship == implied {
            target = parentID()
          } else if let index = written.first(where: { $0.relationship == relationship })?.index {
            if firstRange == nil { firstRange = tag.valueRange(of: index) }
            target = tag.value(of: index).trimmingCharacters(in: .whitespaces)
          } else {
            keys.truncate(to: keyStart)
            continue checks
          }
          target.withUTF8 { keys.appendField(UnsafeRawBufferPointer($0), tag: 0x52) }
        }
      }
      let range = firstRange ?? tag.nameRange
      let hash = Self.hash(keys.bytes(keyStart..<keys.count), seed: seed)
      if tables[table].records.isEmpty {
        tables[table].names = check.names
        tables[table].declaringEntity = check.declaringEntity
      }
      tables[table].records.append(
        Record(
          hash: hash, keyEnd: UInt32(truncatingIfNeeded: keys.count),
          rangeStart: range.start, rangeLength: UInt32(truncatingIfNeeded: range.length),
          entity: Int32(entity)))
    }
  }

  /// Reports every object whose key an earlier object of its table has
  /// (OL505), in document order, the first object as related information.
  func finish(model: ModelIndex, validator: OutlineValidator) {
    for table in tables where table.records.count > 1 {
      var duplicates: [(index: Int, first: Int)] = []
      let records = table.records
      let sorted = HashOrder.sorted(count: records.count) { records[$0].hash }
      var start = 0
      while start < sorted.count {
        var end = start + 1
        let hash = sorted[start] >> 32
        while end < sorted.count && sorted[end] >> 32 == hash { end += 1 }
        if end - start > 1 {
          // Same hash: the distinct keys seen so far in the group, first occurrences.
          var distinct: [Int] = []
          for position in start..<end {
            let index = Int(truncatingIfNeeded: sorted[position] & 0xFFFF_FFFF)
            if let first = distinct.first(where: {
              table.keys.equal(table.keyRange($0), table.keyRange(index))
            }) {
              duplicates.append((index, first))
            } else {
              distinct.append(index)
            }
          }
        }
        start = end
      }
      duplicates.sort { $0.index < $1.index }
      let members = table.names.map { Excerpt.quoted($0) }.joined(separator: ", ")
      for (index, first) in duplicates {
        let record = table.records[index]
        let original = table.records[first]
        validator.report(
          .uniquenessViolation,
          "This \(Excerpt.quoted(model.entities[Int(record.entity)].name)) has the same \(members) as an earlier object: the uniqueness constraint of \(Excerpt.quoted(table.declaringEntity)) allows one",
          at: TextRange(start: record.rangeStart, end: record.rangeStart + Int(record.rangeLength)),
          related: [
            RelatedLocation(
              range: TextRange(
                start: original.rangeStart, end: original.rangeStart + Int(original.rangeLength)),
              message: "the first object with these values")
          ])
      }
    }
  }

  /// The key's hash, its low 32 bits (sorted beside the record's index).
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt32 {
    UInt32(truncatingIfNeeded: SeededHash.hash(bytes, seed: seed))
  }

  /// Appends one member's value as Core Data stores it, so two writings of one value
  /// collide: integers by value, Booleans by truth value, `Double` and `Float` as the binary
  /// number they round to, `Decimal` by decimal value, UUIDs by their 16 bytes, dates as the
  /// `Double` of seconds since 2001 Core Data keeps, binary data by its bytes; strings and URIs
  /// as written (decoded). A value that is not of its type (OL300) is compared as written.
  static func appendNormalized(
    _ raw: UnsafeBufferPointer<UInt8>, type: AttributeType?, to key: KeyBytes
  ) {
    switch type {
    case .integer16?, .integer32?, .integer64?:
      // Plain digits need no string.
      if let value = plainInteger(raw) ?? ModelValues.integer(raw) ?? ModelValues.integer(decoded(raw)) {
        key.appendField(UInt64(bitPattern: value), tag: 0x49)
        return
      }
    case .boolean?:
      if let value = ModelValues.boolean(decoded(raw)) {
        key.appendField(UnsafeRawBufferPointer(start: nil, count: 0), tag: value ? 0x54 : 0x46)
        return
      }
    case .double?, .float?:
      let text = decoded(raw)
      if ModelValues.isDecimalNumber(text),
        let value = type == .float ? Float(text).map(Double.init) : Double(text)
      {
        key.appendField((value == 0 ? 0 : value).bitPattern, tag: 0x44)
        return
      }
    case .decimal?:
      if let value = DecimalValue(decoded(raw)) {
        value.key.withUnsafeBytes { key.appendField($0, tag: 0x4E) }
        return
      }
    case .uuid?:
      if let bytes = UUIDBytes.of(decoded(raw)) {
        bytes.withUnsafeBytes { key.appendField($0, tag: 0x55) }
        return
      }
    case .date?:
      if let seconds = DateInstant.secondsSinceReferenceDate(decoded(raw)) {
        key.appendField((seconds == 0 ? 0 : seconds).bitPattern, tag: 0x41)
        return
      }
    case .binary?:
      if let bytes = Base64Bytes.decode(decoded(raw)) {
        bytes.withUnsafeBytes { key.appendField($0, tag: 0x42) }
        return
      }
    case .string?, .uri?, .transformable?, .objectID?, .composite?, .undefined?, nil:
      break
    }
    // Strings, and values that are not of their type (reported as OL300), as written.
    if XMLEscaping.isPlainAttribute(raw) {
      key.appendField(UnsafeRawBufferPointer(raw), tag: 0x53)
    } else {
      key.appendDecodedField(raw, tag: 0x53)
    }
  }

  /// One to eighteen ASCII digits (no sign, no reference) as a number, read without a string:
  /// what ``ModelValues/integer(_:)`` reads them as; nil for anything else.
  @inline(__always)
  static func plainInteger(_ raw: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard raw.count > 0, raw.count <= 18 else { return nil }
    var value: Int64 = 0
    for byte in raw {
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value &* 10 &+ Int64(digit)
    }
    return value
  }

  /// The value's text, its character references decoded.
  private static func decoded(_ raw: UnsafeBufferPointer<UInt8>) -> String {
    XMLEscaping.isPlainAttribute(raw)
      ? String(decoding: raw, as: UTF8.self) : XMLEscaping.decodeAttribute(raw)
  }
}

/// ISO 8601 dates as Core Data stores them: the `Double` of seconds since 2001-01-01T00:00:00Z,
/// rounded once from every digit written, so `09:30Z` and `11:30+02:00` are one date and
/// `09:30:00.0011Z` and `09:30:00.0019Z` are two.
enum DateInstant {
  /// 1970-01-01 to 2001-01-01, in seconds.
  static let referenceOffset: Int64 = 978_307_200

  /// Fraction digits kept: every double and every midpoint between two doubles has at most
  /// 1075 binary, so decimal, digits after the point; past 1100 digits one more (non-zero)
  /// digit stands for the rest, and the rounding is the same as from every digit.
  static let keptFractionDigits = 1100

  /// The seconds since 2001 of `2024-05-01T09:30[:00[.250...]](Z|+02:00|+0200|+02)`, the
  /// nearest `Double` to the exact value (ties to even), or nil.
  static func secondsSinceReferenceDate(_ text: String) -> Double? {
    guard let (whole, fraction) = parse(text) else { return nil }
    let seconds = whole - referenceOffset
    // The exact value as decimal text, then rounded once by the standard reader.
    var digits = fraction
    while digits.last == 0x30 { digits.removeLast() }
    if digits.isEmpty { return Double(seconds) }
    var integer = seconds
    var negative = false
    if seconds < 0 {
      // -n + 0.f is -((n - 1) + (1 - 0.f)); 1 - 0.f has as many digits as f.
      negative = true
      integer = -seconds - 1
      var borrow = false
      for index in digits.indices.reversed() {
        let digit = digits[index] - 0x30
        if !borrow {
          // The last digit (not zero: trailing zeros are gone) is taken from 10, the others from 9.
          digits[index] = 0x30 + (10 - digit)
          borrow = true
        } else {
          digits[index] = 0x30 + (9 - digit)
        }
      }
    }
    if digits.count > keptFractionDigits {
      let dropped = digits[keptFractionDigits...].contains { $0 != 0x30 }
      digits.removeSubrange(keptFractionDigits...)
      if dropped { digits.append(0x31) }
    }
    let text = (negative ? "-" : "") + String(integer) + "." + String(decoding: digits, as: UTF8.self)
    return Double(text)
  }

  /// Whole seconds since 1970 and the fraction's digits (ASCII) of
  /// `2024-05-01T09:30[:00[.250...]](Z|+02:00|+0200|+02)`, or nil.
  static func parse(_ text: String) -> (whole: Int64, fraction: [UInt8])? {
    let bytes = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int64? {
      guard start + count <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[start..<start + count] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard bytes.count >= 17, let year = number(0, 4), bytes[4] == 0x2D, let month = number(5, 2),
      bytes[7] == 0x2D, let day = number(8, 2), bytes[10] == 0x54, let hour = number(11, 2),
      bytes[13] == 0x3A, let minute = number(14, 2)
    else { return nil }
    var at = 16
    var second: Int64 = 0
    var fraction: [UInt8] = []
    if at < bytes.count && bytes[at] == 0x3A {
      guard let seconds = number(at + 1, 2) else { return nil }
      second = seconds
      at += 3
      if at < bytes.count && bytes[at] == 0x2E {
        at += 1
        let start = at
        while at < bytes.count, bytes[at] >= 0x30 && bytes[at] <= 0x39 { at += 1 }
        fraction = Array(bytes[start..<at])
      }
    }
    guard at < bytes.count else { return nil }
    var offsetMinutes: Int64 = 0
    if bytes[at] == 0x5A {
      guard at + 1 == bytes.count else { return nil }
    } else if bytes[at] == 0x2B || bytes[at] == 0x2D {
      let sign: Int64 = bytes[at] == 0x2D ? -1 : 1
      guard let hours = number(at + 1, 2) else { return nil }
      var minutes: Int64 = 0
      switch bytes.count - (at + 3) {
      case 0: break
      case 2: minutes = number(at + 3, 2) ?? -1
      case 3 where bytes[at + 3] == 0x3A: minutes = number(at + 4, 2) ?? -1
      default: return nil
      }
      guard minutes >= 0 else { return nil }
      offsetMinutes = sign * (hours * 60 + minutes)
    } else {
      return nil
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let minutes = days * 1440 + hour * 60 + minute - offsetMinutes
    return (minutes * 60 + second, fraction)
  }
}

/// A decimal number by value, as `NSDecimalNumber` keeps it: `1.0`, `1.00`, `10e-1` and `+1`
/// are one value.
struct DecimalValue: Equatable {
  var negative: Bool
  /// The significant digits (ASCII), no zero first or last; empty for zero.
  var digits: [UInt8]
  /// The power of ten of the last digit.
  var exponent: Int

  /// `text` read as `ModelValues.isDecimalNumber` takes it, or nil (also for an exponent
  /// beyond what any Decimal has).
  init?(_ text: String) {
    guard ModelValues.isDecimalNumber(text) else { return nil }
    var bytes = Array(text.utf8)[...]
    negative = bytes.first == UInt8(ascii: "-")
    if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
    digits = []
    var scale = 0
    var inFraction = false
    while let byte = bytes.first, byte == UInt8(ascii: ".") || (byte >= 0x30 && byte <= 0x39) {
      if byte == UInt8(ascii: ".") {
        inFraction = true
      } else {
        if !(digits.isEmpty && byte == 0x30) { digits.append(byte) }
        if inFraction { scale -= 1 }
      }
      bytes = bytes.dropFirst()
    }
    var written = 0
    if !bytes.isEmpty {
      // `e`, a sign, digits.
      bytes = bytes.dropFirst()
      let sign = bytes.first == UInt8(ascii: "-") ? -1 : 1
      if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
      let significant = bytes.drop { $0 == 0x30 }
      if significant.count > 6 {
        // Beyond ±999999 no Decimal but zero is this value (OL300): compared as written.
        guard digits.isEmpty else { return nil }
      } else {
        written = sign * (Int(String(decoding: significant, as: UTF8.self)) ?? 0)
      }
    }
    // A zero is one value, whatever its sign and exponent.
    if digits.isEmpty {
      negative = false
      exponent = 0
      return
    }
    var trailing = 0
    while digits.last == 0x30 {
      digits.removeLast()
      trailing += 1
    }
    exponent = scale + written + trailing
  }

  /// The bytes a key holds: sign, exponent, digits.
  var key: [UInt8] {
    var bytes: [UInt8] = [negative ? 1 : 0]
    withUnsafeBytes(of: Int64(exponent).littleEndian) { bytes.append(contentsOf: $0) }
    return bytes + digits
  }
}

/// A UUID's 16 bytes, whatever the case of its hex digits.
enum UUIDBytes {
  static func of(_ text: String) -> [UInt8]? {
    guard ModelValues.isUUID(text) else { return nil }
    var bytes: [UInt8] = []
    var high: UInt8?
    for byte in text.utf8 where byte != UInt8(ascii: "-") {
      let value: UInt8 =
        byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - UInt8(ascii: "a") + 10
      if let first = high {
        bytes.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    return bytes
  }
}

/// The bytes a base64 value stands for, as Core Data keeps binary data: white space
/// between the characters is not part of it, nor are the bits past the last byte.
enum Base64Bytes {
  static func decode(_ text: String) -> [UInt8]? {
    guard ModelValues.isBase64(text) else { return nil }
    var bytes: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for byte in text.utf8 {
      let value: UInt32
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      default: continue  // white space and `=` padding
      }
      buffer = buffer << 6 | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
        buffer &= (1 << UInt32(bits)) - 1
      }
    }
    return bytes
  }
}
