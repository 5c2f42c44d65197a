import OutlineCore

/// Refuses documents whose bytes are not UTF-8 before libxml2 sees them.
///
/// Every range in the toolchain is a byte range of the file; libxml2 would
/// transcode UTF-16 or Latin-1 input into a buffer of its own, so positions
/// would stop being the file's. Outline and model files are UTF-8.
enum EncodingCheck {
  struct Problem {
    let message: String
    let range: TextRange
  }

  /// What the first bytes say of the encoding: UTF-8 (declared so or not), ASCII (declared
  /// so: the file is read as UTF-8, but a byte that is not ASCII contradicts the
  /// declaration), or refused.
  enum Verdict {
    case utf8
    /// The declaration names ASCII, spelled `declared`.
    case ascii(declared: String)
    case refused(Problem)
  }

  static func verdict(for prefix: UnsafeBufferPointer<UInt8>) -> Verdict {
    if prefix.starts(with: [0xFE, 0xFF]) || prefix.starts(with: [0xFF, 0xFE]) {
      return .refused(
        Problem(
          message: "The file is UTF-16 (it starts with a UTF-16 byte order mark); outline files are UTF-8",
          range: TextRange(start: 0, end: 2)))
    }
    if prefix.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) {
      // `<?xm` in EBCDIC: libxml2 would transcode it.
      return .refused(
        Problem(
          message: "The file is EBCDIC (it starts with '<?xm' in EBCDIC); outline files are UTF-8",
          range: TextRange(start: 0, end: 4)))
    }
    if prefix.count >= 4, prefix[0] == 0 || prefix[1] == 0 {
      // `<` as UTF-16 or UTF-32 without a byte order mark: the NUL bytes say which.
      let nul = prefix[0] == 0 ? 0 : 1
      let form: String?
      switch (prefix[0] == 0, prefix[1] == 0, prefix[2] == 0, prefix[3] == 0) {
      case (false, true, true, true): form = "UTF-32 little-endian"
      case (false, true, false, true), (false, true, _, _): form = "UTF-16 little-endian"
      case (true, true, true, false): form = "UTF-32 big-endian"
      case (true, false, _, _): form = "UTF-16 big-endian"
      default: form = nil
      }
      let which = nul == 0 ? "it starts with a NUL byte" : "its second byte is a NUL byte"
      return .refused(
        Problem(
          message: form.map {
            "The file looks like \($0) without a byte order mark (\(which)); outline files are UTF-8"
          }
            ?? "The file is not UTF-8 (\(which)); outline files are UTF-8",
          range: TextRange(start: nul, end: nul + 1)))
    }
    guard let declared = declaredEncoding(in: prefix) else { return .utf8 }
    let name = String(decoding: prefix[declared.start..<declared.end], as: UTF8.self)
    switch name.lowercased() {
    case "utf-8", "utf8": return .utf8
    case "us-ascii", "ascii": return .ascii(declared: name)
    default:
      return .refused(
        Problem(
          message: "Unsupported encoding \(Excerpt.quoted(name)): outline files are UTF-8", range: declared))
    }
  }

  /// The index of the first byte of `bytes` that is not ASCII, eight bytes at a time.
  static func firstNonASCII(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var index = 0
    while index + 8 <= bytes.count && WordScan.nonASCII(WordScan.load(base + index)) == 0 { index += 8 }
    while index < bytes.count {
      if base[index] >= 0x80 { return index }
      index += 1
    }
    return nil
  }

  /// The range of the encoding name in a leading `<?xml ... encoding="..."?>`.
  /// (Compared in place: copying slices into arrays here showed in a small file's lint.)
  static func declaredEncoding(in bytes: UnsafeBufferPointer<UInt8>) -> TextRange? {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    guard bytes.count >= start + 5, bytes[start..<start + 5].elementsEqual("<?xml".utf8) else {
      return nil
    }
    guard let close = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
    let key = "encoding".utf8
    var index = start
    while index + key.count <= close {
      if bytes[index..<index + key.count].elementsEqual(key) {
        var cursor = index + key.count
        while cursor < close, bytes[cursor] != UInt8(ascii: "\""), bytes[cursor] != UInt8(ascii: "'") {
          cursor += 1
        }
        guard cursor < close else { return nil }
        let quote = bytes[cursor]
        let valueStart = cursor + 1
        guard let valueEnd = bytes[valueStart..<close].firstIndex(of: quote) else { return nil }
        return TextRange(start: valueStart, end: valueEnd)
      }
      index += 1
    }
    return nil
  }
}
