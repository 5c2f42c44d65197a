// The per-item path of the JSON form writer: one object's `{"@entity":...,"@id":...,keys...` written from its start
// tag into room reserved once for the whole object, its keys and plain runs of its values copied eight bytes at a
// time (a copy may write up to eight bytes past its end; the next one writes over them).

import Foundation
import OutlineCore
import OutlineXML

extension ObjectHead {
  /// `,"@id":`.
  static var idKey: StaticString { ",\"@id\":" }

  /// `xml:id`, `&amp;` and `&quot;` as little-endian words (``prefixWord(_:_:_:_:)``).
  static var xmlIDWord: UInt64 { 0x6469_3A6C_6D78 }
  static var ampWord: UInt64 { 0x3B_706D_6126 }
  static var quotWord: UInt64 { 0x3B74_6F75_7126 }

  /// The first eight bytes of `name` (fewer for a shorter name, the rest zero) as a little-endian word.
  static func prefixWord(of name: [UInt8]) -> UInt64 {
    var word: UInt64 = 0
    for (index, byte) in name.prefix(8).enumerated() { word |= UInt64(byte) << UInt64(index * 8) }
    return word
  }

  /// The first eight of the `length` bytes at `start` (fewer for a shorter run, the rest zero) as a
  /// little-endian word; the bytes up to `limit` may be read.
  @inline(__always)
  static func prefixWord(_ base: UnsafePointer<UInt8>, _ start: Int, _ length: Int, _ limit: Int) -> UInt64 {
    if start + 8 <= limit {
      let word = WordScan.load(base + start)
      return length >= 8 ? word : word & (1 << UInt64(length * 8) &- 1)
    }
    var word: UInt64 = 0
    for index in 0..<min(length, 8) { word |= UInt64(base[start + index]) << UInt64(index * 8) }
    return word
  }

  /// The `count` (at most 8) bytes at `start` as the low bytes of a word, the bytes above them
  /// unspecified when `start + 8` is within `limit` and zero otherwise.
  @inline(__always)
  static func tailWord(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int, _ limit: Int) -> UInt64 {
    if start + 8 <= limit { return WordScan.load(base + start) }
    if start + count >= 8 { return WordScan.load(base + start + count - 8) >> UInt64((8 - count) * 8) }
    var word: UInt64 = 0
    for index in 0..<count { word |= UInt64(base[start + index]) << UInt64(index * 8) }
    return word
  }

  /// Appends the opening of a non-root object of `table`'s entity (which has at most 64 keys):
  /// `{"@entity":"Name"`, its `@id`, then the attributes and references the entity knows in
  /// model order. One pass over the attributes finds `xml:id` and which key each writes (as
  /// bits, so the keys come out in model order whatever order the tag has them in); the room
  /// the object can take is reserved once (values grow at most twofold: `\"` for `"`).
  func writeItem(_ tag: StartTag, table: EntityTable, into out: inout ByteOutput) {
    let base = tag.unsafeBytes.baseAddress!
    let limit = tag.unsafeBytes.count
    let room = table.headRoom + 2 * limit
    out.reserve(room)
    let opening = out.count
    table.appendEntityWords(to: &out)
    var present: UInt64 = 0
    var id = -1
    let slots = table.slots
    let attributes = tag.unsafeAttributes.baseAddress
    for attribute in 0..<tag.unsafeAttributes.count {
      let start = Int(attributes![attribute].nameStart)
      let length = Int(attributes![attribute].nameEnd) - start
      let word = Self.prefixWord(base, start, length, limit)
      let key = table.key(word: word, length: length, name: base + start)
      if key >= 0 {
        present |= 1 << UInt64(key)
        slots[key] = Int32(truncatingIfNeeded: attribute)
      } else if id < 0 && length == 6 && word == Self.xmlIDWord {
        id = attribute
      }
    }
    if id >= 0 {
      out.appendWords(Self.idKey.utf8Start, Self.idKey.utf8CodeUnitCount)
      Self.appendValue(
        base, Int(attributes![id].valueStart), Int(attributes![id].valueEnd), limit, room: room, to: &out)
    }
    while present != 0 {
      let key = present.trailingZeroBitCount
      present &= present &- 1
      let attribute = attributes![Int(slots[key])]
      let start = Int(attribute.valueStart)
      let end = Int(attribute.valueEnd)
      // A to-one that names nothing is left out, as the reader wants it (no `null`).
      if table.kindOf[key] == .toOne
        && Self.namesNothing(UnsafeBufferPointer(start: base + start, count: end - start))
      {
        continue
      }
      table.appendQuotedWords(key, to: &out)
      switch table.kindOf[key] {
      case .string:
        Self.appendValue(base, start, end, limit, room: room, to: &out)
      case .integer where CanonicalLayout.isCanonicalInteger(base, start, end):
        Self.appendRaw(base, start, end, limit, to: &out)
      case .integer, .other, .toOne, .toMany:
        Self.appendConverted(
          UnsafeBufferPointer(start: base + start, count: end - start), key: key, table: table, to: &out)
        out.reserve(room)
      }
    }
    out.base[opening] = UInt8(ascii: "{")
  }

