// The hashes matching compares: a byte hash (FNV-1a), a value hash that decodes only values holding a reference
// or a space character libxml2 would normalize, and a finalizer that spreads bits (splitmix64) before values are
// combined. Fixed, so a document hashes the same in every run.

import OutlineCore
import OutlineSyntax
import OutlineXML

/// Hashing of names, values and combined hashes.
enum ContentHash {
  static let elementSalt: UInt64 = 0x9E37_79B9_7F4A_7C15
  static let nameSalt: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  static let subtreeSalt: UInt64 = 0x1656_67B1_9E37_79F9

  /// The FNV-1a hash of `bytes[range]`.
  static func bytes(_ bytes: [UInt8], _ range: TextRange) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var index = range.start
    while index < range.end {
      hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3
      index += 1
    }
    return hash
  }

  /// The hash of an attribute value as the document means it: written as `&amp;` or `&#38;`, it
  /// is the same value.
  static func value(_ bytes: [UInt8], _ range: TextRange) -> UInt64 {
    if !bytes[range.start..<range.end].contains(where: needsDecoding) { return self.bytes(bytes, range) }
    let decoded = Array(XMLEscaping.decodeAttribute(Array(bytes[range.start..<range.end])).utf8)
    return self.bytes(decoded, TextRange(start: 0, end: decoded.count))
  }

  /// Whether a value holding `byte` reads differently from its bytes (a reference, or a space
  /// character that attribute values normalize).
  static func needsDecoding(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "&") || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// Spreads the bits of `value` (splitmix64's finalizer).
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The attributes of a start tag that the parser found well-formed, read from the document's bytes.
enum TagAttributes {
  /// Calls `found` with each attribute of `item`'s start tag, in source order.
  static func scan(_ bytes: [UInt8], _ item: Item, _ found: (ItemAttribute) -> Void) {
    var index = item.startTag.start + 1 + Int(item.nameLength)
    let end = min(item.startTag.end, bytes.count)
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { return }
      if byte < 0x21 {
        index += 1
        continue
      }
      let nameStart = index
      while index < end && bytes[index] > 0x20 && bytes[index] != UInt8(ascii: "=") { index += 1 }
      let nameEnd = index
      while index < end && (bytes[index] < 0x21 || bytes[index] == UInt8(ascii: "=")) { index += 1 }
      guard index < end else { return }
      let quote = bytes[index]
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return }
      index += 1
      let valueStart = index
      while index < end && bytes[index] != quote { index += 1 }
      found(
        ItemAttribute(
          name: TextRange(start: nameStart, end: nameEnd), value: TextRange(start: valueStart, end: index)))
      index += 1
    }
  }
}
