/// Messages as one line: every format prints a diagnostic on one line
/// (`path:line:col: ...`, `::error file=...::...`), whatever text it carries.
public enum MessageText {
  /// `text` on one line: a line break (`\n`, `\r`, vertical tab, form feed,
  /// U+0085, U+2028, U+2029), with the spaces and tabs around it, becomes one
  /// space; white space at the ends is dropped; any other control character
  /// (C0 but tab, DEL, C1) is written `\u{1B}`. Text that needs none of this
  /// is returned as it is.
  public static func singleLine(_ text: String) -> String {
    if !needsWork(text) { return text }
    var out = String.UnicodeScalarView()
    var pendingBreak = false
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
        while let last = out.last, last == " " || last == "\t" { out.removeLast() }
        pendingBreak = true
      case 0x09, 0x20:
        if !pendingBreak && !out.isEmpty { out.append(scalar) }
      default:
        if pendingBreak && !out.isEmpty { out.append(" ") }
        pendingBreak = false
        if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
          out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
        } else {
          out.append(scalar)
        }
      }
    }
    while let last = out.last, last == " " || last == "\t" { out.removeLast() }
    return String(out)
  }

  /// Whether `text` has a control character, a Unicode line break, or white space at an end.
  private static func needsWork(_ text: String) -> Bool {
    var text = text
    // The contiguous bytes (no copy for a native string), scanned as a buffer.
    return text.withUTF8 { utf8 in
      if let first = utf8.first, first == 0x20 || first == 0x09 { return true }
      if let last = utf8.last, last == 0x20 || last == 0x09 { return true }
      var previous: UInt8 = 0
      for byte in utf8 {
        if byte < 0x20 && byte != 0x09 { return true }
        if byte == 0x7F { return true }
        // C1 controls are C2 80...C2 9F; U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        if previous == 0xC2 && byte < 0xA0 { return true }
        if previous == 0x80 && (byte == 0xA8 || byte == 0xA9) { return true }
        previous = byte
      }
      return false
    }
  }
}