  /// Appends the bytes `start..<end` as they are, into room already reserved.
  @inline(__always)
  static func appendRaw(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ limit: Int, to out: inout ByteOutput
  ) {
    var at = start
    while end - at >= 8 {
      out.storeWord(WordScan.load(base + at))
      out.advance(8)
      at += 8
    }
    guard end > at else { return }
    out.storeWord(tailWord(base, at, end - at, limit))
    out.advance(end - at)
  }

  /// Appends the raw attribute value `start..<end` as a JSON string into room already reserved
  /// (`room`, reserved again after anything that may grow more than twofold): XML references
  /// resolved and white space normalized (XML 1.0 §3.3.3), as ``appendString(_:to:)``. Each
  /// word is stored as it is read; the bytes after the first that needs work are written over.
  static func appendValue(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ limit: Int, room: Int, to out: inout ByteOutput
  ) {
    out.appendUnchecked(UInt8(ascii: "\""))
    var at = start
    while at < end {
      let remaining = end - at
      let word: UInt64
      var mask: UInt64
      let count: Int
      if remaining >= 8 {
        word = WordScan.load(base + at)
        mask = workMask(of: word)
        count = 8
      } else {
        word = tailWord(base, at, remaining, limit)
        mask = workMask(of: word) & (1 << UInt64(remaining * 8) &- 1)
        count = remaining
      }
      out.storeWord(word)
      if mask == 0 {
        out.advance(count)
        at += count
        continue
      }
      let plain = mask.trailingZeroBitCount >> 3
      out.advance(plain)
      at += plain
      at = appendSpecial(base, at, end, limit, room: room, to: &out)
    }
    out.appendUnchecked(UInt8(ascii: "\""))
  }

  /// Appends the byte at `at` of a value ending at `end`, one that is `&`, `"`, `\` or a control
  /// character, as JSON string text; returns where the value goes on.
  private static func appendSpecial(
    _ base: UnsafePointer<UInt8>, _ at: Int, _ end: Int, _ limit: Int, room: Int, to out: inout ByteOutput
  ) -> Int {
    let byte = base[at]
    switch byte {
    case UInt8(ascii: "&"):
      // The references most values hold are known by their word.
      if at + 8 <= limit {
        let word = WordScan.load(base + at)
        if word & 0xFF_FFFF_FFFF == ampWord && at + 5 <= end {
          out.appendUnchecked(UInt8(ascii: "&"))
          return at + 5
        }
        if word & 0xFFFF_FFFF_FFFF == quotWord && at + 6 <= end {
          out.appendUnchecked(UInt8(ascii: "\\"))
          out.appendUnchecked(UInt8(ascii: "\""))
          return at + 6
        }
      }
      guard
        let (scalar, length) = XMLEscaping.reference(
          in: UnsafeBufferPointer(start: base + at, count: end - at), at: 0)
      else {
        out.appendUnchecked(byte)
        return at + 1
      }
      if scalar.value < 0x80 {
        out.appendJSONEscaped(UInt8(scalar.value))
      } else {
        UTF8.encode(scalar) { out.append($0) }
      }
      out.reserve(room)
      return at + length
    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
      out.appendUnchecked(0x5C)
      out.appendUnchecked(byte)
      return at + 1
    case 0x0D:
      out.appendUnchecked(0x20)
      // A CR LF pair is one line end, so one space.
      return at + 1 < end && base[at + 1] == 0x0A ? at + 2 : at + 1
    case 0x0A, 0x09:
      out.appendUnchecked(0x20)
      return at + 1
    default:
      out.appendJSONEscaped(byte)
      out.reserve(room)
      return at + 1
    }
  }
}
