extension XMLName {
  /// `NameStartChar` of XML 1.0 (fifth edition), without the colon: what
  /// libxml2 accepts as the first character of an element or attribute name.
  public static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x41...0x5A, 0x5F, 0x61...0x7A: true
    case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
      0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD,
      0x10000...0xEFFFF:
      true
    default: false
    }
  }

  /// `NameChar` of XML 1.0 (fifth edition), without the colon.
  public static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if isNameStart(scalar) { return true }
    switch scalar.value {
    case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true
    default: return false
    }
  }

  /// The exact rule for a name with characters beyond ASCII.
  static func isUnicodeNCName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, isNameStart(first) else { return false }
    return name.unicodeScalars.allSatisfy(isNameCharacter)
  }
}
