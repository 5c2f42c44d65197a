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
