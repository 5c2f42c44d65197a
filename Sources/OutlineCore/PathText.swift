/// Path strings taken apart as text, the way `NSString` does, without it: on Linux,
/// `NSString.deletingLastPathComponent` traps on a path of one character (`x`, `.`), so
/// writing a file named `b` crashed.
public enum PathText {
  /// The folder part of `path`, as `NSString.deletingLastPathComponent` gives it: `a/b` is
  /// `a`, `b` is empty, `/b` is `/`, trailing and doubled slashes are dropped.
  public static func folder(of path: String) -> String {
    var bytes = Array(path.utf8)
    while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
    var end = slash
    while end > 0 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
  }
}

extension PathText {
  /// A path's bytes as text: UTF-8 as it is, and each byte of a sequence that is not UTF-8,
  /// and each control character (C0 and DEL, so the text is one line), written `\xFF` (two
  /// hexadecimal digits, upper case). Names on Linux may hold any bytes; this is how the tool
  /// shows one it cannot carry as a path ([Files.md](Files.md#folders)).
  public static func displayed(bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes)
    var text = ""
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    let hex = Array("0123456789ABCDEF".unicodeScalars)
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        if scalar.value < 0x20 || scalar.value == 0x7F {
          text += "\\x"
          text.unicodeScalars.append(hex[Int(scalar.value >> 4)])
          text.unicodeScalars.append(hex[Int(scalar.value & 15)])
        } else {
          text.unicodeScalars.append(scalar)
        }
        offset += encoded.count
      case .error(let length):
        for byte in bytes[offset..<(offset + length)] {
          text += "\\x"
          text.unicodeScalars.append(hex[Int(byte >> 4)])
          text.unicodeScalars.append(hex[Int(byte & 15)])
        }
        offset += length
      case .emptyInput:
        return text
      }
    }
  }

  /// Whether `bytes` are UTF-8 (a name the tool can carry as a path).
  public static func isUTF8(_ bytes: some Collection<UInt8>) -> Bool {
    String(validating: Array(bytes), as: UTF8.self) != nil
  }
}
